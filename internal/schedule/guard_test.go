package schedule

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"hearth/internal/agent"
)

func onceAt(desc string, at time.Time) string {
	return fmt.Sprintf(`{"description":%q,"type":"once","schedule":%q,"prompt":null}`, desc, at.Format(time.RFC3339))
}

// TestAgentTaskLoopGuardrails: the lead time of once tasks, the per-member
// daily quota over every kind (a deleted task keeps its place; the next day
// starts afresh), staged calls of one run counting toward it, and the
// refusals listed with their reasons.
func TestAgentTaskLoopGuardrails(t *testing.T) {
	h := newHarness(t).start()
	ctx := context.Background()
	sched := tools(t, h.svc)["schedule_action"]
	ada := agent.Scope{AgentID: "health-coach", MemberID: "ada", RunID: 7}

	// 15 seconds ahead (the loop the issue observed) and 14m59s are refused; 15 minutes is fine.
	for _, d := range []time.Duration{15 * time.Second, 15*time.Minute - time.Second} {
		_, err := callTool(t, sched, ada, onceAt("soon", t0.Add(d)))
		if err == nil || !strings.Contains(err.Error(), "at least 15 minutes ahead") {
			t.Fatalf("once %s ahead: %v, want the lead-time refusal", d, err)
		}
	}
	if _, err := callTool(t, sched, ada, onceAt("later", t0.Add(15*time.Minute))); err != nil {
		t.Fatalf("once 15 minutes ahead: %v", err)
	}

	// Every kind counts: 1 once so far, then recurring and interval up to 10.
	kinds := []string{
		`{"description":"r%d","type":"recurring","schedule":"0 8 * * 1","prompt":null}`,
		`{"description":"i%d","type":"interval","schedule":"90","prompt":null}`,
	}
	var last int64
	for i := 2; i <= 10; i++ {
		res, err := callTool(t, sched, ada, fmt.Sprintf(kinds[i%2], i))
		if err != nil {
			t.Fatalf("task %d: %v", i, err)
		}
		last = int64(res["id"].(float64))
	}
	if err := h.svc.Delete(ctx, last); err != nil {
		t.Fatal(err)
	}
	_, err := callTool(t, sched, ada, onceAt("11th", t0.Add(time.Hour)))
	if err == nil || !strings.Contains(err.Error(), "daily limit reached") || !strings.Contains(err.Error(), "at most 10 a day") {
		t.Fatalf("11th task of the day (one deleted): %v, want the daily-quota refusal", err)
	}
	// Bob has his own quota.
	if _, err := callTool(t, sched, agent.Scope{AgentID: "health-coach", MemberID: "bob", RunID: 8}, onceAt("bob", t0.Add(time.Hour))); err != nil {
		t.Fatalf("bob: %v", err)
	}
	// Tomorrow (household day) starts afresh.
	h.advanceTo(time.Date(2026, 3, 3, 0, 0, 1, 0, berlin))
	if _, err := callTool(t, sched, ada, onceAt("tomorrow", h.clock.Now().Add(time.Hour))); err != nil {
		t.Fatalf("first task of the next day: %v", err)
	}

	// Within one run, staged (not yet committed) asks count too.
	box, err := agent.NewToolbox(h.svc.AgentTools())
	if err != nil {
		t.Fatal(err)
	}
	st := agent.NewStager()
	run := agent.Scope{AgentID: "health-coach", MemberID: "ada", RunID: 9}.WithStager(st)
	var refusedInRun error
	for i := range 12 {
		if _, err := box.Call(ctx, run, "schedule_action", json.RawMessage(onceAt(fmt.Sprintf("burst %d", i), h.clock.Now().Add(time.Hour)))); err != nil {
			refusedInRun = err
			break
		}
	}
	if st.Len() != 9 || refusedInRun == nil || !strings.Contains(refusedInRun.Error(), "daily limit") {
		t.Fatalf("one run staged %d tasks (want 9: 1 already today), refusal %v", st.Len(), refusedInRun)
	}

	refused, err := h.svc.TaskRequests(ctx, RequestFilter{Outcome: RequestRefused, MemberID: "ada"})
	if err != nil {
		t.Fatal(err)
	}
	var reasons []string
	for _, r := range refused {
		reasons = append(reasons, r.Reason)
		if r.AgentID != "health-coach" || r.Kind != KindOnce || r.Description == "" {
			t.Errorf("refused request = %+v", r)
		}
	}
	if len(refused) != 4 || !strings.Contains(strings.Join(reasons, "|"), "at least 15 minutes") ||
		!strings.Contains(strings.Join(reasons, "|"), "daily limit") {
		t.Fatalf("refusals listed = %q, want 2 lead-time and 2 quota refusals", reasons)
	}
}

// TestRunOfAgentTaskNeedsApproval: a run started by a task (or to-do) the
// coach created may ask for another task, but it waits for an admin; a run
// started by a user's task or a user's to-do schedules as usual.
func TestRunOfAgentTaskNeedsApproval(t *testing.T) {
	h := newHarness(t).start()
	ctx := context.Background()
	sched := tools(t, h.svc)["schedule_action"]
	ada := agent.Scope{AgentID: "health-coach", MemberID: "ada", RunID: 1}
	res, err := callTool(t, sched, ada, onceAt("check in", t0.Add(time.Hour)))
	if err != nil {
		t.Fatal(err)
	}
	coachTask := int64(res["id"].(float64))
	userTask := h.create(TaskInput{Kind: KindInterval, Schedule: "60", MemberID: "ada"})
	coachTodo, err := h.svc.Todos().Add(ctx, TodoInput{AgentID: "health-coach", MemberID: "ada", Text: "ask", CreatedBy: ByAgent})
	if err != nil {
		t.Fatal(err)
	}
	userTodo, err := h.svc.Todos().Add(ctx, TodoInput{AgentID: "health-coach", MemberID: "ada", Text: "ask"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		origin string
		want   Status
	}{
		{TaskOrigin(coachTask), StatusPendingApproval},
		{TodoOrigin(coachTodo.ID), StatusPendingApproval},
		{TaskOrigin(userTask.ID), StatusActive},
		{TodoOrigin(userTodo.ID), StatusActive},
		{"", StatusActive},
	} {
		scope := ada
		scope.Origin, scope.RunID = tc.origin, scope.RunID+1
		res, err := callTool(t, sched, scope, onceAt("next "+tc.origin, t0.Add(2*time.Hour)))
		if err != nil {
			t.Fatalf("origin %q: %v", tc.origin, err)
		}
		got := h.get(int64(res["id"].(float64)))
		if got.Status != tc.want {
			t.Errorf("origin %q: status %s, want %s", tc.origin, got.Status, tc.want)
		}
		if tc.want == StatusPendingApproval {
			if !strings.Contains(got.StatusReason, "which the coach created") {
				t.Errorf("origin %q: reason %q", tc.origin, got.StatusReason)
			}
			if _, armed := h.svc.Scheduled(got.ID); armed {
				t.Errorf("origin %q: the task waiting for approval is armed", tc.origin)
			}
		}
	}
	pending, err := h.svc.TaskRequests(ctx, RequestFilter{Outcome: RequestPending})
	if err != nil || len(pending) != 2 || pending[0].TaskID == 0 {
		t.Fatalf("pending requests = %+v, %v", pending, err)
	}
}
