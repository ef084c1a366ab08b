package schedule

import (
	"context"
	"strings"
	"testing"
	"time"

	"hearth/internal/apperr"
)

func TestCatchUpRunsOnceWithinWindow(t *testing.T) {
	h := newHarness(t).start()
	hourly := h.create(TaskInput{Kind: KindRecurring, Schedule: "0 * * * *", AssignmentID: "daily-dashboard"})
	h.restart(5 * time.Hour) // down from 08:58 to 13:58: 09:00 … 13:00 missed

	c := h.waitCall()
	if c.Trigger != TriggerCatchup || c.Assignment != "daily-dashboard" || c.Member != "" {
		t.Fatalf("catch-up call = %+v", c)
	}
	h.waitIdle(hourly.ID)
	h.noCall()
	if n := h.runner.count(); n != 1 {
		t.Fatalf("catch-up runs = %d, want exactly 1", n)
	}
	led := h.ledger(hourly.ID)
	if f := led["13:00"]; f.Outcome != OutcomeRan || f.Via != TriggerCatchup {
		t.Fatalf("latest missed slot = %+v, want ran via catchup", f)
	}
	for _, hm := range []string{"09:00", "10:00", "11:00", "12:00"} {
		if f := led[hm]; f.Outcome != OutcomeMissed || !strings.Contains(f.Reason, "caught up by one run") {
			t.Fatalf("slot %s = %+v, want missed", hm, f)
		}
	}
	next := time.Date(2026, 3, 2, 14, 0, 0, 0, berlin)
	if got := h.get(hourly.ID); !got.NextRunAt.Equal(next) || got.RunCount != 1 {
		t.Fatalf("after catch-up: next %v runs %d", got.NextRunAt, got.RunCount)
	}
	h.waitArmed(hourly.ID, next)
}

func TestCatchUpSkipsOutsideWindowOrBySkipPolicy(t *testing.T) {
	h := newHarness(t).start()
	daily := h.create(TaskInput{Kind: KindRecurring, Schedule: "0 9 * * *", MemberID: "ada", AssignmentID: "daily-dashboard"})
	skip := h.create(TaskInput{Kind: KindRecurring, Schedule: "0 22 * * *", MemberID: "ada", AssignmentID: "evening", CatchupPolicy: CatchupSkip})
	once := h.create(TaskInput{Kind: KindOnce, Schedule: "2026-03-02T10:00:00+01:00", MemberID: "ada"})
	h.restart(14 * time.Hour) // now 22:58: 09:00 is 13h58m ago (outside 12h); 22:00 is recent but policy skip

	h.noCall()
	if f := h.ledger(daily.ID)["09:00"]; f.Outcome != OutcomeMissed || !strings.Contains(f.Reason, "outside the catch-up window") {
		t.Fatalf("daily 09:00 = %+v", f)
	}
	if got := h.get(daily.ID); !got.NextRunAt.Equal(time.Date(2026, 3, 3, 9, 0, 0, 0, berlin)) || got.Status != StatusActive {
		t.Fatalf("daily after skip: next %v status %s", got.NextRunAt, got.Status)
	}
	if f := h.ledger(skip.ID)["22:00"]; f.Outcome != OutcomeMissed || !strings.Contains(f.Reason, "policy is skip") {
		t.Fatalf("skip-policy 22:00 = %+v", f)
	}
	// A once task missed outside the window shows why, and the admin can run the slot.
	got := h.get(once.ID)
	if got.Status != StatusError || !strings.Contains(got.StatusReason, "missed") || got.NextRunAt != nil {
		t.Fatalf("missed once: %+v", got)
	}
	slot := time.Date(2026, 3, 2, 10, 0, 0, 0, berlin)
	f, err := h.svc.RunSlot(context.Background(), once.ID, slot)
	if err != nil {
		t.Fatal(err)
	}
	if f.Outcome != OutcomeRunning || f.Attempts != 1 {
		t.Fatalf("rerun fire = %+v", f)
	}
	if c := h.waitCall(); c.Trigger != TriggerManual {
		t.Fatalf("rerun trigger = %q", c.Trigger)
	}
	h.waitIdle(once.ID)
	if f := h.ledger(once.ID)["10:00"]; f.Outcome != OutcomeRan {
		t.Fatalf("rerun slot = %+v", f)
	}
	if got := h.get(once.ID); got.Status != StatusCompleted {
		t.Fatalf("once after rerun: %s", got.Status)
	}
	if _, err := h.svc.RunSlot(context.Background(), once.ID, slot); !apperr.Is(err, apperr.Conflict) {
		t.Fatalf("rerunning a slot that ran: %v, want conflict", err)
	}
}

func TestCatchUpOnceTaskWithinWindow(t *testing.T) {
	h := newHarness(t).start()
	once := h.create(TaskInput{Kind: KindOnce, Schedule: "2026-03-02T09:30:00+01:00", MemberID: "bob"})
	h.restart(2 * time.Hour)
	h.waitCall()
	h.waitIdle(once.ID)
	if got := h.get(once.ID); got.Status != StatusCompleted {
		t.Fatalf("once caught up: %s", got.Status)
	}
}

func TestCrashLeavesTruthfulState(t *testing.T) {
	h := newHarness(t).start()
	task := h.create(TaskInput{Kind: KindRecurring, Schedule: "0 12 * * *", MemberID: "ada", AssignmentID: "lunch"})
	// A crash mid-run leaves a running ledger row behind (no Stop ran).
	ctx := context.Background()
	slot := time.Date(2026, 3, 1, 12, 0, 0, 0, berlin)
	if _, err := insertFire(ctx, h.db.Write, Fire{TaskID: task.ID, ScheduledFor: slot, Via: TriggerSchedule, Outcome: OutcomeRunning, At: t0}); err != nil {
		t.Fatal(err)
	}
	todo, err := h.svc.Todos().Add(ctx, TodoInput{AgentID: "health-coach", MemberID: "ada", Text: "check water"})
	if err != nil {
		t.Fatal(err)
	}
	if err := startTodo(ctx, h.db.Write, todo.ID, t0); err != nil {
		t.Fatal(err)
	}
	h.restart(time.Minute)
	f, err := getFire(ctx, h.db.Read, task.ID, slot, berlin)
	if err != nil {
		t.Fatal(err)
	}
	if f.Outcome != OutcomeInterrupted || f.FinishedAt == nil {
		t.Fatalf("left-over running fire = %+v", f)
	}
	if got := h.get(task.ID); got.Status != StatusError || !strings.Contains(got.StatusReason, "interrupted") {
		t.Fatalf("task after crash: %s %q", got.Status, got.StatusReason)
	}
	h.waitArmed(task.ID, time.Date(2026, 3, 2, 12, 0, 0, 0, berlin)) // still scheduled
	items, err := h.svc.Todos().List(ctx, TodoFilter{MemberID: "ada"})
	if err != nil || len(items) != 1 || items[0].Status != TodoPending || !strings.Contains(items[0].Note, "interrupted") {
		t.Fatalf("to-do after crash: %+v %v", items, err)
	}
}

func TestCatchUpLongDowntimeIsBounded(t *testing.T) {
	h := newHarness(t).start()
	task := h.create(TaskInput{Kind: KindInterval, Schedule: "1", MemberID: "ada", CatchupPolicy: CatchupSkip})
	h.restart(30 * 24 * time.Hour)
	fires, err := h.svc.Ledger(context.Background(), task.ID, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if len(fires) != maxRecorded {
		t.Fatalf("ledger rows after a month down = %d, want %d", len(fires), maxRecorded)
	}
	oldest := fires[len(fires)-1]
	if !strings.Contains(oldest.Reason, "earlier slots since") {
		t.Fatalf("oldest row should summarise the rest: %q", oldest.Reason)
	}
	next := h.get(task.ID).NextRunAt
	if next == nil || !next.After(h.clock.Now()) || next.Sub(h.clock.Now()) > time.Minute {
		t.Fatalf("next after long downtime = %v (now %v)", next, h.clock.Now())
	}
}

func TestExpirySweep(t *testing.T) {
	h := newHarness(t) // not started: Create stores, Sweep works without the engine
	ctx := context.Background()
	in := TaskInput{Description: "check in", Kind: KindOnce, Schedule: t0.AddDate(0, 2, 0).Format(time.RFC3339), MemberID: "ada"}
	gone, err := h.svc.create(ctx, in, ByAgent, 7, "")
	if err != nil {
		t.Fatal(err)
	}
	kept, err := h.svc.create(ctx, in, ByAgent, 7, "")
	if err != nil {
		t.Fatal(err)
	}
	if gone.ExpiresAt == nil || !gone.ExpiresAt.Equal(t0.Add(30*24*time.Hour)) || gone.CreatedByRun != 7 {
		t.Fatalf("agent task: expires %v run %d", gone.ExpiresAt, gone.CreatedByRun)
	}
	if _, err := h.svc.Keep(ctx, kept.ID, true); err != nil {
		t.Fatal(err)
	}
	h.clock.Advance(30*24*time.Hour + time.Minute)
	if err := h.svc.Sweep(ctx); err != nil {
		t.Fatal(err)
	}
	if got := h.get(gone.ID); got.Status != StatusExpired || got.StatusReason == "" {
		t.Fatalf("old agent task: %s", got.Status)
	}
	if got := h.get(kept.ID); got.Status != StatusActive {
		t.Fatalf("kept agent task: %s", got.Status)
	}
	// Resuming an expired task gives it a new lease.
	res, err := h.svc.Resume(ctx, gone.ID)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != StatusActive || !res.ExpiresAt.After(h.clock.Now()) {
		t.Fatalf("resumed expired: %s expires %v", res.Status, res.ExpiresAt)
	}
}

func TestLedgerPruned(t *testing.T) {
	h := newHarness(t)
	task := h.create(TaskInput{Kind: KindInterval, Schedule: "60", MemberID: "ada"})
	ctx := context.Background()
	old := t0.Add(-100 * 24 * time.Hour)
	if err := recordSkipped(ctx, h.db.Write, task.ID, old, TriggerSchedule, OutcomeMissed, "x", old); err != nil {
		t.Fatal(err)
	}
	if err := recordSkipped(ctx, h.db.Write, task.ID, t0, TriggerSchedule, OutcomeMissed, "y", t0); err != nil {
		t.Fatal(err)
	}
	if err := h.svc.Sweep(ctx); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := h.db.Read.QueryRow(`SELECT count(*) FROM task_fires WHERE task_id = ?`, task.ID).Scan(&n); err != nil || n != 1 {
		t.Fatalf("rows after prune = %d (%v), want 1", n, err)
	}
}
