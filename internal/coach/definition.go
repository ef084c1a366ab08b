package coach

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"hearth/internal/agent"
	"hearth/internal/agent/definition"
	"hearth/internal/apperr"
	"hearth/internal/dashboard"
)

// Context types the coach provides to declarative definitions (registered
// by the app next to the generic ones of package definition).
const (
	ContextTargetsGoals  = "targets_goals"
	ContextProgramState  = "program_state"
	ContextHealthSummary = "health_summary"
	ContextCatalogMenu   = "catalog_menu"
)

// Contexts resolves the coach's context types by calling its read tools in
// box for the member, so a definition sees exactly what the tools say.
func Contexts(box *agent.Toolbox, now func() time.Time) map[string]definition.ContextResolver {
	call := func(tool, args string) definition.ContextResolver {
		return func(ctx context.Context, member string) (string, error) {
			out, err := box.Call(ctx, agent.Scope{AgentID: AgentID, MemberID: member, Now: now()}, tool, json.RawMessage(args))
			if err != nil {
				return "", err
			}
			raw, err := json.Marshal(out)
			return string(raw), err
		}
	}
	return map[string]definition.ContextResolver{
		ContextTargetsGoals:  call("get_user_goals", `{"include_inactive":null}`),
		ContextProgramState:  call("get_program_state", `{}`),
		ContextHealthSummary: call("get_health_summary", `{"date":null}`),
		ContextCatalogMenu:   call("get_fitness_content", `{"kind":null,"program":null,"query":null,"max_duration":null,"limit":null}`),
	}
}

// SeedDefinition is the coach's version 1: its code defaults (prompts and
// model settings of DefaultTuning, the dashboard schema, the given tools).
// Zero limits take the agent package's defaults.
func SeedDefinition(toolIDs []string) definition.Definition {
	t := DefaultTuning()
	m := t.Model
	d := definition.Definition{AgentID: AgentID, SystemPrompt: t.SystemPrompt, UserTemplate: t.UserTemplate, Model: m.Model,
		Temperature: m.Temperature, MaxTokens: m.MaxTokens, MaxIterations: m.MaxIterations, MaxRetries: m.MaxRetries,
		ToolIDs: toolIDs, OutputSchema: dashboard.SchemaMap()}
	if d.MaxIterations <= 0 {
		d.MaxIterations = 8
	}
	switch {
	case m.MaxRetries < 0:
		d.MaxRetries = 0
	case m.MaxRetries == 0:
		d.MaxRetries = 2
	}
	return d
}

// Seed inserts the coach's version 1 when it has no version yet (see
// definition.EnsureSeeded) and reports whether it did.
func Seed(ctx context.Context, repo *definition.Repo, toolIDs []string) (bool, error) {
	return definition.EnsureSeeded(ctx, repo, SeedDefinition(toolIDs))
}

// SeedUpdateNote is the change note of a version UpgradeSeed saves.
const SeedUpdateNote = "seed update: the daily run offers its model only the tools it needs (the prompt budget of local models)"

// UpgradeSeed brings a coach definition nobody has edited (its active
// version is the system's) to toolIDs, the seed's tool list, in a new
// version. Before, the seed listed every coach tool, so a household's
// daily run sent all their definitions (~3,000 prompt tokens) on every
// request. A definition the admin saved is theirs and stays as it is.
func UpgradeSeed(ctx context.Context, repo *definition.Repo, toolIDs []string) (bool, error) {
	cur, err := repo.Active(ctx, AgentID)
	if err != nil {
		return false, fmt.Errorf("coach: upgrade the seed: %w", err)
	}
	if cur.CreatedBy != "system" || slices.Equal(cur.ToolIDs, toolIDs) {
		return false, nil
	}
	d := cur.Definition
	d.ToolIDs = slices.Clone(toolIDs)
	if _, err := repo.Save(ctx, d, "system", SeedUpdateNote); err != nil {
		return false, fmt.Errorf("coach: upgrade the seed: %w", err)
	}
	return true, nil
}

// Needs is what the daily-dashboard assignment cannot do without in the
// coach's definition (definition.Registry.Needs): the dashboard document
// schema as its output schema, since the run writes that document.
func Needs(d definition.Definition) []definition.Need {
	want, _ := json.Marshal(dashboard.SchemaMap())
	got, _ := json.Marshal(d.OutputSchema)
	if d.OutputSchema != nil && bytes.Equal(want, got) {
		return nil
	}
	return []definition.Need{{Field: "output_schema", Message: "the daily-dashboard assignment needs the dashboard document schema " +
		"(it writes that document every morning): restore it from the seed or version 1"}}
}

// TuningOf is the tuning a definition gives the coach: its prompts and
// model settings. A definition's MaxRetries 0 (none) becomes
// agent.ModelSettings' -1, whose 0 means "the default".
func TuningOf(d definition.Definition) Tuning {
	retries := d.MaxRetries
	if retries == 0 {
		retries = -1
	}
	return Tuning{SystemPrompt: d.SystemPrompt, UserTemplate: d.UserTemplate, Model: agent.ModelSettings{
		Model: d.Model, Temperature: d.Temperature, MaxTokens: d.MaxTokens, MaxIterations: d.MaxIterations, MaxRetries: retries,
		ToolModel: d.ToolModel, Budget: d.RunBudget()}}
}

// Definitions are the stored definitions as the coach reads them
// (*definition.Repo).
type Definitions interface {
	Active(ctx context.Context, agentID string) (definition.Version, error)
}

// DefinitionTuning is the TuningSource that reads the coach's current
// definition before every run, so an admin edit (or rollback) changes the
// next run without a restart.
func DefinitionTuning(defs Definitions) TuningSource { return definitionTuning{defs} }

type definitionTuning struct{ defs Definitions }

func (d definitionTuning) CoachTuning(ctx context.Context) (Tuning, error) {
	v, err := d.defs.Active(ctx, AgentID)
	if err != nil {
		return Tuning{}, err
	}
	t := TuningOf(v.Definition)
	t.Source = fmt.Sprintf("definition %s v%d", AgentID, v.Number)
	return t, nil
}

// DefinitionRuntime is what the coach gives its declarative definition
// beyond tools and contexts: its own template variables (the gathered
// facts its user template names, see TemplateVariables), and its answers
// when no model is configured ("Try it" on a fresh install): for its own
// definition the heuristic day plan when the definition asks for a
// structured document, its no-model reply otherwise; for any other agent
// the same reply to free-text requests (and a clear refusal of structured
// output, which only a model can write to another agent's schema).
func DefinitionRuntime(deps Deps, box *agent.Toolbox) (vars definition.VarsFunc, own, others definition.Heuristic) {
	c := newCore(deps)
	r := newReplier(c)
	a := newDailyDashboard(c)
	gather := func(ctx context.Context, scope agent.Scope) (*Gathered, error) {
		read := agent.Scope{AgentID: scope.AgentID, MemberID: scope.MemberID, RunID: scope.RunID, Now: scope.Now, Memory: scope.Memory}
		return c.gather(ctx, &agent.Env{Scope: read, Memory: scope.Memory, Tools: box})
	}
	vars = func(ctx context.Context, scope agent.Scope) (map[string]string, error) {
		g, err := gather(ctx, scope)
		if err != nil {
			return nil, err
		}
		return g.promptVars(scope.Memory), nil
	}
	// A definition's heuristic answers with the message a request asks
	// for, not sending it: send_message is a tool the definition may or
	// may not offer, and "Try it" is the admin trying the agent out.
	turn := func(scope agent.Scope, user string) agent.ChatTurn {
		call := box.Caller(scope)
		return agent.ChatTurn{Message: user, Call: func(ctx context.Context, name string, args json.RawMessage) (any, error) {
			if name == "send_message" {
				return nil, apperr.NotFoundf("unknown tool %q", name)
			}
			return call(ctx, name, args)
		}}
	}
	own = func(ctx context.Context, scope agent.Scope, _, user string, structured bool) (string, error) {
		if !structured {
			return r.Reply(ctx, scope, turn(scope, user))
		}
		g, err := gather(ctx, scope)
		if err != nil {
			return "", err
		}
		doc, err := a.Plan(ctx, g, scope.Memory)
		if err != nil {
			return "", err
		}
		raw, err := json.Marshal(doc)
		return string(raw), err
	}
	others = func(ctx context.Context, scope agent.Scope, _, user string, structured bool) (string, error) {
		if structured {
			return "", errors.New("no language model is configured, and only a model can write this agent's structured output")
		}
		return r.Reply(ctx, scope, turn(scope, user))
	}
	return vars, own, others
}
