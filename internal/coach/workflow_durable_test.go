package coach

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"hearth/internal/agent"
	"hearth/internal/agent/llm"
	"hearth/internal/agent/llm/llmtest"
	"hearth/internal/health"
	"hearth/internal/workflow"
)

// invalidAfterATool is a model that reads the weight trend, then writes a
// document that is not one every time: the heuristic coach stands in.
func invalidAfterATool(srv *llmtest.Server) {
	srv.Otherwise(func(r llmtest.Request) llmtest.Reply {
		if !r.HasToolResults() {
			return llmtest.Tool("get_weight_trend", `{}`)
		}
		return llmtest.Text(`{"briefing": "not a dashboard"}`, 10, 5)
	})
}

// The daily dashboard routed through its workflow (SetDurable) answers its
// caller as the assignment does: the same status and fallback reason, the
// document as output, the prompt, the tool calls and the rejected replies;
// the engine run is the workflow run's attempt, wrote today's document,
// and the workflow run's outcome is recorded by the time it ended.
func TestDurableDailyDashboardLooksLikeTheAssignment(t *testing.T) {
	a, asrv := modelFixture(t)
	a.household()
	invalidAfterATool(asrv)
	plain := a.run("maya")

	w, wsrv := modelFixture(t)
	w.household()
	invalidAfterATool(wsrv)
	rt := w.workflows(t)
	if err := w.orch.SetDurable(AgentID, DailyDashboardID, rt); err != nil {
		t.Fatal(err)
	}
	run := w.run("maya")

	mustStatus(t, plain, agent.StatusFellBack)
	mustStatus(t, run, agent.StatusFellBack)
	if run.FallbackReason == "" || run.FallbackReason != plain.FallbackReason {
		t.Errorf("fallback reason %q, the assignment's %q", run.FallbackReason, plain.FallbackReason)
	}
	if len(run.Output) == 0 || string(run.Output) != string(plain.Output) {
		t.Errorf("output:\n%s\nthe assignment's:\n%s", run.Output, plain.Output)
	}
	pw, _ := json.Marshal(run.Prompt)
	pa, _ := json.Marshal(plain.Prompt)
	if run.Prompt == nil || string(pw) != string(pa) {
		t.Errorf("prompt %s, the assignment's %s", pw, pa)
	}
	names := func(r agent.Run) []string {
		var out []string
		for _, c := range r.ToolCalls {
			out = append(out, c.Name)
		}
		return out
	}
	if !slices.Contains(names(run), "get_weight_trend") || !slices.Equal(names(run), names(plain)) {
		t.Errorf("tool calls %v, the assignment's %v", names(run), names(plain))
	}
	if len(run.ValidationErrors) == 0 || len(run.ValidationErrors) != len(plain.ValidationErrors) {
		t.Errorf("%d rejected replies, the assignment's %d", len(run.ValidationErrors), len(plain.ValidationErrors))
	}
	if run.WorkflowRunID == nil {
		t.Fatal("the engine run is not a workflow run's attempt")
	}
	// Recorded by the time the engine run ended: nothing is left to wait for.
	wr, err := rt.Get(w.ctx, *run.WorkflowRunID)
	if err != nil || wr.Status != workflow.StatusSuccess || wr.Trigger != workflow.TriggerAPI || !slices.Equal(wr.AgentRuns, []int64{run.ID}) {
		t.Fatalf("workflow run %+v %v", wr, err)
	}
	if w.today("maya").RunID != run.ID {
		t.Errorf("today's document was written by run %d, want %d", w.today("maya").RunID, run.ID)
	}
}

// A run started while one is under way joins it, at the engine (its
// attempt holds the assignment's slot) and at the workflow (StartDurable
// finds the member's run); the trigger and origin reach both runs, and a
// demo run takes the heuristic coach as the plain assignment does.
func TestDurableDailyDashboardJoinsAndKeepsTriggerAndOrigin(t *testing.T) {
	w, srv := modelFixture(t)
	srv.Otherwise(func(llmtest.Request) llmtest.Reply { return llmtest.Reply{Hang: true} })
	w.household()
	w.member(health.Member{ID: "sam", Name: "Sam"})
	rt := w.workflows(t)
	if err := w.orch.SetDurable(AgentID, DailyDashboardID, rt); err != nil {
		t.Fatal(err)
	}
	req := agent.Request{Agent: AgentID, Assignment: DailyDashboardID, Member: "maya", Trigger: agent.TriggerSchedule, Origin: "task:4"}
	first, err := w.orch.Start(w.ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	again, err := w.orch.Start(w.ctx, req)
	if err != nil || again.ID != first.ID {
		t.Fatalf("second start: run %d %v, want %d", again.ID, err, first.ID)
	}
	joined, err := rt.StartDurable(w.ctx, req)
	if err != nil || joined.ID != first.ID {
		t.Fatalf("StartDurable while running: run %d %v, want %d", joined.ID, err, first.ID)
	}
	runs, err := rt.List(w.ctx, workflow.Filter{Workflow: DailyDashboardWorkflowID, Member: "maya"})
	if err != nil || len(runs) != 1 || runs[0].Trigger != workflow.TriggerSchedule || runs[0].Origin != "task:4" {
		t.Fatalf("workflow runs %+v %v", runs, err)
	}
	er, err := w.orch.Runs().Get(w.ctx, first.ID)
	if err != nil || er.WorkflowRunID == nil || *er.WorkflowRunID != runs[0].ID || er.Origin != "task:4" || er.Trigger != agent.TriggerSchedule {
		t.Fatalf("engine run %+v %v", er, err)
	}

	ctx, cancel := context.WithTimeout(w.ctx, 20*time.Second)
	defer cancel()
	demo, err := w.orch.Run(ctx, agent.Request{Agent: AgentID, Assignment: DailyDashboardID, Member: "sam", Trigger: agent.TriggerDemo})
	mustStatus(t, demo, agent.StatusSucceeded)
	if err != nil || demo.WorkflowRunID == nil || demo.Trigger != agent.TriggerDemo || demo.Model != "heuristic" {
		t.Fatalf("demo run %+v %v", demo, err)
	}
	if wr, err := rt.Get(w.ctx, *demo.WorkflowRunID); err != nil || wr.Trigger != workflow.TriggerDemo {
		t.Fatalf("demo workflow run %+v %v", wr, err)
	}
}

// An attempt that runs out of the engine's time fails its workflow run, as
// the plain assignment's run fails, rather than leaving it running with
// nothing walking it (the next start would supersede it, a restart would
// continue a stale day).
func TestDurableDailyDashboardFailsWhenTheAttemptTimesOut(t *testing.T) {
	srv := llmtest.New(t)
	srv.Otherwise(func(llmtest.Request) llmtest.Reply { return llmtest.Reply{Hang: true} })
	model, err := llm.NewOpenAI(llm.OpenAIConfig{BaseURL: srv.URL(), APIKey: "k", Model: "fake"})
	if err != nil {
		t.Fatal(err)
	}
	w := newFixture(t, fixtureOpts{model: model, runTimeout: 300 * time.Millisecond})
	w.household()
	rt := w.workflows(t)
	if err := w.orch.SetDurable(AgentID, DailyDashboardID, rt); err != nil {
		t.Fatal(err)
	}
	run := w.run("maya")
	mustStatus(t, run, agent.StatusFailed)
	if run.WorkflowRunID == nil {
		t.Fatal("the engine run is not a workflow run's attempt")
	}
	wr, err := rt.Get(w.ctx, *run.WorkflowRunID)
	if err != nil || wr.Status != workflow.StatusFailed || wr.Error == "" {
		t.Fatalf("workflow run %s %q %v, want failed", wr.Status, wr.Error, err)
	}
	if reason, _ := wr.Step("reason"); reason.Status != workflow.StepRunning {
		t.Errorf("the reason step is %s; a restart runs it again", reason.Status)
	}
}
