package program_test

import (
	"context"
	"testing"
	"time"

	"hearth/internal/program"
)

// DaySince is when the member reached their current day: declaring,
// advancing and moving to another day set it; changing the pattern or the
// pace, pausing and resuming do not, so a session done before such a
// change still finishes the day (the coach reads completions since it).
// Checked by setting day_since in SetPatternTx too: the pattern step fails.
func TestDaySinceMovesOnlyWithThePosition(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, "ada")
	step := func(what string, moves bool, op func() (program.State, error)) {
		t.Helper()
		before := e.ok(e.svc.Current(ctx, "ada")).DaySince
		e.now = e.now.Add(time.Hour)
		st := e.ok(op())
		if moved := !st.DaySince.Equal(before); moved != moves {
			t.Errorf("%s: day_since %v -> %v (day %d), want moved=%v", what, before, st.DaySince, st.CurrentDay, moves)
		}
		if moves && !st.DaySince.Equal(e.now) {
			t.Errorf("%s: day_since %v, want now %v", what, st.DaySince, e.now)
		}
	}
	e.setDate("2026-03-02")
	st := e.ok(e.svc.Declare(ctx, "ada", "test-10", "2026-03-02", "daily"))
	if !st.DaySince.Equal(e.now) {
		t.Fatalf("declared: day_since %v, want %v", st.DaySince, e.now)
	}
	step("advance", true, func() (program.State, error) { return e.svc.Advance(ctx, "ada") })
	step("pattern", false, func() (program.State, error) {
		op, err := e.svc.SetPatternOp("ada", "mon,wed,fri")
		if err != nil {
			return program.State{}, err
		}
		return e.svc.Do(ctx, op)
	})
	step("pace", false, func() (program.State, error) {
		op, err := e.svc.PaceOp("ada", program.PaceOwn)
		if err != nil {
			return program.State{}, err
		}
		return e.svc.Do(ctx, op)
	})
	step("pause", false, func() (program.State, error) { return e.svc.Pause(ctx, "ada", "away") })
	step("resume", false, func() (program.State, error) { return e.svc.Resume(ctx, "ada") })
	step("set the same day", false, func() (program.State, error) {
		return e.svc.SetDay(ctx, "ada", e.ok(e.svc.Current(ctx, "ada")).CurrentDay)
	})
	step("set another day", true, func() (program.State, error) { return e.svc.SetDay(ctx, "ada", 5) })
}
