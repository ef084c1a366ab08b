package app

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"

	"hearth/internal/agent/llm"
	"hearth/internal/eval"
)

// EvalFactory returns the factory `hearth eval` and Admin → Evals build
// each scenario's Hearth with: New's wiring of the engine and the stores
// it needs (no web server, backups or nested eval service) over a fresh
// scratch database (store.OpenScratch: not fsynced) in the scenario's directory, on the scenario's clock and time zone, with cfg's
// runtime (the model when one is configured, else the heuristic coach)
// and prices. The instances take model calls from slots, so all of them
// together stay within one limit (nil: a new set of
// HEARTH_MODEL_CONCURRENCY slots), and share what is learned about the
// model endpoint in profiles (nil: in memory, for this suite).
func EvalFactory(cfg Config, logger *slog.Logger, slots chan struct{}, profiles llm.ProfileStore) eval.Factory {
	if slots == nil {
		slots = make(chan struct{}, max(cfg.ModelConcurrency, 1))
	}
	if profiles == nil {
		profiles = &llm.MemoryProfiles{}
	}
	return func(ctx context.Context, spec eval.InstanceSpec) (*eval.Instance, error) {
		c := cfg
		c.Addr = "127.0.0.1:0"
		c.DataDir, c.DBPath, c.BackupDir = spec.Dir, filepath.Join(spec.Dir, "hearth.db"), filepath.Join(spec.Dir, "backups")
		c.Location = spec.Location
		c.Demo, c.Catalog = false, ""
		c.PlexURL, c.PlexToken, c.PlexSection = "", "", ""
		c.AdminPassword, c.APIToken = "", ""
		c.BudgetTokens, c.BudgetUSD = spec.BudgetTokens, 0
		a, err := newApp(ctx, c, logger, buildOptions{Options: Options{Now: spec.Now}, modelSlots: slots, profiles: profiles, mutant: spec.Mutant,
			noReplan: true, engineOnly: true, scratch: true})
		if err != nil {
			return nil, err
		}
		return &eval.Instance{DB: a.DB, Catalog: a.Catalog, Programs: a.Programs, Dashboards: a.Dashboards,
			Agents: a.Agents, Definitions: a.Definitions.Repo, Runtime: evalRuntime(c), Close: a.Close}, nil
	}
}

// buildEvals creates the service behind Admin → Evals: the suite with the
// server's runtime, its scenarios' model calls taking the server's slots
// (one HEARTH_MODEL_CONCURRENCY for both) and using what the server
// learned about the endpoint, two scenarios at once so the kiosk stays
// responsive.
func (a *App) buildEvals(ctx context.Context) error {
	s, err := eval.NewService(ctx, a.DB, a.Definitions.Repo, eval.ServiceOptions{
		Factory: EvalFactory(a.cfg, nil, a.Agents.ModelSlots(), llm.NewEndpoints(a.DB)), Runtime: evalRuntime(a.cfg), Parallel: 2, Publisher: a.Hub,
		Logger: a.log,
	})
	if err != nil {
		return fmt.Errorf("app: evals: %w", err)
	}
	a.Evals = s
	return nil
}

// evalRuntime names what the coach reasons with under cfg: the model, or
// the heuristic coach.
func evalRuntime(cfg Config) string {
	if cfg.ModelConfigured() {
		return cfg.Model
	}
	return eval.RuntimeHeuristic
}
