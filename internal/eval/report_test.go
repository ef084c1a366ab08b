package eval

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

func testReport(statuses map[string][]string, outputs []PlanGrade, run RunInfo) *Report {
	r := &Report{Runtime: "m", Definition: "code defaults"}
	for id, sts := range statuses {
		sc := ScenarioResult{ID: id, Passed: true, Run: run, Outputs: outputs}
		for i, st := range sts {
			sc.Checks = append(sc.Checks, CheckResult{Name: "check " + string(rune('a'+i)), Status: st})
			if st == StatusFail {
				sc.Passed = false
			}
		}
		r.Scenarios = append(r.Scenarios, sc)
	}
	r.summarize()
	return r
}

func TestSummaryRates(t *testing.T) {
	outputs := []PlanGrade{
		{Source: "model", Hallucinated: true, Figures: 4, Known: 3, StaleCTAs: 1},
		{Source: "heuristic", Figures: 6, Known: 6},
	}
	r := testReport(map[string][]string{
		"one": {StatusPass, StatusFail, StatusGap, StatusSkip},
		"two": {StatusPass, StatusGapMet},
	}, outputs, RunInfo{Status: "fell_back", FallbackReason: "invalid_output: 3 invalid replies", Retries: 3, TokensIn: 10,
		TokensOut: 5, CostUSD: 0.5, LatencyMS: 100})
	s := r.Summary
	check := func(name string, got, want float64) {
		t.Helper()
		if got != want {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	// Applicable checks: pass, fail, gap, pass, gap_met = 5; met 3.
	check("checks", float64(s.Checks), 5)
	check("pass rate", s.PassRate, 3.0/5)
	// Designed (not known gaps): pass, fail, pass = 3; met 2.
	check("designed pass rate", s.DesignedPassRate, 2.0/3)
	check("gaps", float64(s.Gaps), 1)
	check("gaps met", float64(s.GapsMet), 1)
	check("scenarios passed", float64(s.ScenariosPassed), 1)
	check("outputs", float64(s.Outputs), 4)
	check("model outputs", float64(s.ModelOutputs), 2)
	check("hallucination rate", s.HallucinationRate, 0.5)
	check("numeric fidelity", s.NumericFidelity, 18.0/20)
	check("stale rate", s.StaleCTARate, 0.5)
	check("retries", float64(s.Retries), 6)
	check("fallbacks", float64(s.Fallbacks), 2)
	check("invalid_output reasons", float64(s.Reasons["invalid_output"]), 2)
	check("cost", s.CostUSD, 1)
	check("p50", s.LatencyP50, 100)

	zero, one, two := 0.0, 1.0, 2
	missed := Thresholds{MinDesignedPassRate: &one, MaxHallucinationRate: &zero, MinNumericFidelity: &one, MaxFallbacks: &two}.Check(r)
	if len(missed) != 3 || !strings.Contains(strings.Join(missed, "\n"), "designed pass rate 0.667 is below 1.000") {
		t.Fatalf("missed thresholds: %v", missed)
	}
	if missed := (Thresholds{}).Check(r); len(missed) != 0 {
		t.Fatalf("no thresholds, yet: %v", missed)
	}
}

func TestPercentileIsNearestRank(t *testing.T) {
	xs := []float64{50, 10, 40, 20, 30}
	if p := percentile(xs, 50); p != 30 {
		t.Errorf("p50 = %v", p)
	}
	if p := percentile(xs, 95); p != 50 {
		t.Errorf("p95 = %v", p)
	}
	if p := percentile(nil, 50); p != 0 {
		t.Errorf("empty p50 = %v", p)
	}
}

func TestCompareFindsRegressionsAndImprovements(t *testing.T) {
	a := testReport(map[string][]string{"s": {StatusPass, StatusFail, StatusGap, StatusPass}, "gone": {StatusPass}}, nil, RunInfo{})
	b := testReport(map[string][]string{"s": {StatusFail, StatusPass, StatusGapMet, StatusSkip}, "new": {StatusPass}}, nil, RunInfo{})
	c := Compare(a, b)
	if len(c.Regressions) != 1 || c.Regressions[0].Check != "check a" {
		t.Errorf("regressions = %+v", c.Regressions)
	}
	if len(c.Improvements) != 2 {
		t.Errorf("improvements = %+v", c.Improvements)
	}
	if len(c.OnlyA) != 1 || c.OnlyA[0] != "gone" || len(c.OnlyB) != 1 || c.OnlyB[0] != "new" {
		t.Errorf("only A %v, only B %v", c.OnlyA, c.OnlyB)
	}
	var out bytes.Buffer
	c.Print(&out)
	for _, want := range []string{"1 regressions", "s: check a (pass → fail)", "2 improvements", "only in A: gone"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("comparison output lacks %q:\n%s", want, out.String())
		}
	}
}

func TestReportRoundTrips(t *testing.T) {
	r := testReport(map[string][]string{"s": {StatusPass}}, nil, RunInfo{Status: "succeeded"})
	path := filepath.Join(t.TempDir(), "r.json")
	if err := r.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	back, err := ReadReport(path)
	if err != nil {
		t.Fatal(err)
	}
	if back.Summary.Checks != 1 || back.Summary.Met != 1 || len(back.Scenarios) != 1 || back.Scenarios[0].Checks[0].Status != StatusPass {
		t.Fatalf("read back %+v", back.Summary)
	}
	if _, err := ReadReport(filepath.Join(t.TempDir(), "missing.json")); err == nil {
		t.Fatal("a missing report read")
	}
}

// The mutation score and the paraphrase check are printed with the score
// and fail the run when a mutant survives or a paraphrase goes wrong.
func TestSelfChecksArePrintedAndGateTheRun(t *testing.T) {
	r := testReport(map[string][]string{"one": {StatusPass}}, nil, RunInfo{Status: "succeeded"})
	r.Mutation = &Mutation{Total: 2, Killed: 1, Mutants: []MutantResult{
		{Mutant: "ignore-injuries", Killed: true, KilledBy: []Kill{{Scenario: "injury-bad-knee", Check: "no_content areas=knee"}}},
		{Mutant: "ignore-unit"}}}
	r.Paraphrases = &ParaphraseCheck{Total: 2, Passed: 2, Caught: 1, Results: []ParaphraseResult{
		{Scenario: "a", Passed: true, Caught: true, Wrong: "74 kg → 73 kg"},
		{Scenario: "b", Passed: true, Wrong: "June 1st → May 1st"}}}
	r.Scenarios[0].Run.TokensIn, r.Scenarios[0].Run.TokensOut = 3436, 412
	var b bytes.Buffer
	PrintTable(&b, r)
	for _, want := range []string{"TOKENS", "3,436/412", "mutation score        1/2 killed", "ignore-injuries            killed by 1: injury-bad-knee (no_content areas=knee)",
		"ignore-unit                SURVIVED", "paraphrases           2/2 pass in other words; 1/2 with one wrong fact fail",
		"b                                wrong fact (June 1st → May 1st) PASSES"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("table does not say %q:\n%s", want, b.String())
		}
	}
	missed := strings.Join((Thresholds{}).Check(r), "\n")
	if !strings.Contains(missed, "mutation score 1/2 killed") || !strings.Contains(missed, "1/2 wrong facts caught") {
		t.Errorf("thresholds missed: %q", missed)
	}
	r.Mutation.Killed, r.Paraphrases.Caught = 2, 2
	if missed := (Thresholds{}).Check(r); len(missed) != 0 {
		t.Errorf("all killed and caught, still missed: %v", missed)
	}
}
