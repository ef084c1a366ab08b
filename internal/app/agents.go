package app

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"hearth/internal/agent"
	"hearth/internal/agent/llm"
	"hearth/internal/schedule"
	"hearth/internal/store"
)

// DefaultPrices are list prices (USD per million tokens) for common models;
// HEARTH_PRICES adds or overrides entries. Local models cost nothing.
var DefaultPrices = agent.Prices{
	"gpt-4o-mini":  {InputPerMTok: 0.15, OutputPerMTok: 0.60},
	"gpt-4o":       {InputPerMTok: 2.50, OutputPerMTok: 10.00},
	"gpt-4.1-mini": {InputPerMTok: 0.40, OutputPerMTok: 1.60},
	"gpt-4.1":      {InputPerMTok: 2.00, OutputPerMTok: 8.00},
}

// ParsePrices reads "model=in/out,model2=in/out" (USD per million tokens).
func ParsePrices(s string) (agent.Prices, error) {
	out := agent.Prices{}
	for k, v := range DefaultPrices {
		out[k] = v
	}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		model, pr, ok := strings.Cut(part, "=")
		in, outp, ok2 := strings.Cut(pr, "/")
		fi, err1 := strconv.ParseFloat(in, 64)
		fo, err2 := strconv.ParseFloat(outp, 64)
		if !ok || !ok2 || err1 != nil || err2 != nil || !finiteNonNeg(fi) || !finiteNonNeg(fo) || strings.TrimSpace(model) == "" {
			return nil, fmt.Errorf("config: HEARTH_PRICES entry %q: want model=input/output in USD per million tokens", part)
		}
		out[strings.TrimSpace(model)] = agent.Price{InputPerMTok: fi, OutputPerMTok: fo}
	}
	return out, nil
}

// finiteNonNeg rejects negatives and the NaN/Inf that strconv.ParseFloat accepts.
func finiteNonNeg(v float64) bool { return v >= 0 && !math.IsInf(v, 0) }

type memberIDs struct{ db *store.DB }

func (m memberIDs) MemberIDs(ctx context.Context) ([]string, error) {
	ms, err := m.db.ListMembers(ctx)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(ms))
	for i, x := range ms {
		ids[i] = x.ID
	}
	return ids, nil
}

// buildAgents creates the orchestrator with the model runtime (or only the
// heuristic one) and marks runs a crash left behind as interrupted.
func (a *App) buildAgents(ctx context.Context) error {
	ends := llm.NewEndpoints(a.DB)
	var profiles llm.ProfileStore = ends
	if a.opts.profiles != nil {
		profiles = a.opts.profiles
	}
	rt, err := llm.NewRuntimes(a.cfg.ModelConfig(profiles))
	if err != nil {
		return fmt.Errorf("app: model runtime: %w", err)
	}
	a.Runtimes = rt
	model, _ := rt.Model.(*llm.OpenAI)
	o, err := agent.NewOrchestrator(a.DB, rt, memberIDs{a.DB}, a.Hub, a.log, agent.Options{
		Prices: a.cfg.Prices, Budget: agent.Budget{Tokens: a.cfg.BudgetTokens, USD: a.cfg.BudgetUSD}, RunBudget: a.cfg.RunBudget,
		Location: a.cfg.Location, RunTimeout: a.cfg.RunTimeout, MaxConcurrentModelCalls: a.cfg.ModelConcurrency,
		ModelSlots: a.opts.modelSlots,
	})
	if err != nil {
		return fmt.Errorf("app: orchestrator: %w", err)
	}
	a.Agents = o
	a.Model = llm.NewModelAdmin(a.bg, model, ends, a.Hub, llm.AdminOptions{Timeout: 2 * a.cfg.RunTimeout, Slot: o.ModelSlot})
	n, err := o.MarkInterrupted(ctx)
	if err != nil {
		return err
	}
	if n > 0 {
		a.log.Warn("runs interrupted by the last shutdown", "count", n)
	}
	return nil
}

// buildScheduler creates the scheduler over the orchestrator; Start happens in Serve.
func (a *App) buildScheduler() error {
	catchUp := a.cfg.CatchUp
	if catchUp == 0 {
		catchUp = -1 // HEARTH_CATCHUP=0 turns catch-up off
	}
	runner := scheduleRunner{o: a.Agents, system: a.runSystemJob}
	s, err := schedule.New(a.DB, runner, a.Hub, a.log, schedule.Options{
		Location: a.cfg.Location, CatchUpWindow: catchUp, Clock: a.opts.Clock,
		RunNote: func(ctx context.Context, id int64) string {
			r, err := a.Agents.Runs().Get(ctx, id)
			if err != nil {
				return ""
			}
			return r.FallbackNote()
		},
		CheckTarget: func(agentID, assignmentID string) error {
			if agentID == schedule.SystemAgent {
				return checkSystemJob(assignmentID)
			}
			return a.Agents.CheckTarget(context.Background(), agentID, assignmentID)
		},
	})
	if err != nil {
		return fmt.Errorf("app: scheduler: %w", err)
	}
	a.Schedule = s
	return nil
}

// scheduleRunner adapts the orchestrator to what the scheduler fires, and
// runs Hearth's own (system) jobs itself.
type scheduleRunner struct {
	o      *agent.Orchestrator
	system func(ctx context.Context, job, trigger string) error
}

func trigger(t string) agent.Trigger {
	if t == schedule.TriggerManual {
		return agent.TriggerManual
	}
	return agent.TriggerSchedule
}

func runErr(r agent.Run) error {
	switch r.Status {
	case agent.StatusFailed, agent.StatusInterrupted:
		return fmt.Errorf("run %d %s: %s", r.ID, r.Status, r.Error)
	}
	return nil
}

func (s scheduleRunner) RunAssignment(ctx context.Context, agentID, assignmentID, memberID, trig, origin string) (int64, error) {
	if agentID == schedule.SystemAgent {
		return 0, s.system(ctx, assignmentID, trig)
	}
	req := agent.Request{Agent: agentID, Assignment: assignmentID, Member: memberID, Trigger: trigger(trig), Origin: origin}
	if memberID == "" {
		runs, err := s.o.RunEach(ctx, req)
		if err != nil {
			return 0, err
		}
		var last int64
		var errs []error
		for _, r := range runs {
			last = r.ID
			errs = append(errs, runErr(r))
		}
		return last, errors.Join(errs...)
	}
	r, err := s.o.Run(ctx, req)
	if err != nil {
		return 0, err
	}
	return r.ID, runErr(r)
}

// RunFreeform runs a scheduled prompt. A message the prompt asks for goes
// out in the run's own commit, through the agent's send_message (the
// model's, or the heuristic's written from the prompt's words): nothing
// reads the prompt after. An agent made in admin runs its definition.
func (s scheduleRunner) RunFreeform(ctx context.Context, agentID, memberID, prompt, trig, origin string) (int64, error) {
	r, err := s.o.Run(ctx, agent.Request{Agent: agentID, Member: memberID, Message: prompt, Trigger: trigger(trig), Origin: origin})
	if err != nil {
		return r.ID, err
	}
	return r.ID, runErr(r)
}

// Idle reports whether the agent has no queued or running run.
func (s scheduleRunner) Idle(agentID string) bool {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for _, st := range []agent.Status{agent.StatusRunning, agent.StatusQueued} {
		runs, err := s.o.Runs().List(ctx, agent.RunFilter{Agent: agentID, Status: st, Limit: 1})
		if err != nil || len(runs) > 0 {
			return false
		}
	}
	return true
}
