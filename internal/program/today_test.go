package program_test

import (
	"context"
	"testing"
	"time"

	"hearth/internal/program"
)

// step is one point in a scenario: optionally advance n times (on date),
// then check Today on date.
type step struct {
	date     string
	advance  int
	status   program.DayStatus
	day      int
	expected int
	behind   int
	ahead    int
	rest     string
	item     string // "" = nil
	startsIn int
}

func runSteps(t *testing.T, e *env, member string, steps []step) {
	t.Helper()
	ctx := context.Background()
	for i, s := range steps {
		e.setDate(s.date)
		for range s.advance {
			e.ok(e.svc.Advance(ctx, member))
		}
		got := e.today(t, member, s.date)
		item := ""
		if got.Item != nil {
			item = got.Item.ID
		}
		if got.Status != s.status || got.Day != s.day || got.ExpectedDay != s.expected || got.Behind != s.behind ||
			got.Ahead != s.ahead || got.RestReason != s.rest || item != s.item || got.StartsInDays != s.startsIn ||
			got.Date != s.date {
			t.Errorf("step %d (%s): got %+v (item %q)\nwant %+v", i, s.date, got, item, s)
		}
	}
}

func TestTodayDaily(t *testing.T) {
	e := newEnv(t, "ada")
	e.setDate("2026-02-27")
	st := e.ok(e.svc.Declare(context.Background(), "ada", "test-10", "2026-03-02", "daily"))
	if st.StartsInDays != 3 || st.CurrentDay != 1 || st.TotalDays != 10 || st.Pattern != "daily" || st.ProgramTitle != "Test Ten" {
		t.Fatalf("declared state = %+v", st)
	}
	if td := e.today(t, "ada", "2026-03-02"); td.Note != "go easy" || td.Week != "Week 1, Day 1" || td.ProgramTitle != "Test Ten" {
		t.Errorf("day 1 = %+v", td)
	}
	runSteps(t, e, "ada", []step{
		{date: "2026-02-27", status: program.DayNotStarted, day: 1, item: "local:t1", startsIn: 3},
		{date: "2026-03-02", status: program.DayTraining, day: 1, expected: 1, item: "local:t1"},
		// Two days missed.
		{date: "2026-03-04", status: program.DayTraining, day: 1, expected: 3, behind: 2, item: "local:t1"},
		// Caught up on 3/4 (days 1-3); the program rest day 4 is passed.
		{date: "2026-03-04", advance: 3, status: program.DayTraining, day: 5, expected: 3, item: "local:t4"},
		{date: "2026-03-05", status: program.DayRest, rest: program.RestProgram, day: 5, expected: 4, item: "local:t4"},
		// Trained on the rest day: one ahead.
		{date: "2026-03-05", advance: 1, status: program.DayRest, rest: program.RestProgram, day: 6, expected: 4, ahead: 1, item: "local:t5"},
		{date: "2026-03-07", status: program.DayTraining, day: 6, expected: 6, item: "local:t5"},
		// The schedule ran past the end: days 6, 8, 9, 10 are still to do.
		{date: "2026-03-12", status: program.DayTraining, day: 6, expected: 11, behind: 4, item: "local:t5"},
	})
}

func TestTodayPattern(t *testing.T) {
	e := newEnv(t, "ada")
	e.ok(e.svc.Declare(context.Background(), "ada", "test-10", "2026-03-02", "Mon, Wed, Fri"))
	runSteps(t, e, "ada", []step{
		// Tuesday is not a training weekday; Monday's session was missed.
		{date: "2026-03-03", status: program.DayRest, rest: program.RestSchedule, day: 1, expected: 2, behind: 1, item: "local:t1"},
		{date: "2026-03-03", advance: 1, status: program.DayRest, rest: program.RestSchedule, day: 2, expected: 2, item: "local:t2"},
		{date: "2026-03-04", status: program.DayTraining, day: 2, expected: 2, item: "local:t2"},
		// Sunday: Mon, Wed, Fri counted; days 2 and 3 not done.
		{date: "2026-03-08", status: program.DayRest, rest: program.RestSchedule, day: 2, expected: 4, behind: 2, item: "local:t2"},
		// Monday lands on the program's rest day 4.
		{date: "2026-03-09", advance: 2, status: program.DayRest, rest: program.RestProgram, day: 5, expected: 4, item: "local:t4"},
		{date: "2026-03-11", status: program.DayTraining, day: 5, expected: 5, item: "local:t4"},
	})
	st := e.ok(e.svc.Current(context.Background(), "ada"))
	if st.Pattern != "mon,wed,fri" || len(st.RestWeekdays) != 4 || st.RestWeekdays[0] != "tue" {
		t.Errorf("pattern = %q, rest = %v", st.Pattern, st.RestWeekdays)
	}
}

func TestTodayLeadingRestDay(t *testing.T) {
	e := newEnv(t, "ada")
	st := e.ok(e.svc.Declare(context.Background(), "ada", "other-2", "2026-03-02", "daily"))
	if st.CurrentDay != 2 {
		t.Fatalf("current day = %d, want 2 (day 1 is a rest day)", st.CurrentDay)
	}
	runSteps(t, e, "ada", []step{
		{date: "2026-03-02", status: program.DayRest, rest: program.RestProgram, day: 2, expected: 1, item: "local:o1"},
		{date: "2026-03-03", status: program.DayTraining, day: 2, expected: 2, item: "local:o1"},
	})
}

func TestPauseResumeShiftsSchedule(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, "ada")
	e.ok(e.svc.Declare(ctx, "ada", "test-10", "2026-03-02", "daily"))
	e.setDate("2026-03-03")
	e.ok(e.svc.Advance(ctx, "ada"))
	e.ok(e.svc.Advance(ctx, "ada"))
	st := e.ok(e.svc.Pause(ctx, "ada", "flu"))
	if st.Status != program.Paused || st.PausedAt == nil || st.Note != "flu" || st.CurrentDay != 3 {
		t.Fatalf("paused = %+v", st)
	}
	runSteps(t, e, "ada", []step{{date: "2026-03-10", status: program.DayPaused, day: 3, item: "local:t3"}})
	e.setDate("2026-03-10")
	st = e.ok(e.svc.Resume(ctx, "ada"))
	if st.Status != program.Active || st.PausedAt != nil || st.AnchorDate != "2026-03-10" || st.AnchorDay != 3 {
		t.Fatalf("resumed = %+v", st)
	}
	runSteps(t, e, "ada", []step{
		{date: "2026-03-10", status: program.DayTraining, day: 3, expected: 3, item: "local:t3"},
		{date: "2026-03-11", status: program.DayRest, rest: program.RestProgram, day: 3, expected: 4, behind: 1, item: "local:t3"},
	})
}

func TestResumeBeforeStartKeepsStartDate(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, "ada")
	e.ok(e.svc.Declare(ctx, "ada", "test-10", "2026-03-20", "daily"))
	e.setDate("2026-03-05")
	e.ok(e.svc.Pause(ctx, "ada", ""))
	e.setDate("2026-03-06")
	st := e.ok(e.svc.Resume(ctx, "ada"))
	if st.AnchorDate != "2026-03-20" || st.StartsInDays != 14 {
		t.Fatalf("state = %+v", st)
	}
	runSteps(t, e, "ada", []step{{date: "2026-03-06", status: program.DayNotStarted, day: 1, item: "local:t1", startsIn: 14}})
}

func TestTodayUsesHouseholdDate(t *testing.T) {
	e := newEnv(t, "ada")
	e.ok(e.svc.Declare(context.Background(), "ada", "test-10", "2026-03-30", "daily"))
	// 22:30 UTC on 29 March is already 30 March in Berlin (CEST, UTC+2).
	now := time.Date(2026, 3, 29, 22, 30, 0, 0, time.UTC)
	td, err := e.svc.Today(context.Background(), "ada", now, e.loc)
	if err != nil {
		t.Fatal(err)
	}
	if td.Date != "2026-03-30" || td.Status != program.DayTraining {
		t.Errorf("Berlin: %+v", td)
	}
	td, err = e.svc.Today(context.Background(), "ada", now, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	if td.Date != "2026-03-29" || td.Status != program.DayNotStarted || td.StartsInDays != 1 {
		t.Errorf("UTC: %+v", td)
	}
}
