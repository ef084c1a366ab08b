package coach

import (
	"encoding/json"
	"strings"
	"testing"

	"hearth/internal/agent/llm/llmtest"
	"hearth/internal/workflow"
)

// waitingQuestion runs the weekly review for maya until it asks, and
// returns its question.
func waitingQuestion(t *testing.T, f *fixture) workflow.Question {
	t.Helper()
	r := runWorkflow(t, f.workflows(t), WeeklyReviewID, "maya")
	if r.Status != workflow.StatusSuspended || len(r.Waiting()) != 1 {
		t.Fatalf("weekly review %s (%s): want it waiting for maya", r.Status, r.Error)
	}
	q, ok := workflow.QuestionOf(r.Waiting()[0].Suspended)
	if !ok {
		t.Fatalf("not a question: %s", r.Waiting()[0].Suspended)
	}
	return q
}

// readable reports what keeps a summary from being read at a glance.
func readable(summary string) string {
	lines := strings.Split(summary, "\n")
	if len(lines) > maxSummaryLines {
		return "more than three lines"
	}
	for _, l := range lines {
		if n := len([]rune(l)); n == 0 || n > maxSummaryLine {
			return "a line of " + l
		}
	}
	for _, raw := range []string{"Meals:", "Training:", "daily average", "(missing", " days to "} {
		if strings.Contains(summary, raw) {
			return "the raw figures " + raw
		}
	}
	return ""
}

// The weekly review's question comes with a summary read at a glance:
// three short lines at most, not the tools' raw text ("Meals: 7 days to
// Fri 27 Nov 2026: 6 logged (missing Fri 27 Nov), daily average 1,414 of
// 1,700 kcal (83%)…", as seen on the kiosk); each answer has its own
// acknowledgement. A model's summary longer than three lines is sent back.
// Checked by summarising with the tools' text again: "the raw figures".
func TestWeeklyQuestionIsAReadableSummary(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	f.household()
	q := waitingQuestion(t, f)
	if why := readable(q.Context); why != "" {
		t.Errorf("summary %q: %s", q.Context, why)
	}
	if !strings.Contains(q.Context, "workout this week") || !strings.Contains(q.Context, "Weight 70.5 kg") ||
		!strings.Contains(q.Context, "Meals logged on 7 of 7 days.") {
		t.Errorf("summary %q: want the week's workouts, weight and days with meals", q.Context)
	}
	if q.Ack(2) != "Noted: an easier week next. I'll tell you what changes." || q.Ack(1) != "Noted: the same again next week." {
		t.Errorf("acks %q", q.Acks)
	}

	mf, srv := modelFixture(t)
	mf.household()
	long := "Good week.\nYou kept training.\nYour weight held steady.\nMeals every day."
	srv.Push(llmtest.JSON(map[string]string{"summary": long}, 10, 10),
		llmtest.JSON(map[string]string{"summary": "Good week.\nYour weight held steady."}, 10, 10))
	mq := waitingQuestion(t, mf)
	if mq.Context != "Good week.\nYour weight held steady." {
		t.Fatalf("model summary %q: want the corrected, shorter one", mq.Context)
	}
	reqs := srv.ChatRequests()
	if len(reqs) != 2 || !strings.Contains(reqs[1].LastMessage().Content, "has 4 lines") {
		raw, _ := json.Marshal(reqs)
		t.Fatalf("the long summary was not sent back: %.500s", raw)
	}
}
