package eval_test

import (
	"context"
	"strings"
	"testing"

	"hearth/internal/coach"
	"hearth/internal/eval"
)

// TestParaphrasesPassAndWrongFactsFail: every scenario's plan in other
// words, served by a scripted model through the real client, passes the
// scenario; the same plan with one wrong fact fails the eval. Scenarios
// that grade a coach's sentences instead of facts fail the first half.
func TestParaphrasesPassAndWrongFactsFail(t *testing.T) {
	all, err := eval.Scenarios()
	if err != nil {
		t.Fatal(err)
	}
	var with []*eval.Scenario
	for _, sc := range all {
		if sc.Paraphrase != nil {
			with = append(with, sc)
		}
	}
	if len(with) < 10 {
		t.Fatalf("%d scenarios have a paraphrase, want at least 10", len(with))
	}
	base := runSuite(t, evalConfig(""), func(sc *eval.Scenario) bool { return sc.Paraphrase != nil }, 2)
	check, err := eval.RunParaphrases(context.Background(), with, base, func(url string) eval.Factory {
		cfg := evalConfig(url)
		cfg.Model = eval.ScriptedModelName
		return factory(cfg)
	}, eval.Options{TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range check.Results {
		if !r.Passed {
			t.Errorf("%s: the paraphrase fails: %s", r.Scenario, r.Problem)
		}
		if !r.Caught {
			t.Errorf("%s: the plan with a wrong fact (%s) passes", r.Scenario, r.Wrong)
		}
	}
	var b strings.Builder
	check.Print(&b)
	for _, r := range check.Results {
		b.WriteString("  " + r.Scenario + ": " + r.Wrong + " caught by " + r.CaughtBy + "\n")
	}
	t.Log("\n" + b.String())
}

// TestCoachMutantsAreKilled: each deliberately broken coach (one judgement
// switched off) fails every scenario that names it in its covers, and
// every mutant is named by one. The full matrix (every mutant on every
// scenario) is hearth eval --mutants.
func TestCoachMutantsAreKilled(t *testing.T) {
	all, err := eval.Scenarios()
	if err != nil {
		t.Fatal(err)
	}
	mut, err := eval.RunMutants(context.Background(), all, coach.Mutants(),
		func(m coach.Mutant) []*eval.Scenario { return eval.Targets(all, m) },
		eval.Options{Factory: factory(evalConfig("")), Parallel: 2, TempDir: t.TempDir()}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range mut.Mutants {
		targets := eval.Targets(all, coach.Mutant(r.Mutant))
		if len(targets) == 0 {
			t.Errorf("%s: no scenario names it (covers \"mutant:%s\")", r.Mutant, r.Mutant)
			continue
		}
		killers := map[string]bool{}
		for _, k := range r.KilledBy {
			killers[k.Scenario] = true
		}
		for _, sc := range targets {
			if !killers[sc.ID] {
				t.Errorf("%s survives %s, which names it", r.Mutant, sc.ID)
			}
		}
		if len(r.Errors) > 0 {
			t.Errorf("%s: %v", r.Mutant, r.Errors)
		}
	}
	if mut.Killed != mut.Total || mut.Total != len(coach.Mutants()) {
		t.Errorf("mutation score %s", mut.Score())
	}
	var b strings.Builder
	mut.Print(&b)
	t.Log("\n" + b.String())
}
