package app

import (
	"context"
	"testing"

	"hearth/internal/schedule"
	"hearth/internal/testkit"
	"hearth/internal/workflow"
)

// The weekly review is a system task on Sundays; firing it starts a review
// for every member, each waiting for its member's answer.
func TestWeeklyReviewIsASystemTask(t *testing.T) {
	ctx := context.Background()
	a, err := New(ctx, testConfig(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = a.Close() })
	if err := a.Schedule.Start(ctx); err != nil {
		t.Fatal(err)
	}
	tasks, err := a.Schedule.List(ctx, schedule.TaskFilter{AgentID: schedule.SystemAgent})
	if err != nil {
		t.Fatal(err)
	}
	var weekly *schedule.Task
	for i := range tasks {
		if tasks[i].AssignmentID == systemWeeklyReview {
			weekly = &tasks[i]
		}
	}
	if weekly == nil || weekly.Schedule != "0 9 * * 0" {
		t.Fatalf("system tasks %+v", tasks)
	}
	fire, err := a.Schedule.RunNow(ctx, weekly.ID)
	if err != nil {
		t.Fatal(err)
	}
	members, _ := memberIDs{a.DB}.MemberIDs(ctx)
	testkit.WaitFor(t, testkit.Patience, "the fire to end as ran", func() bool {
		fires, err := a.Schedule.Ledger(ctx, weekly.ID, 1)
		if err != nil {
			t.Fatal(err)
		}
		return len(fires) > 0 && fires[0].ID == fire.ID && fires[0].Outcome == schedule.OutcomeRan
	})
	runs, err := a.Workflows.List(ctx, workflow.Filter{Workflow: "weekly-review", Status: workflow.StatusSuspended})
	if err != nil || len(runs) != len(members) || len(members) < 2 {
		t.Fatalf("%d suspended reviews for %d members (%v)", len(runs), len(members), err)
	}
	waiting, _ := a.Workflows.Waiting(ctx, "")
	if len(waiting) != len(members) {
		t.Errorf("%d questions waiting, want one per member", len(waiting))
	}
}
