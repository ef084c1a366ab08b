package eval_test

import (
	"context"
	"strings"
	"testing"

	"hearth/internal/agent/llm"
	"hearth/internal/agent/llm/llmtest"
	"hearth/internal/eval"
)

// TestJudgeScoresAreReportedApart: the judge model's scores (on the real
// wire format) land in the report's judge fields and never in the
// deterministic rates; a reply out of range is recorded as an error.
func TestJudgeScoresAreReportedApart(t *testing.T) {
	srv := llmtest.New(t, llmtest.Text(`{"tone": 4, "helpfulness": 3, "comment": "Warm, but misses the knee."}`, 500, 20),
		llmtest.Text(`{"tone": 9, "helpfulness": 3, "comment": "?"}`, 500, 20))
	rt, err := llm.NewOpenAI(llm.OpenAIConfig{BaseURL: srv.URL(), APIKey: "k", Model: "judge-test"})
	if err != nil {
		t.Fatal(err)
	}
	judge := &eval.Judge{Model: "judge-test", Runtime: rt}
	all, _ := eval.Scenarios()
	var scs []*eval.Scenario
	for _, sc := range all {
		if sc.ID == "injury-bad-knee" || sc.ID == "protein-low" {
			scs = append(scs, sc)
		}
	}
	rep, err := eval.Run(context.Background(), scs, eval.Options{Factory: factory(evalConfig("")), Parallel: 1, Judge: judge,
		TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	var good, bad *eval.JudgeScore
	for _, sc := range rep.Scenarios {
		switch {
		case sc.Judge == nil:
			t.Fatalf("%s: no judge score", sc.ID)
		case sc.Judge.Error == "":
			good = sc.Judge
		default:
			bad = sc.Judge
		}
	}
	if good == nil || good.Tone != 4 || good.Helpfulness != 3 || !strings.Contains(good.Comment, "knee") || good.TokensIn != 500 {
		t.Fatalf("good score %+v", good)
	}
	if bad == nil || !strings.Contains(bad.Error, "out of range") {
		t.Fatalf("out-of-range score %+v", bad)
	}
	s := rep.Summary
	if s.JudgeScored != 1 || s.JudgeTone != 4 || s.JudgeHelpfulness != 3 || rep.JudgeModel != "judge-test" {
		t.Fatalf("summary %+v", s)
	}
	// The deterministic score is the heuristic's, whatever the judge thinks.
	if s.DesignedPassRate != 1 {
		t.Fatalf("designed pass rate %v", s.DesignedPassRate)
	}
	reqs := srv.ChatRequests()
	if len(reqs) != 2 || reqs[0].Model() != "judge-test" || !reqs[0].Contains("tone: warm, brief and concrete") {
		t.Fatalf("judge requests: %d", len(reqs))
	}
}
