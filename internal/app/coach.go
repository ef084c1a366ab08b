package app

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"hearth/internal/agent"
	"hearth/internal/agent/definition"
	"hearth/internal/coach"
	"hearth/internal/curator"
	"hearth/internal/homeassistant"
	"hearth/internal/lifeplan"
	"hearth/internal/messages"
	"hearth/internal/store"
)

// registerAgents builds the declarative agent definitions over the coach's
// tools, seeds the coach's version 1, registers the coach (its prompts and
// model settings read from its current definition before every run), and
// creates the default schedules (daily dashboard at 04:00, heartbeat) on
// first start. Definitions run on the same orchestrator as the coach.
func (a *App) registerAgents(ctx context.Context) error {
	a.LifePlan = lifeplan.NewService(a.DB, a.DB.Now)
	deps := coach.Deps{DB: a.DB, Catalog: a.Catalog, Programs: a.Programs, Dashboards: a.Dashboards,
		Schedule: a.Schedule.AgentTools(), Messages: a.Messages, Location: a.cfg.Location, Logger: a.log, Mutant: a.opts.mutant,
		Replan: a.requestReplan, LifePlan: a.LifePlan, LifePlanTools: lifeplan.LimitedTools(a.LifePlan)}
	coachTools := coach.Toolset(deps)
	// Definitions pick from the coach's factories (the limited life plan
	// among them) and the outside systems' (Home Assistant, Plex) and the
	// whole life plan; the coach itself never gets the latter.
	box, err := agent.NewToolbox(append(coachTools, homeassistant.Tools(a.homeAssistant), curator.Tools(a.curatorConnect, a.Catalog),
		lifeplan.Tools(a.LifePlan),
		a.configTools())...) // the config copilot's read-only tools (copilot.go)
	if err != nil {
		return fmt.Errorf("app: tool factories: %w", err)
	}
	contexts := coach.Contexts(box, a.DB.Now)
	contexts[definition.ContextDate] = definition.DateContext(a.DB.Now, a.cfg.Location)
	contexts[definition.ContextMemberProfile] = a.memberProfile
	repo := definition.NewRepo(a.DB, definition.Registry{
		Tools:    box,
		Contexts: contexts,
		Hooks:    a.definitionHooks(),
		Vars:     map[string][]string{coach.AgentID: coach.TemplateVariables()},
		// The coach's daily run renders its prompts with its own variables.
		OwnTemplates: map[string]bool{coach.AgentID: true},
		UserFields:   memberFields,
		Needs:        map[string]func(definition.Definition) []definition.Need{coach.AgentID: coach.Needs},
	})
	// The seed lists the daily run's model tools: its tool_ids shape the
	// run, and every definition offered is prompt a local model reads.
	daily := coach.DailyToolIDs(deps)
	if _, err := coach.Seed(ctx, repo, daily); err != nil {
		return fmt.Errorf("app: seed the coach's definition: %w", err)
	}
	if _, err := coach.UpgradeSeed(ctx, repo, daily); err != nil {
		return err
	}
	for _, seed := range []definition.Definition{homeControllerSeed(), mediaCuratorSeed(), lifePlanCoachSeed(),
		configCopilotSeed()} {
		if _, err := definition.EnsureSeeded(ctx, repo, seed); err != nil {
			return fmt.Errorf("app: seed the %s definition: %w", seed.AgentID, err)
		}
	}
	a.registerCurator()
	deps.Tuning = coach.DefinitionTuning(repo)
	var invoker *definition.Invoker // made below, over the orchestrator the coach registers with
	deps.Shape = func(ctx context.Context, x *agent.Exec, mem *agent.Memory, p agent.Prompt) (*agent.Shape, error) {
		return invoker.Shape(ctx, x, coach.AgentID, mem, p)
	}
	if err := a.Agents.Register(coach.New(deps)); err != nil {
		return fmt.Errorf("app: register coach: %w", err)
	}
	a.listener = listener{coach: coach.NewListener(deps, a.Agents.Memory()), replan: a.requestReplan}
	vars, own, others := coach.DefinitionRuntime(deps, box)
	invoker, err = definition.NewInvoker(repo, a.Agents, definition.Options{Logger: a.log, Location: a.cfg.Location,
		Members:    a.memberData,
		Heuristics: map[string]definition.Heuristic{coach.AgentID: own}, Heuristic: others,
		ToolHeuristics: map[string]definition.ToolHeuristic{HomeControllerID: homeControllerReply, MediaCuratorID: mediaCuratorReply,
			LifePlanCoachID: lifePlanCoachReply,
			ConfigCopilotID: configCopilotReply},
		Vars: map[string]definition.VarsFunc{coach.AgentID: vars}})
	if err != nil {
		return err
	}
	a.Definitions = definition.NewService(repo, invoker)
	a.Agents.SetDefinitions(invoker) // agents made in admin run through the one entry
	if err := a.Schedule.EnsureDefault(ctx); err != nil {
		return fmt.Errorf("app: default schedules: %w", err)
	}
	if err := a.buildWorkflows(ctx, deps); err != nil {
		return err
	}
	return a.registerTalos()
}

// definitionHooks are the hooks definitions may name: notify (the member's
// screens), log_note (a coaching note) and send_message (the member's coach
// messages).
func (a *App) definitionHooks() map[string]definition.HookFunc {
	hooks := definition.BuiltinHooks(a.Hub, coach.NoteLog{DB: a.DB})
	if a.Messages != nil {
		hooks[definition.HookSendMessage] = definition.SendMessageHook(
			func(ctx context.Context, tx *store.Tx, member, agentID, text string, runID int64) error {
				_, err := a.Messages.SendTx(ctx, tx, member, agentID, text, messages.Via{Source: "hook", RunID: runID})
				return err
			})
	}
	return hooks
}

// memberFields are the fields memberData may hold: what {{user.<field>}}
// may name (definition.Registry.UserFields; a save naming another is
// refused). goal_weight_kg, height_cm and age are there when known.
var memberFields = []string{"id", "name", "unit", "targets", "goals", "sex", "activity_level", "goal_weight_kg", "height_cm", "age"}

// memberData is $user and {{user.…}} in definitions: the member's profile
// (id, name, unit, targets, goal weight, height, age, sex, activity level)
// and active goals, the fields memberFields lists.
func (a *App) memberData(ctx context.Context, member string) (map[string]any, error) {
	m, err := a.DB.Member(ctx, member)
	if err != nil {
		return nil, err
	}
	goals, err := a.DB.Goals(ctx, member, true)
	if err != nil {
		return nil, err
	}
	raw, err := json.Marshal(m.Targets)
	if err != nil {
		return nil, err
	}
	var targets map[string]any
	if err := json.Unmarshal(raw, &targets); err != nil {
		return nil, err
	}
	gs := make([]any, 0, len(goals))
	for _, g := range goals {
		e := map[string]any{"kind": g.Kind, "description": g.Description, "unit": g.Unit}
		if g.Target != nil {
			e["target"] = *g.Target
		}
		if g.TargetDate != nil {
			e["target_date"] = g.TargetDate.Format(time.DateOnly)
		}
		gs = append(gs, e)
	}
	u := map[string]any{"id": m.ID, "name": m.Name, "unit": string(m.Unit), "targets": targets, "goals": gs,
		"sex": m.Sex, "activity_level": m.ActivityLevel}
	if m.GoalWeightKg != nil {
		u["goal_weight_kg"] = *m.GoalWeightKg
	}
	if m.HeightCm != nil {
		u["height_cm"] = *m.HeightCm
	}
	if age := m.AgeOn(a.DB.Now().In(a.cfg.Location)); age > 0 {
		u["age"] = age
	}
	return u, nil
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
