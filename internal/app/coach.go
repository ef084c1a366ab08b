package app

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"hearth/internal/agent"
	"hearth/internal/agent/definition"
	"hearth/internal/coach"
)

// registerAgents builds the declarative agent definitions over the coach's
// tools, seeds the coach's version 1, registers the coach (its prompts and
// model settings read from its current definition before every run), and
// creates the default schedules (daily dashboard at 04:00, heartbeat) on
// first start. Definitions run on the same orchestrator as the coach.
func (a *App) registerAgents(ctx context.Context) error {
	deps := coach.Deps{DB: a.DB, Catalog: a.Catalog, Programs: a.Programs, Dashboards: a.Dashboards,
		Schedule: a.Schedule.AgentTools(), Messages: a.Messages, Location: a.cfg.Location, Logger: a.log}
	box, err := agent.NewToolbox(coach.Toolset(deps)...)
	if err != nil {
		return fmt.Errorf("app: coach tools: %w", err)
	}
	contexts := coach.Contexts(box, a.DB.Now)
	contexts[definition.ContextDate] = definition.DateContext(a.DB.Now, a.cfg.Location)
	contexts[definition.ContextMemberProfile] = a.memberProfile
	repo := definition.NewRepo(a.DB, definition.Registry{
		Tools:    box,
		Contexts: contexts,
		Hooks:    definition.BuiltinHooks(a.Hub, nil),
		Vars:     map[string][]string{coach.AgentID: coach.TemplateVariables()},
	})
	if _, err := coach.Seed(ctx, repo, box.Names()); err != nil {
		return fmt.Errorf("app: seed the coach's definition: %w", err)
	}
	deps.Tuning = coach.DefinitionTuning(repo)
	if err := a.Agents.Register(coach.New(deps)); err != nil {
		return fmt.Errorf("app: register coach: %w", err)
	}
	vars, own, others := coach.DefinitionRuntime(deps, box)
	runner, err := definition.NewRunner(repo, a.Agents, definition.Options{Logger: a.log, Location: a.cfg.Location,
		Heuristics: map[string]definition.Heuristic{coach.AgentID: own}, Heuristic: others,
		Vars: map[string]definition.VarsFunc{coach.AgentID: vars}})
	if err != nil {
		return err
	}
	a.Definitions = definition.NewService(repo, runner)
	if err := a.Schedule.EnsureDefault(ctx); err != nil {
		return fmt.Errorf("app: default schedules: %w", err)
	}
	return a.buildWorkflows(ctx, deps)
}

// memberProfile is the member_profile context: the member's profile
// without private bookkeeping.
func (a *App) memberProfile(ctx context.Context, member string) (string, error) {
	m, err := a.DB.Member(ctx, member)
	if err != nil {
		return "", err
	}
	p := map[string]any{"id": m.ID, "name": m.Name, "unit": m.Unit, "sex": m.Sex, "activity_level": m.ActivityLevel}
	if m.HeightCm != nil {
		p["height_cm"] = *m.HeightCm
	}
	if age := m.AgeOn(time.Now()); age > 0 {
		p["age"] = age
	}
	raw, err := json.Marshal(p)
	return string(raw), err
}
