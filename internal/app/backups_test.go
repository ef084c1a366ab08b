package app

import (
	"context"
	"testing"

	"hearth/internal/backup"
	"hearth/internal/schedule"
	"hearth/internal/testkit"
)

// The nightly backup is a system task made once per database; firing it
// (here "Run now") makes a backup through the scheduler's ledger, and a
// system task naming a job Hearth does not have is refused.
func TestBackupIsASystemTask(t *testing.T) {
	ctx := context.Background()
	a := startedApp(t)
	all, err := a.Schedule.List(ctx, schedule.TaskFilter{AgentID: schedule.SystemAgent})
	var tasks []schedule.Task
	for _, t := range all {
		if t.AssignmentID == "backup" {
			tasks = append(tasks, t)
		}
	}
	if err != nil || len(tasks) != 1 || tasks[0].Schedule != DefaultBackupCron {
		t.Fatalf("system tasks: %+v, %v", all, err)
	}
	fire, err := a.Schedule.RunNow(ctx, tasks[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	testkit.WaitFor(t, testkit.Patience, "the backup task to run", func() bool {
		fires, err := a.Schedule.Ledger(ctx, tasks[0].ID, 5)
		if err != nil {
			t.Fatal(err)
		}
		if len(fires) > 0 && fires[0].Outcome == schedule.OutcomeFailed {
			t.Fatalf("the backup task failed: %s", fires[0].Reason)
		}
		return len(fires) > 0 && fires[0].ID == fire.ID && fires[0].Outcome == schedule.OutcomeRan
	})
	list, err := a.Backups.List()
	if err != nil || len(list) != 1 {
		t.Fatalf("backups after the task ran: %v, %v", list, err)
	}
	if _, err := backup.Verify(ctx, list[0].Path, nil); err != nil {
		t.Fatal(err)
	}
	_, err = a.Schedule.Create(ctx, schedule.TaskInput{Description: "x", Kind: schedule.KindRecurring, Schedule: "0 1 * * *",
		AgentID: schedule.SystemAgent, AssignmentID: "defragment"}, schedule.ByUser)
	if err == nil {
		t.Fatal("a system task for an unknown job was accepted")
	}
}
