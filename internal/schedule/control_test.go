package schedule

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"hearth/internal/apperr"
)

func TestCreateValidation(t *testing.T) {
	h := newHarness(t, func(o *Options) {
		o.CheckTarget = func(agentID, assignmentID string) error {
			if assignmentID == "nope" {
				return errors.New(`unknown assignment "nope"`)
			}
			return nil
		}
	})
	ok := TaskInput{Description: "d", Kind: KindRecurring, Schedule: "0 9 * * *", AssignmentID: "daily-dashboard"}
	cases := []struct {
		name  string
		edit  func(in *TaskInput)
		field string
		msg   string
	}{
		{"bad cron", func(in *TaskInput) { in.Schedule = "61 * * * *" }, "schedule", "bad cron"},
		{"six fields", func(in *TaskInput) { in.Schedule = "0 0 9 * * *" }, "schedule", "want 5"},
		{"cron with zone", func(in *TaskInput) { in.Schedule = "TZ=UTC 0 9 * * *" }, "schedule", "time zone"},
		{"every", func(in *TaskInput) { in.Schedule = "@every 5m" }, "schedule", "interval task"},
		{"never fires", func(in *TaskInput) { in.Schedule = "0 0 30 2 *" }, "schedule", "never fires"},
		{"interval zero", func(in *TaskInput) { in.Kind, in.Schedule = KindInterval, "0" }, "schedule", "at least 1 minute"},
		{"interval fraction", func(in *TaskInput) { in.Kind, in.Schedule = KindInterval, "1.5" }, "schedule", "whole number"},
		{"interval words", func(in *TaskInput) { in.Kind, in.Schedule = KindInterval, "five" }, "schedule", "whole number"},
		{"once in the past", func(in *TaskInput) { in.Kind, in.Schedule = KindOnce, t0.Add(-time.Minute).Format(time.RFC3339) }, "schedule", "not in the future"},
		{"once now", func(in *TaskInput) { in.Kind, in.Schedule = KindOnce, t0.Format(time.RFC3339) }, "schedule", "not in the future"},
		{"once garbage", func(in *TaskInput) { in.Kind, in.Schedule = KindOnce, "tomorrow" }, "schedule", "RFC 3339"},
		{"unknown type", func(in *TaskInput) { in.Kind = "weekly" }, "type", "unknown type"},
		{"missing type", func(in *TaskInput) { in.Kind = "" }, "type", "type is required"},
		{"empty schedule", func(in *TaskInput) { in.Schedule = " " }, "schedule", "required"},
		{"missing target", func(in *TaskInput) { in.AssignmentID = "" }, "member", "needs a member"},
		{"inconsistent target", func(in *TaskInput) { in.Prompt = "do it" }, "prompt", "not both"},
		{"heartbeat with member", func(in *TaskInput) {
			in.Kind, in.Schedule, in.AssignmentID, in.MemberID = KindHeartbeat, "5", "", "ada"
		}, "type", "heartbeat"},
		{"unknown member", func(in *TaskInput) { in.MemberID = "zed" }, "member", "unknown member"},
		{"unknown assignment", func(in *TaskInput) { in.AssignmentID = "nope" }, "assignment", "unknown assignment"},
		{"empty description", func(in *TaskInput) { in.Description = "  " }, "description", "required"},
		{"long description", func(in *TaskInput) { in.Description = strings.Repeat("é", 2001) }, "description", "2001 characters"},
		{"bad overlap", func(in *TaskInput) { in.OverlapPolicy = "both" }, "overlap_policy", "skip or queue"},
		{"bad catch-up", func(in *TaskInput) { in.CatchupPolicy = "all" }, "catchup_policy", "once or skip"},
		{"bad status", func(in *TaskInput) { in.Status = StatusCompleted }, "status", "active or paused"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := ok
			tc.edit(&in)
			_, err := h.svc.Create(context.Background(), in, ByUser)
			var ae *apperr.Error
			if !errors.As(err, &ae) || ae.Code != apperr.Invalid {
				t.Fatalf("err = %v, want invalid", err)
			}
			if !strings.Contains(ae.Message, tc.msg) || ae.Fields[tc.field] == "" {
				t.Fatalf("message %q fields %v, want %q on %s", ae.Message, ae.Fields, tc.msg, tc.field)
			}
		})
	}
	// 2000 characters is fine, and the defaults apply.
	in := ok
	in.Description = strings.Repeat("é", 2000)
	task := h.create(in)
	if task.OverlapPolicy != OverlapSkip || task.CatchupPolicy != CatchupOnce || task.AgentID != "health-coach" || task.CreatedBy != ByUser {
		t.Fatalf("defaults: %+v", task)
	}
}

func TestEditRecomputesNextRun(t *testing.T) {
	h := newHarness(t).start()
	ctx := context.Background()
	task := h.create(TaskInput{Kind: KindRecurring, Schedule: "0 9 * * *", AssignmentID: "daily-dashboard"})
	got, err := h.svc.Update(ctx, task.ID, TaskPatch{Schedule: ptr("30 7 * * *")})
	if err != nil {
		t.Fatal(err)
	}
	want := time.Date(2026, 3, 3, 7, 30, 0, 0, berlin)
	if !got.NextRunAt.Equal(want) {
		t.Fatalf("next after edit = %v, want %v", got.NextRunAt, want)
	}
	h.waitArmed(task.ID, want)

	got, err = h.svc.Update(ctx, task.ID, TaskPatch{Kind: ptr(KindInterval), Schedule: ptr(" 15 ")})
	if err != nil {
		t.Fatal(err)
	}
	if want := t0.Add(15 * time.Minute); got.Schedule != "15" || !got.NextRunAt.Equal(want) {
		t.Fatalf("interval edit: schedule %q next %v", got.Schedule, got.NextRunAt)
	}

	if _, err := h.svc.Update(ctx, task.ID, TaskPatch{Schedule: ptr("0")}); !apperr.Is(err, apperr.Invalid) {
		t.Fatalf("bad edit: %v, want invalid", err)
	}
	if got := h.get(task.ID); got.Schedule != "15" {
		t.Fatalf("bad edit changed the task: %q", got.Schedule)
	}

	// Policies and status through Update, as the task API does.
	got, err = h.svc.Update(ctx, task.ID, TaskPatch{OverlapPolicy: ptr(OverlapQueue), CatchupPolicy: ptr(CatchupSkip),
		Status: ptr(StatusPaused), PauseNote: ptr("holiday")})
	if err != nil {
		t.Fatal(err)
	}
	if got.OverlapPolicy != OverlapQueue || got.CatchupPolicy != CatchupSkip || got.Status != StatusPaused || got.PauseNote != "holiday" {
		t.Fatalf("patched = %+v", got)
	}
	if _, ok := h.svc.Scheduled(task.ID); ok {
		t.Fatal("paused through Update but still registered")
	}
	got, err = h.svc.Update(ctx, task.ID, TaskPatch{Status: ptr(StatusActive)})
	if err != nil || got.Status != StatusActive {
		t.Fatalf("resume through Update: %v %v", got.Status, err)
	}
	if _, err := h.svc.Update(ctx, task.ID, TaskPatch{Status: ptr(StatusCompleted)}); !apperr.Is(err, apperr.Invalid) {
		t.Fatalf("status completed by hand: %v, want invalid", err)
	}
	if _, err := h.svc.Update(ctx, 999, TaskPatch{}); !apperr.Is(err, apperr.NotFound) {
		t.Fatalf("unknown id: %v, want not found", err)
	}
}

func TestEditReactivatesCompletedOnce(t *testing.T) {
	h := newHarness(t).start()
	ctx := context.Background()
	at := t0.Add(time.Minute)
	task := h.create(TaskInput{Kind: KindOnce, Schedule: at.Format(time.RFC3339), MemberID: "ada"})
	h.advanceTo(at)
	h.waitCall()
	h.waitIdle(task.ID)
	if _, err := h.svc.Update(ctx, task.ID, TaskPatch{Status: ptr(StatusActive)}); !apperr.Is(err, apperr.Conflict) {
		t.Fatalf("reactivating without a new time: %v, want conflict", err)
	}
	later := at.Add(time.Hour)
	got, err := h.svc.Update(ctx, task.ID, TaskPatch{Schedule: ptr(later.Format("2006-01-02T15:04"))})
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != StatusActive || !got.NextRunAt.Equal(later) {
		t.Fatalf("new time: status %s next %v", got.Status, got.NextRunAt)
	}
	h.waitArmed(task.ID, later)
}

func TestDeleteAndRunNow(t *testing.T) {
	h := newHarness(t).start()
	ctx := context.Background()
	h.runner.set(func(r *fakeRunner) { r.gate = make(chan struct{}) })
	task := h.create(TaskInput{Kind: KindRecurring, Schedule: "0 4 * * *", AssignmentID: "daily-dashboard"})
	f, err := h.svc.RunNow(ctx, task.ID)
	if err != nil {
		t.Fatal(err)
	}
	if f.Outcome != OutcomeRunning || f.Via != TriggerManual {
		t.Fatalf("run now fire = %+v", f)
	}
	if c := h.waitCall(); c.Trigger != TriggerManual || c.Member != "" {
		t.Fatalf("run now call = %+v", c)
	}
	if _, err := h.svc.RunNow(ctx, task.ID); !apperr.Is(err, apperr.Conflict) {
		t.Fatalf("second run now while running: %v, want conflict", err)
	}
	if !h.get(task.ID).Running {
		t.Fatal("task not shown as running")
	}
	close(h.runner.gate)
	h.waitIdle(task.ID)
	if got := h.get(task.ID); got.RunCount != 1 || !got.NextRunAt.Equal(time.Date(2026, 3, 3, 4, 0, 0, 0, berlin)) {
		t.Fatalf("run now moved the schedule: %+v", got)
	}

	if err := h.svc.Delete(ctx, task.ID); err != nil {
		t.Fatal(err)
	}
	if _, ok := h.svc.Scheduled(task.ID); ok {
		t.Fatal("deleted task still registered")
	}
	if err := h.svc.Delete(ctx, task.ID); !apperr.Is(err, apperr.NotFound) {
		t.Fatalf("delete twice: %v, want not found", err)
	}
	if _, err := h.svc.Ledger(ctx, task.ID, 10); !apperr.Is(err, apperr.NotFound) {
		t.Fatalf("ledger of deleted task: %v", err)
	}
}

func TestNextFires(t *testing.T) {
	h := newHarness(t)
	got, err := h.svc.NextFires(Task{Kind: KindRecurring, Schedule: "0 9 * * 1-5"}, 5)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"2026-03-02T09:00", "2026-03-03T09:00", "2026-03-04T09:00", "2026-03-05T09:00", "2026-03-06T09:00"}
	if len(got) != len(want) {
		t.Fatalf("fires = %v", got)
	}
	for i := range want {
		if s := got[i].Format("2006-01-02T15:04"); s != want[i] || got[i].Location() != berlin {
			t.Fatalf("fire %d = %v, want %s local", i, got[i], want[i])
		}
	}
	// Across the spring DST change the local wall time holds.
	dst, err := h.svc.NextFires(Task{Kind: KindRecurring, Schedule: "0 9 28-30 3 *"}, 3)
	if err != nil || len(dst) != 3 || dst[1].Sub(dst[0]) != 23*time.Hour {
		t.Fatalf("dst fires = %v %v", dst, err)
	}
	iv, err := h.svc.NextFires(Task{Kind: KindInterval, Schedule: "90"}, 2)
	if err != nil || !iv[0].Equal(t0.Add(90*time.Minute)) || !iv[1].Equal(t0.Add(180*time.Minute)) {
		t.Fatalf("interval fires = %v %v", iv, err)
	}
	one, err := h.svc.NextFires(Task{Kind: KindOnce, Schedule: "2026-03-02T12:00"}, 5)
	if err != nil || len(one) != 1 || !one[0].Equal(time.Date(2026, 3, 2, 12, 0, 0, 0, berlin)) {
		t.Fatalf("once fires = %v %v", one, err)
	}
	if _, err := h.svc.NextFires(Task{Kind: KindRecurring, Schedule: "nope"}, 5); !apperr.Is(err, apperr.Invalid) {
		t.Fatalf("bad preview: %v", err)
	}
	// A saved task previews from its stored cadence.
	task := h.create(TaskInput{Kind: KindInterval, Schedule: "10", MemberID: "ada"})
	h.clock.Advance(3 * time.Minute)
	fires, err := h.svc.NextFires(task, 2)
	if err != nil || !fires[0].Equal(*task.NextRunAt) {
		t.Fatalf("saved preview = %v %v", fires, err)
	}
}

func TestEnsureDefaultOnlyOnce(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	for range 2 {
		if err := h.svc.EnsureDefault(ctx); err != nil {
			t.Fatal(err)
		}
	}
	tasks, err := h.svc.List(ctx, TaskFilter{})
	if err != nil || len(tasks) != 2 {
		t.Fatalf("defaults = %+v %v", tasks, err)
	}
	dash, beat := tasks[0], tasks[1]
	if dash.Kind != KindRecurring || dash.Schedule != "0 4 * * *" || dash.AgentID != "health-coach" ||
		dash.AssignmentID != "daily-dashboard" || dash.MemberID != "" || dash.Status != StatusActive {
		t.Fatalf("dashboard default = %+v", dash)
	}
	if want := time.Date(2026, 3, 3, 4, 0, 0, 0, berlin); !dash.NextRunAt.Equal(want) {
		t.Fatalf("dashboard next = %v", dash.NextRunAt)
	}
	if beat.Kind != KindHeartbeat || beat.Schedule != "5" || beat.AgentID != "health-coach" {
		t.Fatalf("heartbeat default = %+v", beat)
	}
	if err := h.svc.Delete(ctx, dash.ID); err != nil {
		t.Fatal(err)
	}
	if err := h.svc.EnsureDefault(ctx); err != nil {
		t.Fatal(err)
	}
	if tasks, _ := h.svc.List(ctx, TaskFilter{Kind: KindRecurring}); len(tasks) != 0 {
		t.Fatalf("deleted default came back: %+v", tasks)
	}
}

func TestListFilters(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	h.create(TaskInput{Kind: KindInterval, Schedule: "30", MemberID: "ada"})
	b := h.create(TaskInput{Kind: KindInterval, Schedule: "30", MemberID: "bob", Status: StatusPaused})
	got, err := h.svc.List(ctx, TaskFilter{MemberID: "bob"})
	if err != nil || len(got) != 1 || got[0].ID != b.ID || got[0].Status != StatusPaused {
		t.Fatalf("member filter = %+v %v", got, err)
	}
	if got, _ := h.svc.List(ctx, TaskFilter{Status: StatusActive}); len(got) != 1 || got[0].MemberID != "ada" {
		t.Fatalf("status filter = %+v", got)
	}
	if _, err := h.svc.Get(ctx, 12345); !apperr.Is(err, apperr.NotFound) {
		t.Fatalf("get unknown: %v", err)
	}
}
