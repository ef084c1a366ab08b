package coach

import (
	"testing"

	"hearth/internal/agent"
	"hearth/internal/agent/definition"
	"hearth/internal/apperr"
)

// The coach's definition is seeded once from its code defaults, and its
// current version (edits, rollbacks) is what every run's tuning reads.
func TestSeedAndDefinitionTuningFollowEdits(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	box, err := agent.NewToolbox(Toolset(f.deps)...)
	if err != nil {
		t.Fatal(err)
	}
	repo := definition.NewRepo(f.db, definition.Registry{Tools: box, Vars: map[string][]string{AgentID: TemplateVariables()}})
	if created, err := Seed(f.ctx, repo, box.Names()); err != nil || !created {
		t.Fatalf("seed = %v, %v", created, err)
	}
	src := DefinitionTuning(repo)
	got, err := src.CoachTuning(f.ctx)
	if err != nil {
		t.Fatal(err)
	}
	def := DefaultTuning()
	if got.SystemPrompt != def.SystemPrompt || got.UserTemplate != def.UserTemplate || *got.Model.Temperature != *def.Model.Temperature ||
		got.Model.MaxTokens != def.Model.MaxTokens || got.Model.MaxIterations != def.Model.MaxIterations || got.Model.MaxRetries != 2 {
		t.Fatalf("seeded tuning = %+v, want the defaults", got)
	}
	v1, err := repo.Active(f.ctx, AgentID)
	if err != nil || len(v1.ToolIDs) != len(box.Names()) || v1.OutputSchema == nil {
		t.Fatalf("seeded version = %+v, %v", v1, err)
	}
	// An admin edit changes the next run's tuning; a second start does not reseed.
	edited := v1.Definition
	edited.SystemPrompt = "You are a gentler coach."
	edited.MaxRetries = 0
	if _, err := repo.Save(f.ctx, edited, "admin", "gentler"); err != nil {
		t.Fatal(err)
	}
	if created, err := Seed(f.ctx, repo, box.Names()); err != nil || created {
		t.Fatalf("reseed = %v, %v", created, err)
	}
	if got, _ = src.CoachTuning(f.ctx); got.SystemPrompt != "You are a gentler coach." || got.Model.MaxRetries != -1 {
		t.Fatalf("after edit = %+v (MaxRetries 0 means none: -1)", got)
	}
	if _, err := repo.Rollback(f.ctx, AgentID, "admin"); err != nil {
		t.Fatal(err)
	}
	if got, _ = src.CoachTuning(f.ctx); got.SystemPrompt != def.SystemPrompt {
		t.Fatalf("after rollback = %q", got.SystemPrompt)
	}
	// A seed that does not validate is refused (and reported).
	bad := SeedDefinition([]string{"no_such_tool"})
	bad.AgentID = "other-coach"
	if _, err := definition.EnsureSeeded(f.ctx, repo, bad); !apperr.Is(err, apperr.Invalid) {
		t.Fatalf("bad seed: %v", err)
	}
}
