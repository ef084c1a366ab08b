package schedule

import (
	"context"
	"errors"
	"hearth/internal/testkit"
	"strings"
	"sync"
	"testing"
	"time"

	"hearth/internal/store"
	"hearth/internal/store/storetest"
)

func TestCronTaskFiresAtItsTime(t *testing.T) {
	h := newHarness(t).start()
	task := h.create(TaskInput{Kind: KindRecurring, Schedule: "0 9 * * *", AgentID: "health-coach",
		AssignmentID: "daily-dashboard", MemberID: "ada"})
	nine := time.Date(2026, 3, 2, 9, 0, 0, 0, berlin)
	if task.NextRunAt == nil || !task.NextRunAt.Equal(nine) {
		t.Fatalf("next_run_at = %v, want %v", task.NextRunAt, nine)
	}
	h.waitArmed(task.ID, nine)
	if !h.pub.has(task.ID, "created") {
		t.Error("no task event published on create")
	}

	h.advanceTo(nine.Add(-time.Second))
	h.noCall()
	h.advanceTo(nine)
	c := h.waitCall()
	if want := (call{Kind: "assignment", Agent: "health-coach", Assignment: "daily-dashboard", Member: "ada", Trigger: TriggerSchedule, Origin: TaskOrigin(task.ID)}); c != want {
		t.Fatalf("call = %+v, want %+v", c, want)
	}
	h.waitIdle(task.ID)
	got := h.get(task.ID)
	tomorrow := nine.AddDate(0, 0, 1)
	if got.Status != StatusActive || got.RunCount != 1 || got.LastRunID != 101 || got.NextRunAt == nil || !got.NextRunAt.Equal(tomorrow) {
		t.Fatalf("after run: status %s runs %d last run %d next %v", got.Status, got.RunCount, got.LastRunID, got.NextRunAt)
	}
	if f := h.ledger(task.ID)["09:00"]; f.Outcome != OutcomeRan || f.RunID != 101 || f.Via != TriggerSchedule || f.FinishedAt == nil {
		t.Fatalf("ledger row = %+v", f)
	}
	h.waitArmed(task.ID, tomorrow)
}

func TestIntervalNeverOverlaps(t *testing.T) {
	for _, policy := range []OverlapPolicy{OverlapSkip, OverlapQueue} {
		t.Run(string(policy), func(t *testing.T) {
			h := newHarness(t).start()
			h.runner.set(func(r *fakeRunner) { r.gate = make(chan struct{}) })
			task := h.create(TaskInput{Kind: KindInterval, Schedule: "1", MemberID: "ada", OverlapPolicy: policy})
			slot := func(n int) time.Time { return t0.Add(time.Duration(n) * time.Minute) }

			h.advanceTo(slot(1))
			h.waitCall() // run 1 holds
			h.waitArmed(task.ID, slot(2))
			h.advanceTo(slot(2))
			h.waitArmed(task.ID, slot(3))
			h.advanceTo(slot(3))
			h.waitArmed(task.ID, slot(4))
			testkit.WaitFor(t, wait, "slot 3 skipped", func() bool { return h.ledger(task.ID)["09:01"].Outcome == OutcomeSkippedOverlap })

			led := h.ledger(task.ID)
			if led["08:59"].Outcome != OutcomeRunning {
				t.Fatalf("slot 1 = %s, want running", led["08:59"].Outcome)
			}
			want2 := OutcomeSkippedOverlap
			if policy == OverlapQueue {
				want2 = OutcomeQueued
			}
			if led["09:00"].Outcome != want2 {
				t.Fatalf("slot 2 = %s, want %s", led["09:00"].Outcome, want2)
			}
			if h.runner.count() != 1 {
				t.Fatalf("runs while the first was in progress = %d, want 1", h.runner.count())
			}

			h.runner.gate <- struct{}{} // finish run 1
			if policy == OverlapQueue {
				c := h.waitCall() // the queued slot runs once, after run 1
				if c.Trigger != TriggerSchedule {
					t.Fatalf("queued run trigger = %q", c.Trigger)
				}
				testkit.WaitFor(t, wait, "queued slot running", func() bool { return h.ledger(task.ID)["09:00"].Outcome == OutcomeRunning })
				h.runner.gate <- struct{}{}
			}
			h.waitIdle(task.ID)
			h.noCall()
			led = h.ledger(task.ID)
			if led["08:59"].Outcome != OutcomeRan {
				t.Fatalf("slot 1 = %s, want ran", led["08:59"].Outcome)
			}
			wantRuns := 1
			if policy == OverlapQueue {
				wantRuns = 2
				if led["09:00"].Outcome != OutcomeRan {
					t.Fatalf("queued slot = %s, want ran", led["09:00"].Outcome)
				}
			}
			var maxActive int
			h.runner.set(func(r *fakeRunner) { maxActive = r.maxActive })
			if h.runner.count() != wantRuns || maxActive != 1 {
				t.Fatalf("runs = %d (max concurrent %d), want %d (1)", h.runner.count(), maxActive, wantRuns)
			}
			if got := h.get(task.ID).RunCount; got != wantRuns {
				t.Fatalf("run_count = %d, want %d", got, wantRuns)
			}

			// The schedule carries on after the slow run.
			close(h.runner.gate)
			h.advanceTo(slot(4))
			h.waitCall()
		})
	}
}

func TestDuplicateFireRunsOnce(t *testing.T) {
	h := newHarness(t).start()
	task := h.create(TaskInput{Kind: KindInterval, Schedule: "10", MemberID: "ada"})
	slot := *task.NextRunAt
	h.advanceTo(slot.Add(-time.Second)) // not yet due in gocron; we fire by hand as a double-firing engine would
	var wg sync.WaitGroup
	for range 3 {
		wg.Go(func() { h.svc.fireJob(task.ID, slot) })
	}
	wg.Wait()
	h.waitCall()
	h.waitIdle(task.ID)
	if n := h.runner.count(); n != 1 {
		t.Fatalf("runs for one slot = %d, want 1", n)
	}
	// A stale slot (not the task's next_run_at) is ignored.
	h.svc.fireJob(task.ID, slot.Add(-time.Hour))
	h.noCall()
}

func TestFailingRunSetsErrorAndKeepsRecurringScheduled(t *testing.T) {
	h := newHarness(t).start()
	h.runner.set(func(r *fakeRunner) { r.fail = errors.New("model unavailable") })
	task := h.create(TaskInput{Kind: KindRecurring, Schedule: "* * * * *", MemberID: "ada", AssignmentID: "check-in"})
	first := t0.Add(time.Minute)
	h.advanceTo(first)
	h.waitCall()
	h.waitIdle(task.ID)
	got := h.get(task.ID)
	if got.Status != StatusError || !strings.Contains(got.StatusReason, "model unavailable") {
		t.Fatalf("after failure: status %s reason %q", got.Status, got.StatusReason)
	}
	if f := h.ledger(task.ID)["08:59"]; f.Outcome != OutcomeFailed || f.Reason != "model unavailable" {
		t.Fatalf("ledger = %+v", f)
	}
	h.waitArmed(task.ID, first.Add(time.Minute)) // still scheduled

	h.runner.set(func(r *fakeRunner) { r.fail = nil })
	h.advanceTo(first.Add(time.Minute))
	h.waitCall()
	h.waitIdle(task.ID)
	if got := h.get(task.ID); got.Status != StatusActive || got.StatusReason != "" || got.RunCount != 2 {
		t.Fatalf("after success: status %s reason %q runs %d", got.Status, got.StatusReason, got.RunCount)
	}
}

func TestOnceTaskCompletes(t *testing.T) {
	h := newHarness(t).start()
	at := t0.Add(10 * time.Minute)
	task := h.create(TaskInput{Description: "Ask Ada how the new routine feels", Kind: KindOnce,
		Schedule: at.Format(time.RFC3339), MemberID: "ada"})
	h.advanceTo(at)
	c := h.waitCall()
	if c.Kind != "freeform" || c.Member != "ada" || c.Prompt != "Ask Ada how the new routine feels" {
		t.Fatalf("call = %+v", c)
	}
	h.waitIdle(task.ID)
	got := h.get(task.ID)
	if got.Status != StatusCompleted || got.NextRunAt != nil || got.RunCount != 1 {
		t.Fatalf("once after run: status %s next %v runs %d", got.Status, got.NextRunAt, got.RunCount)
	}
	if _, ok := h.svc.Scheduled(task.ID); ok {
		t.Fatal("completed task still registered with gocron")
	}
}

func TestPauseResume(t *testing.T) {
	h := newHarness(t).start()
	task := h.create(TaskInput{Kind: KindInterval, Schedule: "1", MemberID: "ada"})
	ctx := context.Background()
	paused, err := h.svc.Pause(ctx, task.ID, "Ada is travelling")
	if err != nil {
		t.Fatal(err)
	}
	if paused.Status != StatusPaused || paused.PauseNote != "Ada is travelling" || paused.PausedAt == nil {
		t.Fatalf("paused = %+v", paused)
	}
	if _, ok := h.svc.Scheduled(task.ID); ok {
		t.Fatal("paused task still registered")
	}
	h.advanceTo(t0.Add(3*time.Minute + 30*time.Second))
	h.noCall()

	resumed, err := h.svc.Resume(ctx, task.ID)
	if err != nil {
		t.Fatal(err)
	}
	next := t0.Add(4 * time.Minute)
	if resumed.Status != StatusActive || resumed.PauseNote != "" || !resumed.NextRunAt.Equal(next) {
		t.Fatalf("resumed = status %s note %q next %v", resumed.Status, resumed.PauseNote, resumed.NextRunAt)
	}
	led := h.ledger(task.ID)
	for _, hm := range []string{"08:59", "09:00", "09:01"} {
		if led[hm].Outcome != OutcomeSkippedPaused {
			t.Fatalf("slot %s = %q, want skipped_paused (ledger %v)", hm, led[hm].Outcome, led)
		}
	}
	h.waitArmed(task.ID, next)
	h.advanceTo(next)
	h.waitCall()

	if _, err := h.svc.Resume(ctx, task.ID); err == nil {
		t.Fatal("resuming an active task should be refused")
	}
}

func TestStopInterruptsRunAndLeavesNoGoroutines(t *testing.T) {
	h := newHarness(t)
	before := goroutines()
	h.start()
	h.runner.set(func(r *fakeRunner) { r.gate = make(chan struct{}) })
	task := h.create(TaskInput{Kind: KindInterval, Schedule: "5", MemberID: "ada"})
	h.advanceTo(t0.Add(5 * time.Minute))
	h.waitCall()
	h.stop(h.svc)
	f := h.ledger(task.ID)["09:03"]
	if f.Outcome != OutcomeInterrupted {
		t.Fatalf("run cut by Stop = %s, want interrupted", f.Outcome)
	}
	if got := h.get(task.ID); got.Status != StatusError || got.Running {
		t.Fatalf("task after stop: status %s running %v", got.Status, got.Running)
	}
	testkit.WaitFor(t, wait, "goroutines to wind down", func() bool { return goroutines() <= before })
}

func TestRealClockOnceFires(t *testing.T) {
	db := storetest.Open(t)
	storetest.Member(t, db, "ada")
	runner := newFakeRunner()
	svc, err := New(db, runner, nil, nil, Options{Location: berlin})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := svc.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = svc.Stop(ctx) }()
	at := time.Now().Truncate(time.Second).Add(2 * time.Second)
	task, err := svc.Create(ctx, TaskInput{Description: "soon", Kind: KindOnce, Schedule: at.Format(time.RFC3339), MemberID: "ada"}, ByUser)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-runner.started:
	case <-time.After(wait):
		t.Fatal("once task did not fire on the real clock")
	}
	if now := time.Now(); now.Before(at) {
		t.Fatalf("fired early: %v before %v", now, at)
	}
	testkit.WaitFor(t, wait, "completion", func() bool {
		got, err := svc.Get(ctx, task.ID)
		return err == nil && got.Status == StatusCompleted
	})
}

func TestArmingAPassedSlotFiresAtOnce(t *testing.T) {
	h := newHarness(t).start()
	task := h.create(TaskInput{Kind: KindInterval, Schedule: "30", MemberID: "ada"})
	past := t0.Add(-time.Second)
	if _, err := h.db.Write.Exec(`UPDATE scheduled_tasks SET next_run_at = ? WHERE id = ?`, store.FormatTime(past), task.ID); err != nil {
		t.Fatal(err)
	}
	h.svc.mu.Lock()
	h.svc.armLocked(task.ID, past) // as when a slot passes while it is being registered
	h.svc.mu.Unlock()
	h.waitCall()
	h.waitIdle(task.ID)
	if got := h.get(task.ID); got.RunCount != 1 || !got.NextRunAt.Equal(past.Add(30*time.Minute)) {
		t.Fatalf("after immediate fire: runs %d next %v", got.RunCount, got.NextRunAt)
	}
}
