package app

import (
	"context"
	"testing"

	"hearth/internal/agent/llm/llmtest"
	"hearth/internal/coach"
	"hearth/internal/schedule"
	"hearth/internal/testkit"
)

// TestScheduledRunThatFellBackSaysWhy: the model server fails, so the
// scheduled daily run falls back to the built-in coach; the task shows the
// last outcome and why, instead of a plain "active".
func TestScheduledRunThatFellBackSaysWhy(t *testing.T) {
	ctx := context.Background()
	a, srv := modelApp(t)
	srv.Otherwise(func(llmtest.Request) llmtest.Reply { return llmtest.Error(500) })
	task, err := a.Schedule.Create(ctx, schedule.TaskInput{Description: "Maya's day", Kind: schedule.KindRecurring,
		Schedule: "0 5 * * *", AgentID: coach.AgentID, AssignmentID: coach.DailyDashboardID, MemberID: "maya"}, schedule.ByUser)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Schedule.RunNow(ctx, task.ID); err != nil {
		t.Fatal(err)
	}
	testkit.WaitFor(t, testkit.Patience, "the run to finish", func() bool {
		if task, err = a.Schedule.Get(ctx, task.ID); err != nil {
			t.Fatal(err)
		}
		return task.RunCount > 0 && !task.Running
	})
	run, err := a.Agents.Runs().Get(ctx, task.LastRunID)
	if err != nil || run.FallbackReason == "" {
		t.Fatalf("run %d: fallback reason %q, %v", task.LastRunID, run.FallbackReason, err)
	}
	why := "fell back to the built-in coach: " + run.FallbackReason
	if task.Status != schedule.StatusActive || task.LastOutcome != schedule.OutcomeRan || task.LastNote != why || task.StatusReason != why {
		t.Fatalf("task after a fell-back run: status %s (%q), last %s (%q)", task.Status, task.StatusReason, task.LastOutcome, task.LastNote)
	}
	fires, err := a.Schedule.Ledger(ctx, task.ID, 1)
	if err != nil || len(fires) != 1 || fires[0].Reason != why {
		t.Fatalf("ledger = %+v, %v", fires, err)
	}
}
