package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hearth/internal/agent/llm/llmtest"
	"hearth/internal/app"
	"hearth/internal/coach"
	"hearth/internal/dashboard"
	"hearth/internal/eval"
)

func evalEnv(dir string, extra map[string]string) func(string) string {
	env := map[string]string{"HEARTH_DATA": dir, "HEARTH_TZ": "UTC"}
	for k, v := range extra {
		env[k] = v
	}
	return func(k string) string { return env[k] }
}

// stalePlan is a valid plan for Pia (scenario gaps-filled-yesterday) with
// a call to action for meals she logged.
func stalePlan() llmtest.Reply {
	main := dashboard.ContentRef{ContentID: "local:yoga-morning-sun", Title: "Morning Sun Flow", Duration: 20, Reason: "variety_pick"}
	return llmtest.JSON(dashboard.Document{
		GeneratedAt: time.Date(2026, 2, 18, 4, 0, 0, 0, time.UTC),
		Curated:     dashboard.Curated{UpNext: dashboard.UpNext{Primary: &main, Alternates: []dashboard.ContentRef{}}, PlaylistSuggestion: []dashboard.ContentRef{main}},
		Coach: dashboard.Coach{Briefing: "A calm start today.", Prompts: []dashboard.Prompt{}, Feedback: []string{},
			CTA: []dashboard.CTA{{Type: dashboard.CTADataGap, Action: dashboard.ActionOpenNutrition, Message: "No meals logged yesterday."}}},
	}, 900, 200)
}

func TestEvalPrintsTheTableAndWritesTheReport(t *testing.T) {
	dir := t.TempDir()
	// The built-in suite has no open known gap: two of its scenarios, one
	// with a check the coach does not meet marked known_gap, from a
	// directory of scenario files (--scenarios).
	own := t.TempDir()
	for _, id := range []string{"mid-program-on-track", "over-calorie-target"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "internal", "eval", "scenarios", id+".json"))
		if err != nil {
			t.Fatal(err)
		}
		if id == "over-calorie-target" {
			b = bytes.Replace(b, []byte(`"expect": [`), []byte(`"expect": [
    {"check": "mentions", "field": "coach", "pattern": "a sentence no coach says", "known_gap": "never said"},`), 1)
		}
		if err := os.WriteFile(filepath.Join(own, id+".json"), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	var out, errOut bytes.Buffer
	code := runEval([]string{"--scenarios", own, "--min-designed", "1",
		"--max-hallucination", "0", "--min-fidelity", "1", "-v"}, evalEnv(dir, nil), &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out.String(), errOut.String())
	}
	for _, want := range []string{"mid-program-on-track", "over-calorie-target", "designed pass rate    100.0%",
		"runtime heuristic", "hallucination rate    0.0%", "[gap] mentions", "report written to " + filepath.Join(dir, "evals")} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if !strings.Contains(errOut.String(), "2/2 scenarios") {
		t.Errorf("no progress on stderr: %q", errOut.String())
	}
	reports, _ := filepath.Glob(filepath.Join(dir, "evals", "eval-*-heuristic.json"))
	if len(reports) != 1 {
		t.Fatalf("reports: %v", reports)
	}
	r, err := eval.ReadReport(reports[0])
	if err != nil || len(r.Scenarios) != 2 || r.Summary.DesignedPassRate != 1 {
		t.Fatalf("report %+v, %v", r, err)
	}
}

// TestEvalWithAScriptedModelMissesItsThresholds: the stale call to action
// a scripted model writes is caught and the run exits 1; comparing the
// two reports shows the regression.
func TestEvalWithAScriptedModelMissesItsThresholds(t *testing.T) {
	dir := t.TempDir()
	heur := filepath.Join(dir, "heuristic.json")
	var out, errOut bytes.Buffer
	if code := runEval([]string{"--scenario", "^gaps-filled-yesterday$", "--out", heur}, evalEnv(dir, nil), &out, &errOut); code != 0 {
		t.Fatalf("heuristic run: exit %d\n%s%s", code, out.String(), errOut.String())
	}
	srv := llmtest.New(t, stalePlan())
	model := filepath.Join(dir, "model.json")
	out.Reset()
	errOut.Reset()
	code := runEval([]string{"--scenario", "^gaps-filled-yesterday$", "--out", model, "--max-stale-cta", "0"},
		evalEnv(dir, map[string]string{"OPENAI_BASE_URL": srv.URL(), "HEARTH_MODEL": "gpt-test"}), &out, &errOut)
	if code != 1 || !strings.Contains(errOut.String(), "threshold missed: stale-CTA rate 1.000 is above 0.000") {
		t.Fatalf("exit %d\n%s\n%s", code, out.String(), errOut.String())
	}
	if !strings.Contains(out.String(), "gaps-filled-yesterday  FAIL") || !strings.Contains(out.String(), "runtime gpt-test") {
		t.Errorf("table:\n%s", out.String())
	}
	out.Reset()
	if code := runEval([]string{"--compare", heur, model}, evalEnv(dir, nil), &out, &errOut); code != 1 {
		t.Fatalf("compare exit %d\n%s", code, out.String())
	}
	for _, want := range []string{"regressions (met in A, not in B)", "gaps-filled-yesterday: stale_cta (pass → fail)", "heuristic", "gpt-test"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("comparison lacks %q:\n%s", want, out.String())
		}
	}
	if code := runEval([]string{"--compare", heur, heur}, evalEnv(dir, nil), &out, &errOut); code != 0 {
		t.Fatalf("comparing a report with itself: exit %d", code)
	}
}

// TestEvalReportsTheSelfChecks: --paraphrases and --mutants add the
// paraphrase check and the mutation score to the table and the report; on
// one scenario only the mutant it targets is killed, so the survivors fail
// the run.
func TestEvalReportsTheSelfChecks(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.json")
	var out, errOut bytes.Buffer
	code := runEval([]string{"--scenario", "^over-calorie-target$", "--mutants", "--paraphrases", "--out", path},
		evalEnv(dir, nil), &out, &errOut)
	n := len(coach.Mutants())
	if code != 1 || !strings.Contains(errOut.String(), fmt.Sprintf("threshold missed: mutation score 1/%d killed", n)) {
		t.Fatalf("exit %d\n%s\n%s", code, out.String(), errOut.String())
	}
	for _, want := range []string{fmt.Sprintf("mutation score        1/%d killed", n),
		"ignore-calorie-target      killed by 1: over-calorie-target (stance stance=over_target)", "ignore-injuries            SURVIVED",
		"paraphrases           1/1 pass in other words; 1/1 with one wrong fact fail"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	r, err := eval.ReadReport(path)
	if err != nil || r.Mutation == nil || r.Mutation.Killed != 1 || r.Paraphrases == nil || r.Paraphrases.Caught != 1 {
		t.Fatalf("report: %v, %+v, %+v", err, r.Mutation, r.Paraphrases)
	}
}

// TestEvalRunsADraftDefinition: --definition-version reads a draft from
// the household database and every scenario's coach runs with it.
func TestEvalRunsADraftDefinition(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	a, err := app.New(ctx, app.Config{Addr: "127.0.0.1:0", DataDir: dir, DBPath: filepath.Join(dir, "hearth.db"),
		Location: time.UTC, KioskIdle: time.Minute, Prices: app.DefaultPrices}, nil)
	if err != nil {
		t.Fatal(err)
	}
	cur, err := a.Definitions.Active(ctx, coach.AgentID)
	if err != nil {
		t.Fatal(err)
	}
	d := cur.Definition
	d.SystemPrompt = "DRAFT-MARKER. " + d.SystemPrompt
	draft, err := a.Definitions.SaveDraft(ctx, d, "admin", "evaluate first")
	if err != nil {
		t.Fatal(err)
	}
	_ = a.Close()

	srv := llmtest.New(t, stalePlan())
	var out, errOut bytes.Buffer
	code := runEval([]string{"--scenario", "^gaps-filled-yesterday$", "--definition-version", "2", "--out", filepath.Join(dir, "r.json")},
		evalEnv(dir, map[string]string{"OPENAI_BASE_URL": srv.URL()}), &out, &errOut)
	if code != 0 { // a failing scenario is information; only thresholds given as flags fail the run
		t.Fatalf("exit %d\n%s", code, errOut.String())
	}
	if draft.Number != 2 || !strings.Contains(out.String(), "definition v2 (draft)") {
		t.Errorf("draft v%d; output:\n%s", draft.Number, out.String())
	}
	reqs := srv.ChatRequests()
	if len(reqs) == 0 || !reqs[0].Contains("DRAFT-MARKER") {
		t.Fatalf("the model was not sent the draft's prompt (%d requests)", len(reqs))
	}
	if code := runEval([]string{"--definition-version", "9"}, evalEnv(dir, nil), &out, &errOut); code != 1 ||
		!strings.Contains(errOut.String(), "no version 9") {
		t.Fatalf("a missing version: exit %d, %s", code, errOut.String())
	}
}
