package eval_test

import (
	"strings"
	"testing"
	"time"

	"hearth/internal/agent/llm/llmtest"
	"hearth/internal/dashboard"
	"hearth/internal/eval"
)

// modelPlan is a plan a model might write for Pia (scenario
// gaps-filled-yesterday): her weight (62.6 kg) and yesterday's 1,900 kcal
// are facts, Morning Sun Flow (20 min) is in the demo catalog. change
// makes it wrong in one way.
func modelPlan(change func(d *dashboard.Document)) llmtest.Reply {
	main := dashboard.ContentRef{ContentID: "local:yoga-morning-sun", Title: "Morning Sun Flow", Duration: 20, Reason: "variety_pick"}
	d := dashboard.Document{
		GeneratedAt: time.Date(2026, 2, 18, 4, 0, 0, 0, time.UTC),
		Curated: dashboard.Curated{
			UpNext: dashboard.UpNext{Primary: &main, Alternates: []dashboard.ContentRef{}},
			PlaylistSuggestion: []dashboard.ContentRef{
				{ContentID: "local:warmup-joint-circles", Title: "Joint Circles Wake-Up", Duration: 4, Reason: "warm_up"}, main,
				{ContentID: "local:cooldown-breath", Title: "Breath and Cool-Down", Duration: 6, Reason: "cool_down"}},
		},
		Coach: dashboard.Coach{
			Briefing: "Weight 62.6 kg. Yesterday you logged 1,900 kcal. A flowing yoga session suits today.",
			CTA:      []dashboard.CTA{}, Prompts: []dashboard.Prompt{}, Feedback: []string{"Steady logging: keep it up."},
		},
	}
	if change != nil {
		change(&d)
	}
	return llmtest.JSON(d, 1200, 300)
}

// The three mistakes the scripted model makes, one per reply.
var (
	hallucinatedID = func(d *dashboard.Document) {
		d.Curated.UpNext.Primary = &dashboard.ContentRef{ContentID: "local:p90x-plyometrics", Title: "P90X Plyometrics", Duration: 58}
	}
	wrongNumbers = func(d *dashboard.Document) { d.Coach.Briefing = "Weight 68.2 kg. Yesterday you logged 2,450 kcal." }
	staleCTA     = func(d *dashboard.Document) {
		d.Coach.CTA = []dashboard.CTA{{Type: dashboard.CTADataGap, Action: dashboard.ActionOpenNutrition, Message: "No meals logged yesterday."}}
	}
)

func only(id string) func(*eval.Scenario) bool {
	return func(sc *eval.Scenario) bool { return sc.ID == id }
}

// TestScriptedModelMistakesAreCaught is the CI run with a scripted model
// (the fake Chat Completions server, real wire format, real openai-go
// client): a hallucinated content id, wrong numbers, then a stale call to
// action. The engine rejects the first two and accepts the third; the
// graders catch all three, in the replies and in the plan the member sees.
func TestScriptedModelMistakesAreCaught(t *testing.T) {
	srv := llmtest.New(t, modelPlan(hallucinatedID), modelPlan(wrongNumbers), modelPlan(staleCTA))
	rep := runSuite(t, evalConfig(srv.URL()), only("gaps-filled-yesterday"), 1)
	sc := rep.Scenarios[0]
	if sc.Error != "" || sc.Run.Status != "succeeded" || sc.Run.Model != "gpt-test" || sc.Run.Retries != 2 {
		t.Fatalf("run %+v, error %q", sc.Run, sc.Error)
	}
	if len(sc.Outputs) != 3 {
		t.Fatalf("%d outputs graded, want the 3 replies: %+v", len(sc.Outputs), sc.Outputs)
	}
	mustFail := func(i int, grader, want string) {
		t.Helper()
		r := sc.Outputs[i].Result(grader)
		if r.Passed || !strings.Contains(strings.Join(r.Problems, "\n"), want) {
			t.Errorf("reply %d: %s passed=%v %v, want a problem about %q", i+1, grader, r.Passed, r.Problems, want)
		}
	}
	mustFail(0, eval.GraderContent, `"local:p90x-plyometrics" is not in the catalog`)
	mustFail(1, eval.GraderNumbers, "68.2 is not in the facts")
	mustFail(1, eval.GraderNumbers, "2,450 is not in the facts")
	mustFail(2, eval.GraderStaleCTA, "meals were logged yesterday")
	if !sc.Outputs[0].Hallucinated || sc.Outputs[1].Hallucinated || sc.Outputs[2].StaleCTAs != 1 {
		t.Errorf("outputs %+v", sc.Outputs)
	}
	// The accepted plan is what the member sees: the stale CTA fails it.
	status := map[string]string{}
	for _, c := range sc.Checks {
		status[c.Name] = c.Status
	}
	if sc.Passed || status[eval.GraderStaleCTA] != eval.StatusFail || status["cta absent type=data_gap"] != eval.StatusFail ||
		status[eval.GraderContent] != eval.StatusPass || status[eval.GraderNumbers] != eval.StatusPass {
		t.Errorf("checks %v", status)
	}
	s := rep.Summary
	if s.ModelOutputs != 3 || s.HallucinationRate < 0.33 || s.HallucinationRate > 0.34 || s.NumericFidelity >= 1 ||
		s.StaleCTARate < 0.33 || s.Retries != 2 || s.Fallbacks != 0 || s.TokensIn != 3600 || s.TokensOut != 900 || s.CostUSD <= 0 {
		t.Errorf("summary %+v", s)
	}
}

// TestModelThatNeverGetsItRightFallsBack: three hallucinating replies, the
// heuristic coach writes the plan, the run says why, and the suite counts
// the fallback and every hallucinated reply.
func TestModelThatNeverGetsItRightFallsBack(t *testing.T) {
	srv := llmtest.New(t, modelPlan(hallucinatedID), modelPlan(hallucinatedID), modelPlan(hallucinatedID))
	rep := runSuite(t, evalConfig(srv.URL()), only("gaps-filled-yesterday"), 1)
	sc, s := rep.Scenarios[0], rep.Summary
	if sc.Run.Status != "fell_back" || !strings.HasPrefix(sc.Run.FallbackReason, "invalid_output") || sc.Run.Retries != 3 {
		t.Fatalf("run %+v", sc.Run)
	}
	if len(sc.Outputs) != 4 || sc.Outputs[3].Source != "heuristic" || sc.Outputs[3].Hallucinated {
		t.Fatalf("outputs %+v", sc.Outputs)
	}
	if !sc.Passed || s.Fallbacks != 1 || s.Reasons["invalid_output"] != 1 || s.HallucinationRate != 0.75 {
		t.Fatalf("passed %v, summary %+v, checks %+v", sc.Passed, s, sc.Checks)
	}
}

// TestModelRunsRespectTheBudgetAndTheConcurrencyLimit: the budget scenario
// spends the day's budget on an early model run, so the graded run falls
// back with reason "budget"; several scenarios run at once stay within
// the model-call slots.
func TestModelRunsRespectTheBudgetAndTheConcurrencyLimit(t *testing.T) {
	srv := llmtest.New(t)
	srv.Otherwise(func(llmtest.Request) llmtest.Reply {
		r := modelPlan(func(d *dashboard.Document) { d.Coach.Briefing = "A good day to move a little." })
		r.Delay = 40 * time.Millisecond // long enough for the scenarios' runs to overlap
		return r
	})
	cfg := evalConfig(srv.URL())
	cfg.ModelConcurrency = 1
	keep := map[string]bool{"model-budget-spent": true, "gaps-filled-yesterday": true, "protein-low": true, "weigh-in-stale": true}
	rep := runSuite(t, cfg, func(sc *eval.Scenario) bool { return keep[sc.ID] }, 4)
	for _, sc := range rep.Scenarios {
		if sc.ID != "model-budget-spent" {
			continue
		}
		if sc.Run.Status != "fell_back" || sc.Run.FallbackReason != "budget" || sc.SetupTokens == 0 {
			t.Errorf("budget scenario: run %+v, setup tokens %d", sc.Run, sc.SetupTokens)
		}
		for _, c := range sc.Checks {
			if strings.HasPrefix(c.Name, "run ") && c.Status != eval.StatusPass && c.Status != eval.StatusSkip {
				t.Errorf("%s: %s %s", c.Name, c.Status, c.Detail)
			}
		}
	}
	if n := srv.MaxConcurrent(); n != 1 {
		t.Errorf("%d model requests at once with HEARTH_MODEL_CONCURRENCY=1", n)
	}
}
