package definition

import (
	"context"

	"hearth/internal/agent"
)

// CoachAgentID is the health coach's agent id.
const CoachAgentID = "health-coach"

// Tuning is what an assignment-driven agent (the health coach) reads from
// its current definition before each run. Its fields match coach.Tuning
// one for one, so coach.Tuning(t) converts it.
type Tuning struct {
	SystemPrompt string
	UserTemplate string
	Model        agent.ModelSettings
}

// TuningSource reads an agent's tuning from its current definition, so an
// admin edit (or rollback) changes the agent's next run.
type TuningSource struct {
	repo    *Repo
	agentID string
}

// CoachTuningSource returns the tuning source for agentID (CoachAgentID for
// the health coach). Wrap it for coach.TuningSource:
//
//	func (a adapter) CoachTuning(ctx context.Context) (coach.Tuning, error) {
//		t, err := a.src.Tuning(ctx)
//		return coach.Tuning(t), err
//	}
func CoachTuningSource(repo *Repo, agentID string) *TuningSource {
	return &TuningSource{repo: repo, agentID: agentID}
}

// Tuning returns the current definition's prompts and model settings
// (cached; NotFound when the agent has no active version).
func (s *TuningSource) Tuning(ctx context.Context) (Tuning, error) {
	v, err := s.repo.Active(ctx, s.agentID)
	if err != nil {
		return Tuning{}, err
	}
	return TuningOf(v.Definition), nil
}

// TuningOf maps a definition to agent model settings: MaxRetries 0 (none)
// becomes agent.ModelSettings' -1, whose 0 means "default".
func TuningOf(d Definition) Tuning {
	retries := d.MaxRetries
	if retries == 0 {
		retries = -1
	}
	return Tuning{SystemPrompt: d.SystemPrompt, UserTemplate: d.UserTemplate, Model: agent.ModelSettings{
		Model: d.Model, Temperature: d.Temperature, MaxTokens: d.MaxTokens, MaxIterations: d.MaxIterations, MaxRetries: retries}}
}

// DefinitionOf builds a definition from an agent's code defaults: its
// tuning, output schema and tool ids (the inverse of TuningOf; zero limits
// take the agent package's defaults).
func DefinitionOf(agentID string, t Tuning, schema map[string]any, toolIDs []string) Definition {
	m := t.Model
	d := Definition{AgentID: agentID, SystemPrompt: t.SystemPrompt, UserTemplate: t.UserTemplate, Model: m.Model,
		Temperature: m.Temperature, MaxTokens: m.MaxTokens, MaxIterations: m.MaxIterations, MaxRetries: m.MaxRetries,
		ToolIDs: toolIDs, OutputSchema: schema}
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

// EnsureSeeded inserts def as version 1 of its agent when the agent has no
// version at all (active or not), validated like any save, and reports
// whether it did. Later starts leave the admin's versions alone.
func EnsureSeeded(ctx context.Context, repo *Repo, def Definition) (bool, error) {
	_, created, err := repo.insert(ctx, def, "system", "seeded from the code defaults", true)
	return created, err
}

// SeedCoach seeds the health coach's first version (see EnsureSeeded); def's
// AgentID defaults to CoachAgentID.
func SeedCoach(ctx context.Context, repo *Repo, def Definition) (bool, error) {
	if def.AgentID == "" {
		def.AgentID = CoachAgentID
	}
	return EnsureSeeded(ctx, repo, def)
}
