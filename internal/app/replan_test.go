package app_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hearth/internal/agent"
	"hearth/internal/agent/llm/llmtest"
	"hearth/internal/app"
	"hearth/internal/coach"
	"hearth/internal/household"
	"hearth/internal/testkit"
	"hearth/web/ratelimit"
)

// replans are member's runs the re-plan trigger started, oldest first.
func replans(t *testing.T, a *app.App, member string) []agent.Run {
	t.Helper()
	runs, err := a.Agents.Runs().List(context.Background(), agent.RunFilter{Member: member})
	if err != nil {
		t.Fatal(err)
	}
	var out []agent.Run
	for i := len(runs) - 1; i >= 0; i-- {
		if r := runs[i]; r.Assignment == coach.DailyDashboardID && r.Origin == "replan" && r.Status.Terminal() {
			out = append(out, r)
		}
	}
	return out
}

// A chat statement that changes today re-plans the day without an admin,
// and the re-plan respects the kiosk's model-call limits: it is charged to
// the member's budget (the limiter the kiosk uses), and once that is spent
// the built-in coach re-plans, which calls no model.
func TestChatStatementReplansWithinTheModelBudget(t *testing.T) {
	model := llmtest.New(t)
	model.Otherwise(func(llmtest.Request) llmtest.Reply { return llmtest.Error(503) }) // every model call fails over to the heuristic
	dir := t.TempDir()
	srv := startApp(t, app.Config{Addr: "127.0.0.1:0", DataDir: dir, DBPath: filepath.Join(dir, "hearth.db"), Location: time.UTC,
		KioskIdle: 10 * time.Minute, OpenAIBaseURL: model.URL(), OpenAIKey: "test-key", Model: "fake",
		KioskModelCalls: ratelimit.Options{Member: ratelimit.Rule{Burst: 1, Every: time.Hour}}})
	a, ctx := srv.app, context.Background()
	if _, err := a.Household.CreateMember(ctx, household.MemberInput{ID: "theo", Name: "Theo"}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Catalog.LoadDemo(ctx); err != nil {
		t.Fatal(err)
	}
	say := func(msg string) {
		t.Helper()
		r, err := a.Agents.Run(ctx, agent.Request{Agent: coach.AgentID, Member: "theo", Message: msg, FromMember: true,
			Surface: agent.SurfaceKiosk, Trigger: agent.TriggerManual})
		if err != nil || r.Status == agent.StatusFailed {
			t.Fatalf("chat %q: %s %q %v", msg, r.Status, r.Error, err)
		}
	}

	say("my knee hurts")
	testkit.WaitFor(t, testkit.Patience, "the first re-plan", func() bool { return len(replans(t, a, "theo")) == 1 })
	first := replans(t, a, "theo")[0]
	if first.Trigger != agent.TriggerManual || !strings.HasPrefix(first.FallbackReason, "model_error") {
		t.Fatalf("first re-plan: %s %s model %q fallback %q, want the model asked (within the budget), failing over here",
			first.Trigger, first.Status, first.Model, first.FallbackReason)
	}
	say("I've got a stinking cold")
	testkit.WaitFor(t, testkit.Patience, "the second re-plan", func() bool { return len(replans(t, a, "theo")) == 2 })
	second := replans(t, a, "theo")[1]
	if second.Model != "heuristic" || second.FallbackReason != "" || second.Status != agent.StatusSucceeded {
		t.Fatalf("second re-plan: %s model %q fallback %q, want the built-in coach, the member's model budget being spent",
			second.Status, second.Model, second.FallbackReason)
	}
	st, err := a.Dashboards.Get(ctx, "theo", a.Dashboards.Day(time.Now()))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(st.Document.Coach.Briefing, "knee") || st.RunID != second.ID {
		t.Fatalf("today's plan (run %v): %q, want the second re-plan's, naming the knee", st.RunID, st.Document.Coach.Briefing)
	}
	// A question changes nothing: no re-plan.
	say("How is my weight going?")
	if a.Replan.Pending("theo") {
		t.Fatal("a question asked for a re-plan")
	}
}
