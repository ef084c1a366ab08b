package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"hearth/internal/agent"

	"hearth/internal/agent/definition"
	"hearth/internal/coach"
	"hearth/internal/dashboard"
)

// coachDefinition adapts the health coach's current agent definition to
// coach.TuningSource; src is set once the definitions are built.
type coachDefinition struct{ src *definition.TuningSource }

func (c *coachDefinition) CoachTuning(ctx context.Context) (coach.Tuning, error) {
	if c.src == nil {
		return coach.Tuning{}, errors.New("app: agent definitions are not built yet")
	}
	t, err := c.src.Tuning(ctx)
	return coach.Tuning(t), err
}

// toolContext resolves a context type by calling one of the coach's read
// tools for the member, so definitions see exactly what the coach's tools say.
func toolContext(box *agent.Toolbox, tool, args string) definition.ContextResolver {
	return func(ctx context.Context, member string) (string, error) {
		out, err := box.Call(ctx, agent.Scope{AgentID: coach.AgentID, MemberID: member, Now: time.Now()}, tool, json.RawMessage(args))
		if err != nil {
			return "", err
		}
		raw, err := json.Marshal(out)
		return string(raw), err
	}
}

// memberProfile is the member's profile without private bookkeeping.
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

// buildDefinitions builds the declarative agent definitions over the coach's
// tools (call after registerAgents) and seeds the coach's version 1.
func (a *App) buildDefinitions(ctx context.Context, tuning *coachDefinition) (*definition.Service, error) {
	box, err := a.Agents.Toolbox(coach.AgentID)
	if err != nil {
		return nil, err
	}
	reg := definition.Registry{
		Tools: box,
		Contexts: map[string]definition.ContextResolver{
			definition.ContextDate:          definition.DateContext(a.DB.Now, a.cfg.Location),
			definition.ContextMemberProfile: a.memberProfile,
			definition.ContextTargetsGoals:  toolContext(box, "get_user_goals", `{"include_inactive":null}`),
			definition.ContextProgramState:  toolContext(box, "get_program_state", `{}`),
			definition.ContextHealthSummary: toolContext(box, "get_health_summary", `{"date":null}`),
			definition.ContextCatalogMenu: toolContext(box, "get_fitness_content",
				`{"kind":null,"program":null,"query":null,"max_duration":null,"limit":null}`),
		},
		Hooks:  definition.BuiltinHooks(a.Hub, nil),
		Memory: a.Agents.Memory(),
		Vars:   map[string][]string{definition.CoachAgentID: coach.TemplateVariables()},
	}
	repo := definition.NewRepo(a.DB, reg)
	runner, err := definition.NewRunner(repo, a.Runtimes.Model, definition.Options{
		Runs: a.Agents.Runs(), Publisher: a.Hub, Logger: a.log, Location: a.cfg.Location, Prices: a.cfg.Prices,
		BudgetExhausted: func(ctx context.Context) (bool, error) {
			st, err := a.Agents.BudgetStatus(ctx)
			return st.Exhausted, err
		},
	})
	if err != nil {
		return nil, err
	}
	seed := definition.DefinitionOf(definition.CoachAgentID, definition.Tuning(coach.DefaultTuning()), dashboard.SchemaMap(), box.Names())
	if _, err := definition.SeedCoach(ctx, repo, seed); err != nil {
		return nil, fmt.Errorf("app: seed the coach's definition: %w", err)
	}
	tuning.src = definition.CoachTuningSource(repo, definition.CoachAgentID)
	return definition.NewService(repo, runner), nil
}
