package coach

import (
	"strings"
	"testing"

	"hearth/internal/health"
)

// The daily run's prompt says where it comes from and, for a run the
// heuristic answered, that no model saw it; a definition stored before
// saves checked its placeholders ({{user.favourite_food}}) gives the
// built-in prompt, and the run says so instead of showing code defaults
// as if they were the admin's. Checked by dropping the note: the run's
// prompt is the built-in one with nothing to say why.
func TestDailyPromptSaysWhereItComesFrom(t *testing.T) {
	f := newFixture(t, fixtureOpts{tuning: tuningFunc(func() (Tuning, error) {
		return Tuning{SystemPrompt: "Coach {{user.name}}, who loves {{user.favourite_food}}.", Source: "definition health-coach v4"}, nil
	})})
	f.member(health.Member{ID: "ada", Name: "Ada"})
	r := f.run("ada")
	p := r.Prompt
	if p == nil || p.Source != "definition health-coach v4" || p.NotSent != "heuristic run" {
		t.Fatalf("prompt %+v: want its source and not sent", p)
	}
	if len(p.Notes) != 1 || !strings.Contains(p.Notes[0], "system prompt of definition health-coach v4 cannot be filled") ||
		!strings.Contains(p.Notes[0], "user.favourite_food") || !strings.Contains(p.Notes[0], "the built-in one was used") {
		t.Fatalf("notes %q: want the unfilled placeholder named", p.Notes)
	}
	if !strings.Contains(p.System, "Your assignment") {
		t.Fatalf("system prompt %.100q: want the built-in one", p.System)
	}

	ok := newFixture(t, fixtureOpts{tuning: tuningFunc(func() (Tuning, error) {
		return Tuning{SystemPrompt: "Coach {{user.name}} on pineapples.", Source: "definition health-coach v5"}, nil
	})})
	ok.member(health.Member{ID: "ada", Name: "Ada"})
	if p := ok.run("ada").Prompt; p == nil || len(p.Notes) != 0 || !strings.Contains(p.System, "Coach Ada on pineapples.") {
		t.Fatalf("a definition that renders: %+v", p)
	}
}
