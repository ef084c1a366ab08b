package app

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"hearth/internal/agent"
	"hearth/internal/agent/llm/llmtest"
	"hearth/internal/coach"
	"hearth/internal/schedule"
)

// TestCoachSchedulesFollowUpThroughModel: the model (fake server, real
// openai-go client) calls schedule_action in a chat with the coach (Admin
// → Chat; the daily run offers its model memory and notes only); the task
// is stored for the run's member when the run commits, created by the
// agent, and armed in gocron. Past the per-member limit the tool result
// carries the refusal instead.
func TestCoachSchedulesFollowUpThroughModel(t *testing.T) {
	ctx := context.Background()
	a, srv := modelApp(t)
	srv.Otherwise(func(llmtest.Request) llmtest.Reply { return llmtest.Text("I'll ask you then.", 10, 5) })
	when := time.Now().Add(3 * time.Hour).UTC().Format(time.RFC3339)
	srv.Push(llmtest.Tool("schedule_action", map[string]any{"description": "Ask how the knee feels", "type": "once",
		"schedule": when, "prompt": "Ask Maya how her knee feels after yesterday's run"}))
	run := func() agent.Run {
		t.Helper()
		r, err := a.Agents.Run(ctx, agent.Request{Agent: coach.AgentID, Member: "maya", Chat: true,
			Message: "Ask me tomorrow how my knee feels", Trigger: agent.TriggerManual})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	run()
	tasks, err := a.Schedule.List(ctx, schedule.TaskFilter{CreatedBy: schedule.ByAgent})
	if err != nil {
		t.Fatal(err)
	}
	if len(tasks) != 1 {
		t.Fatalf("agent tasks = %+v, want the one the model scheduled", tasks)
	}
	tk := tasks[0]
	if tk.MemberID != "maya" || tk.Kind != schedule.KindOnce || tk.Status != schedule.StatusActive {
		t.Fatalf("task = %+v", tk)
	}
	if next, ok := a.Schedule.Scheduled(tk.ID); !ok || next.IsZero() {
		t.Fatalf("task %d is not armed in gocron", tk.ID)
	}

	// Fill maya's allowance, then the model's next call is refused in the tool result.
	for i := len(tasks); i < 20; i++ {
		if _, err := a.Schedule.Create(ctx, schedule.TaskInput{Description: fmt.Sprintf("filler %d", i), Kind: schedule.KindOnce,
			Schedule: when, AgentID: coach.AgentID, MemberID: "maya", Prompt: "x"}, schedule.ByAgent); err != nil {
			t.Fatal(err)
		}
	}
	before := len(srv.ChatRequests())
	srv.Push(llmtest.Tool("schedule_action", map[string]any{"description": "One too many", "type": "once", "schedule": when, "prompt": nil}))
	run()
	var toolResult string
	for _, req := range srv.ChatRequests()[before:] {
		for _, m := range req.Messages() {
			if m.Role == "tool" {
				toolResult = m.Content
			}
		}
	}
	if !strings.Contains(toolResult, "20") {
		t.Fatalf("over-limit tool result = %q, want the refusal naming the limit", toolResult)
	}
	n, err := a.Schedule.List(ctx, schedule.TaskFilter{CreatedBy: schedule.ByAgent, MemberID: "maya"})
	if err != nil || len(n) != 20 {
		t.Fatalf("agent tasks after refusal = %d, %v", len(n), err)
	}
}
