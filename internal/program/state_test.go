package program_test

import (
	"context"
	"testing"

	"hearth/internal/apperr"
	"hearth/internal/program"
)

func TestAdvanceToCompletion(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, "ada")
	e.setDate("2026-03-02")
	e.ok(e.svc.Declare(ctx, "ada", "test-10", "2026-03-02", "daily"))
	st := e.ok(e.svc.SetDay(ctx, "ada", 7)) // a rest day: moves on to day 8
	if st.CurrentDay != 8 || st.AnchorDate != "2026-03-02" || st.AnchorDay != 8 {
		t.Fatalf("SetDay(7) = %+v", st)
	}
	if td := e.today(t, "ada", "2026-03-02"); td.Status != program.DayTraining || td.ExpectedDay != 8 || td.Behind != 0 {
		t.Errorf("after SetDay: %+v", td)
	}
	if st = e.ok(e.svc.Advance(ctx, "ada")); st.CurrentDay != 9 || st.Status != program.Active {
		t.Fatalf("advance = %+v", st)
	}
	e.ok(e.svc.Advance(ctx, "ada"))
	st = e.ok(e.svc.Advance(ctx, "ada"))
	if st.Status != program.Completed || st.EndedAt == nil || st.CurrentDay != 10 {
		t.Fatalf("after the last day = %+v", st)
	}
	td := e.today(t, "ada", "2026-03-05")
	if td.Status != program.DayCompleted || td.Item != nil {
		t.Errorf("Today after completion = %+v", td)
	}
	cur := e.ok(e.svc.Current(ctx, "ada"))
	if cur.Status != program.Completed {
		t.Errorf("Current = %+v", cur)
	}
}

func TestInvalidTransitions(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, "ada", "bob")
	e.setDate("2026-03-02")

	_, err := e.svc.Current(ctx, "ada")
	wantCode(t, err, apperr.NotFound, "no current program")
	_, err = e.svc.Today(ctx, "ada", e.now, e.loc)
	wantCode(t, err, apperr.NotFound, "no current program")
	_, err = e.svc.Advance(ctx, "ada")
	wantCode(t, err, apperr.NotFound, "no current program")

	_, err = e.svc.Declare(ctx, "ada", "no-such-program", "2026-03-02", "daily")
	wantCode(t, err, apperr.Invalid, `no program "no-such-program"`)
	_, err = e.svc.Declare(ctx, "ada", "test-10", "next monday", "daily")
	wantCode(t, err, apperr.Invalid, "YYYY-MM-DD")
	_, err = e.svc.Declare(ctx, "ada", "test-10", "2028-03-02", "daily")
	wantCode(t, err, apperr.Invalid, "more than a year")
	_, err = e.svc.Declare(ctx, "ada", "test-10", "2026-03-02", "mon,funday")
	wantCode(t, err, apperr.Invalid, `"funday" is not a weekday`)
	_, err = e.svc.Declare(ctx, "nobody", "test-10", "2026-03-02", "daily")
	wantCode(t, err, apperr.NotFound, "")

	e.ok(e.svc.Declare(ctx, "ada", "test-10", "2026-03-02", "daily"))
	_, err = e.svc.Resume(ctx, "ada")
	wantCode(t, err, apperr.Invalid, "not paused")
	_, err = e.svc.SetDay(ctx, "ada", 11)
	wantCode(t, err, apperr.Invalid, "days 1 to 10, not 11")

	e.ok(e.svc.Pause(ctx, "ada", ""))
	_, err = e.svc.Pause(ctx, "ada", "")
	wantCode(t, err, apperr.Invalid, "paused; resume it first")
	_, err = e.svc.Advance(ctx, "ada")
	wantCode(t, err, apperr.Invalid, "paused; resume it first")

	st := e.ok(e.svc.Complete(ctx, "ada"))
	if st.Status != program.Completed || st.PausedAt != nil {
		t.Fatalf("complete = %+v", st)
	}
	for name, op := range map[string]func() (program.State, error){
		"advance":  func() (program.State, error) { return e.svc.Advance(ctx, "ada") },
		"complete": func() (program.State, error) { return e.svc.Complete(ctx, "ada") },
		"pause":    func() (program.State, error) { return e.svc.Pause(ctx, "ada", "") },
		"abandon":  func() (program.State, error) { return e.svc.Abandon(ctx, "ada", "") },
		"resume":   func() (program.State, error) { return e.svc.Resume(ctx, "ada") },
		"set day":  func() (program.State, error) { return e.svc.SetDay(ctx, "ada", 2) },
		"substitute": func() (program.State, error) {
			return e.svc.RecordSubstitution(ctx, "ada", 1, "", "local:bike", "")
		},
	} {
		_, err := op()
		if !apperr.Is(err, apperr.Invalid) {
			t.Errorf("%s on a completed program: err = %v, want Invalid", name, err)
		}
	}

	e.ok(e.svc.Declare(ctx, "bob", "test-10", "2026-03-02", "daily"))
	st = e.ok(e.svc.Abandon(ctx, "bob", "too hard"))
	if st.Status != program.Abandoned || st.Note != "too hard" || st.EndedAt == nil {
		t.Fatalf("abandon = %+v", st)
	}
	_, err = e.svc.Current(ctx, "bob")
	wantCode(t, err, apperr.NotFound, "")
	_, err = e.svc.Resume(ctx, "bob")
	wantCode(t, err, apperr.NotFound, "")
}

func TestDeclareReplacesAndIsIdempotent(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, "ada")
	e.setDate("2026-03-02")
	first := e.ok(e.svc.Declare(ctx, "ada", "test-10", "2026-03-02", "daily"))
	e.ok(e.svc.Advance(ctx, "ada"))
	again := e.ok(e.svc.Declare(ctx, "ada", "test-10", "2026-03-02", "every day"))
	if again.ID != first.ID || again.CurrentDay != 2 {
		t.Fatalf("re-declare = %+v, want the existing state (id %d, day 2)", again, first.ID)
	}
	other := e.ok(e.svc.Declare(ctx, "ada", "other-2", "2026-03-09", "weekdays"))
	if other.ID == first.ID || other.Status != program.Active || other.Pattern != "mon,tue,wed,thu,fri" || other.StartsInDays != 7 {
		t.Fatalf("new program = %+v", other)
	}
	hist := e.ok1(e.svc.History(ctx, "ada"))
	if len(hist) != 2 || hist[0].ID != other.ID || hist[1].Status != program.Abandoned || hist[1].Note != "replaced by Other Two" {
		t.Fatalf("history = %+v", hist)
	}
	// After completing, declaring anew keeps the completed run in history.
	e.ok(e.svc.Complete(ctx, "ada"))
	e.ok(e.svc.Declare(ctx, "ada", "test-10", "2026-03-02", "daily"))
	hist = e.ok1(e.svc.History(ctx, "ada"))
	if len(hist) != 3 || hist[1].Status != program.Completed || hist[0].Status != program.Active {
		t.Fatalf("history = %+v", hist)
	}
}

func TestRecordSubstitution(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, "ada")
	e.setDate("2026-03-03")
	e.ok(e.svc.Declare(ctx, "ada", "test-10", "2026-03-02", "daily"))
	st := e.ok(e.svc.RecordSubstitution(ctx, "ada", 2, "", "local:bike", "knee sore"))
	if len(st.Substitutions) != 1 {
		t.Fatalf("subs = %+v", st.Substitutions)
	}
	sub := st.Substitutions[0]
	if sub.Day != 2 || sub.Original != "local:t2" || sub.Actual != "local:bike" || sub.Reason != "knee sore" || !sub.At.Equal(e.now) {
		t.Errorf("sub = %+v", sub)
	}
	if st.CurrentDay != 1 {
		t.Errorf("a substitution advanced the program: day %d", st.CurrentDay)
	}
	e.ok(e.svc.RecordSubstitution(ctx, "ada", 3, "local:t3", "30-min bike ride outside", ""))
	e.ok(e.svc.RecordSubstitution(ctx, "ada", 4, "", "easy walk", "rest day anyway"))

	_, err := e.svc.RecordSubstitution(ctx, "ada", 2, "", "local:ghost", "")
	wantCode(t, err, apperr.Invalid, `"local:ghost" is not in the catalog`)
	_, err = e.svc.RecordSubstitution(ctx, "ada", 2, "local:t5", "local:bike", "")
	wantCode(t, err, apperr.Invalid, `day 2 of Test Ten is "local:t2", not "local:t5"`)
	_, err = e.svc.RecordSubstitution(ctx, "ada", 4, "local:t5", "local:bike", "")
	wantCode(t, err, apperr.Invalid, "rest day")
	_, err = e.svc.RecordSubstitution(ctx, "ada", 0, "", "local:bike", "")
	wantCode(t, err, apperr.Invalid, "not 0")
	_, err = e.svc.RecordSubstitution(ctx, "ada", 1, "", "  ", "")
	wantCode(t, err, apperr.Invalid, "needs what was done")

	cur := e.ok(e.svc.Current(ctx, "ada"))
	if len(cur.Substitutions) != 3 || cur.Substitutions[1].Actual != "30-min bike ride outside" || cur.Substitutions[2].Original != "" {
		t.Errorf("stored subs = %+v", cur.Substitutions)
	}
}

func TestParsePattern(t *testing.T) {
	for in, want := range map[string]string{
		"":                            "daily",
		"Daily":                       "daily",
		"weekdays":                    "mon,tue,wed,thu,fri",
		"weekends":                    "sat,sun",
		"mon,tue,thu,fri,sat":         "mon,tue,thu,fri,sat",
		"Sunday Monday":               "mon,sun",
		"fri/wed/mon":                 "mon,wed,fri",
		"tues, thurs":                 "tue,thu",
		"mon,tue,wed,thu,fri,sat,sun": "daily",
	} {
		p, err := program.ParsePattern(in)
		if err != nil || p.String() != want {
			t.Errorf("ParsePattern(%q) = %q, %v; want %q", in, p.String(), err, want)
		}
	}
	for _, bad := range []string{"mo", "funday", ",,", "mon,xyz"} {
		if _, err := program.ParsePattern(bad); !apperr.Is(err, apperr.Invalid) {
			t.Errorf("ParsePattern(%q) err = %v", bad, err)
		}
	}
}
