package program_test

import (
	"context"
	"testing"

	"hearth/internal/live"
	"hearth/internal/program"
)

// At their own pace a member's today is the next undone day, never behind;
// going back to the calendar starts counting from today.
func TestOwnPace(t *testing.T) {
	e := newEnv(t, "ada")
	ctx := context.Background()
	if _, err := e.svc.Declare(ctx, "ada", "test-10", "2026-03-01", "daily"); err != nil {
		t.Fatal(err)
	}
	e.setDate("2026-03-05") // four days later, nothing done
	if td := e.today(t, "ada", "2026-03-05"); td.Behind == 0 || td.Pace != program.PaceCalendar {
		t.Fatalf("on the calendar after four idle days: %+v", td)
	}
	op, err := e.svc.PaceOp("ada", program.PaceOwn)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.Do(ctx, op); err != nil {
		t.Fatal(err)
	}
	td := e.today(t, "ada", "2026-03-05")
	if td.Pace != program.PaceOwn || td.Status != program.DayTraining || td.Day != 1 || td.ExpectedDay != 1 || td.Behind != 0 ||
		td.Item == nil || td.Item.ID != "local:t1" {
		t.Fatalf("own pace: %+v", td)
	}
	e.setDate("2026-03-09")
	if td := e.today(t, "ada", "2026-03-09"); td.Day != 1 || td.Behind != 0 || td.Status != program.DayTraining {
		t.Fatalf("own pace, days later: %+v", td)
	}
	op, _ = e.svc.PaceOp("ada", program.PaceCalendar)
	if _, err := e.svc.Do(ctx, op); err != nil {
		t.Fatal(err)
	}
	if td := e.today(t, "ada", "2026-03-09"); td.Behind != 0 || td.ExpectedDay != 1 || td.Pace != program.PaceCalendar {
		t.Fatalf("back on the calendar: %+v", td)
	}
	if _, err := e.svc.PaceOp("ada", "fast"); err == nil {
		t.Fatal("an unknown pace was accepted")
	}
}

// Restart begins the program again today from its first day, keeping the
// pattern and the pace; a change tells the member's screens.
func TestRestartAndNotify(t *testing.T) {
	e := newEnv(t, "ada")
	hub := live.NewHub()
	defer hub.Close()
	sub := hub.Subscribe(live.MemberTopic("ada"))
	defer sub.Close()
	e.svc.Notify(hub)
	ctx := context.Background()
	if _, err := e.svc.Declare(ctx, "ada", "test-10", "2026-03-01", "mon,wed,fri"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.SetDay(ctx, "ada", 6); err != nil {
		t.Fatal(err)
	}
	e.setDate("2026-03-04")
	op, err := e.svc.RestartOp(ctx, "ada")
	if err != nil {
		t.Fatal(err)
	}
	st, err := e.svc.Do(ctx, op)
	if err != nil {
		t.Fatal(err)
	}
	if st.CurrentDay != 1 || st.StartDate != "2026-03-04" || st.Pattern != "mon,wed,fri" || st.Status != program.Active {
		t.Fatalf("restarted: %+v", st)
	}
	// Restarting again the same day is the same state at day 1.
	if _, err := e.svc.SetDay(ctx, "ada", 3); err != nil {
		t.Fatal(err)
	}
	op, _ = e.svc.RestartOp(ctx, "ada")
	if st, err = e.svc.Do(ctx, op); err != nil || st.CurrentDay != 1 {
		t.Fatalf("restart twice a day: %+v %v", st, err)
	}
	hist, _ := e.svc.History(ctx, "ada")
	if len(hist) != 2 {
		t.Fatalf("history %d states, want the first run kept", len(hist))
	}
	n := 0
	for {
		select {
		case ev := <-sub.C():
			if ev.Kind == live.KindProgram {
				n++
			}
			continue
		default:
		}
		break
	}
	if n != 5 {
		t.Errorf("%d program events for 5 changes", n)
	}
}
