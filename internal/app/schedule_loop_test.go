package app

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"hearth/internal/agent"
	"hearth/internal/agent/llm/llmtest"
	"hearth/internal/coach"
	"hearth/internal/schedule"
	"hearth/internal/testkit"
)

// TestSelfReschedulingModelCreatesAtMostOneTask: a scripted model that, on
// every run, calls schedule_action for a once task a little ahead (the loop
// the issue observed: 6 tasks in 75 seconds). 15 seconds ahead is refused
// with a reason the model reads; 20 minutes ahead creates one task from the
// member's chat, and the run that task starts can only ask for a next one
// that waits for an admin: one task runs, the loop stops.
func TestSelfReschedulingModelCreatesAtMostOneTask(t *testing.T) {
	ctx := context.Background()
	a, srv := modelApp(t)
	var lead atomic.Int64
	lead.Store(int64(15 * time.Second))
	srv.Otherwise(func(r llmtest.Request) llmtest.Reply {
		if r.LastMessage().Role == "tool" {
			return llmtest.Text("I'll check in with you again soon.", 10, 5)
		}
		return llmtest.Tool("schedule_action", map[string]any{"description": "Check in again", "type": "once",
			"schedule": time.Now().Add(time.Duration(lead.Load())).Format(time.RFC3339), "prompt": "Check in with Maya again"})
	})
	chat := func() agent.Run {
		t.Helper()
		r, err := a.Agents.Run(ctx, agent.Request{Agent: coach.AgentID, Member: "maya", Message: "Check in with me later"})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	lastToolResult := func() string {
		reqs := srv.ChatRequests()
		return reqs[len(reqs)-1].LastMessage().Content
	}

	chat()
	if res := lastToolResult(); !strings.Contains(res, "at least 15 minutes ahead") {
		t.Fatalf("tool result for a task 15 seconds ahead = %q, want the lead-time refusal", res)
	}
	if n := len(agentTasks(t, a, "maya")); n != 0 {
		t.Fatalf("%d tasks created 15 seconds ahead", n)
	}

	lead.Store(int64(20 * time.Minute))
	chat()
	tasks := agentTasks(t, a, "maya")
	if len(tasks) != 1 || tasks[0].Status != schedule.StatusActive {
		t.Fatalf("after the chat: %+v, want one active task", tasks)
	}
	first := tasks[0]
	// The task fires (run now stands in for its time coming) and its run asks again.
	if _, err := a.Schedule.RunNow(ctx, first.ID); err != nil {
		t.Fatal(err)
	}
	testkit.WaitFor(t, testkit.Patience, "the task's run to finish", func() bool {
		cur, _ := a.Schedule.Get(ctx, first.ID)
		return !cur.Running && cur.RunCount > 0
	})
	if res := lastToolResult(); !strings.Contains(res, "approve") {
		t.Fatalf("tool result in the task's run = %q, want the note that it waits for approval", res)
	}
	tasks = agentTasks(t, a, "maya")
	runnable := 0
	for _, tk := range tasks {
		if tk.ID == first.ID {
			continue
		}
		if tk.Status != schedule.StatusPendingApproval || !strings.Contains(tk.StatusReason, "which the coach created") {
			t.Errorf("next task = %s %q, want it waiting for approval", tk.Status, tk.StatusReason)
		}
		if _, armed := a.Schedule.Scheduled(tk.ID); armed {
			runnable++
		}
	}
	if runnable != 0 || len(tasks) != 2 {
		t.Fatalf("agent tasks = %d (%d armed besides the first), want the first and one waiting for approval", len(tasks), runnable)
	}
	refused, err := a.Schedule.TaskRequests(ctx, schedule.RequestFilter{Outcome: schedule.RequestRefused, MemberID: "maya"})
	if err != nil || len(refused) != 1 || !strings.Contains(refused[0].Reason, "15 minutes") {
		t.Fatalf("refusals listed = %+v, %v", refused, err)
	}
}
