package program_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"hearth/internal/program"
	"hearth/internal/store"
)

// row is one program_states row as stored, for comparing before and after.
type row struct {
	Member, ProgramID, Status, Start, AnchorDate, Pattern, Note string
	AnchorDay, Day                                              int
	PausedAt, EndedAt, CreatedAt, UpdatedAt                     string
}

func (e *env) row(id int64) row {
	e.t.Helper()
	var r row
	err := e.db.Read.QueryRow(`SELECT member_id, program_id, status, start_date, anchor_date, pattern, note,
		anchor_day, current_day, COALESCE(paused_at, ''), COALESCE(ended_at, ''), created_at, updated_at
		FROM program_states WHERE id = ?`, id).Scan(&r.Member, &r.ProgramID, &r.Status, &r.Start, &r.AnchorDate,
		&r.Pattern, &r.Note, &r.AnchorDay, &r.Day, &r.PausedAt, &r.EndedAt, &r.CreatedAt, &r.UpdatedAt)
	if err != nil {
		e.t.Fatalf("row %d: %v", id, err)
	}
	return r
}

func (e *env) rows(member string) int {
	e.t.Helper()
	var n int
	if err := e.db.Read.QueryRow(`SELECT count(*) FROM program_states WHERE member_id = ?`, member).Scan(&n); err != nil {
		e.t.Fatal(err)
	}
	return n
}

// inTx runs fn in a write transaction, as the coach's act does, and
// returns whether the change applied.
func (e *env) inTx(fn func(tx *store.Tx) (bool, error)) bool {
	e.t.Helper()
	var applied bool
	err := e.db.Tx(context.Background(), func(tx *store.Tx) error {
		var err error
		applied, err = fn(tx)
		return err
	})
	if err != nil {
		e.t.Fatal(err)
	}
	return applied
}

// later is an instant after everything the test set up, so that any write
// shows in updated_at.
func (e *env) later() (time.Time, string) {
	at := e.now.Add(time.Hour)
	return at, store.FormatTime(at)
}

var testTen = program.Declaration{ProgramID: "test-10", Title: "Test Ten", StartDate: "2026-03-02", Pattern: "daily", FirstDay: 1}

func TestDeclareTx(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, "ada")
	at, ts := e.later()
	var id int64
	applied := e.inTx(func(tx *store.Tx) (bool, error) {
		var (
			ok  bool
			err error
		)
		id, ok, err = program.DeclareTx(ctx, tx, at, "ada", testTen)
		return ok, err
	})
	want := row{Member: "ada", ProgramID: "test-10", Status: "active", Start: "2026-03-02", AnchorDate: "2026-03-02",
		Pattern: "daily", AnchorDay: 1, Day: 1, CreatedAt: ts, UpdatedAt: ts}
	if got := e.row(id); !applied || got != want {
		t.Fatalf("first declare: applied=%v row=%+v, want applied and %+v", applied, got, want)
	}

	// The same program, start and pattern again: nothing changes.
	at2 := at.Add(time.Hour)
	var again int64
	applied = e.inTx(func(tx *store.Tx) (bool, error) {
		var (
			ok  bool
			err error
		)
		again, ok, err = program.DeclareTx(ctx, tx, at2, "ada", testTen)
		return ok, err
	})
	if applied || again != id || e.row(id) != want || e.rows("ada") != 1 {
		t.Fatalf("re-declare: applied=%v id=%d (want %d) row=%+v rows=%d", applied, again, id, e.row(id), e.rows("ada"))
	}

	// Another start date is another declaration; a paused program is
	// replaced too, keeping when it was paused.
	if !e.inTx(func(tx *store.Tx) (bool, error) { return program.PauseTx(ctx, tx, at, id, "travelling") }) {
		t.Fatal("pause not applied")
	}
	moved := testTen
	moved.StartDate = "2026-03-09"
	var next int64
	applied = e.inTx(func(tx *store.Tx) (bool, error) {
		var (
			ok  bool
			err error
		)
		next, ok, err = program.DeclareTx(ctx, tx, at2, "ada", moved)
		return ok, err
	})
	old := e.row(id)
	ts2 := store.FormatTime(at2)
	if !applied || next == id || old.Status != "abandoned" || old.Note != "replaced by Test Ten" || old.EndedAt != ts2 ||
		old.UpdatedAt != ts2 || old.PausedAt != ts || old.Day != 1 {
		t.Fatalf("re-declare with another start: applied=%v next=%d old=%+v", applied, next, old)
	}
	if cur := e.row(next); cur.Status != "active" || cur.Start != "2026-03-09" || cur.AnchorDate != "2026-03-09" {
		t.Fatalf("new state = %+v", cur)
	}
}

func TestDeclareTxReplacesAnotherProgram(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, "ada")
	first := e.ok(e.svc.Declare(ctx, "ada", "test-10", "2026-03-02", "daily"))
	e.ok(e.svc.Advance(ctx, "ada"))
	at, ts := e.later()
	long := strings.Repeat("Ü", 300) // 600 bytes: the note is clipped to 500
	var id int64
	applied := e.inTx(func(tx *store.Tx) (bool, error) {
		var (
			ok  bool
			err error
		)
		id, ok, err = program.DeclareTx(ctx, tx, at, "ada", program.Declaration{ProgramID: "other-2", Title: long,
			StartDate: "2026-03-03", Pattern: "mon,wed,fri", FirstDay: 2})
		return ok, err
	})
	old := e.row(first.ID)
	if !applied || old.Status != "abandoned" || old.EndedAt != ts || old.UpdatedAt != ts || old.Day != 2 || old.PausedAt != "" {
		t.Fatalf("old state = %+v (applied=%v)", old, applied)
	}
	if wantNote := ("replaced by " + long)[:500]; old.Note != wantNote {
		t.Errorf("old note has %d bytes, want the first 500: %q", len(old.Note), old.Note)
	}
	want := row{Member: "ada", ProgramID: "other-2", Status: "active", Start: "2026-03-03", AnchorDate: "2026-03-03",
		Pattern: "mon,wed,fri", AnchorDay: 1, Day: 2, CreatedAt: ts, UpdatedAt: ts}
	if got := e.row(id); got != want {
		t.Fatalf("new state = %+v, want %+v", got, want)
	}
	cur := e.ok(e.svc.Current(ctx, "ada"))
	if cur.ID != id || cur.ProgramTitle != "Other Two" {
		t.Fatalf("Current = %+v", cur)
	}
}

// TestTxGuards applies each change to the state the caller saw (applied)
// and to one that moved on since (not applied, row unchanged).
func TestTxGuards(t *testing.T) {
	ctx := context.Background()
	type setup func(e *env) program.State
	declared := func(e *env) program.State { // active at day 1
		return e.ok(e.svc.Declare(ctx, "ada", "test-10", "2026-03-02", "daily"))
	}
	advanced := func(e *env) program.State { // active at day 2
		declared(e)
		return e.ok(e.svc.Advance(ctx, "ada"))
	}
	paused := func(e *env) program.State { // paused at day 1
		declared(e)
		return e.ok(e.svc.Pause(ctx, "ada", "flu"))
	}
	completed := func(e *env) program.State {
		declared(e)
		return e.ok(e.svc.Complete(ctx, "ada"))
	}
	abandoned := func(e *env) program.State {
		declared(e)
		return e.ok(e.svc.Abandon(ctx, "ada", "too hard"))
	}
	replaced := func(e *env) program.State { // the state the run saw, replaced by another declaration
		st := declared(e)
		e.ok(e.svc.Declare(ctx, "ada", "other-2", "2026-03-02", "daily"))
		return st
	}
	type change func(tx *store.Tx, at time.Time, id int64) (bool, error)
	advance := func(tx *store.Tx, at time.Time, id int64) (bool, error) {
		return program.AdvanceTx(ctx, tx, at, id, 1, 3)
	}
	finish := func(tx *store.Tx, at time.Time, id int64) (bool, error) {
		return program.FinishTx(ctx, tx, at, id, 1, 10)
	}
	pause := func(tx *store.Tx, at time.Time, id int64) (bool, error) {
		return program.PauseTx(ctx, tx, at, id, "paused at the member's request")
	}
	resume := func(tx *store.Tx, at time.Time, id int64) (bool, error) {
		return program.ResumeTx(ctx, tx, at, id, "2026-03-05", 1)
	}
	setDay := func(tx *store.Tx, at time.Time, id int64) (bool, error) {
		return program.SetDayTx(ctx, tx, at, id, 1, 5, "2026-03-05")
	}

	for _, tc := range []struct {
		name   string
		setup  setup
		change change
		// want is how the row changes when applied (nil: not applied).
		want func(r *row, ts string)
	}{
		{"advance at the day seen", declared, advance, func(r *row, ts string) { r.Day = 3 }},
		{"advance after the day moved", advanced, advance, nil},
		{"advance while paused", paused, advance, nil},
		{"advance after replacement", replaced, advance, nil},

		{"finish at the day seen", declared, finish, func(r *row, ts string) {
			r.Status, r.Day, r.EndedAt = "completed", 10, ts
		}},
		{"finish after the day moved", advanced, finish, nil},
		{"finish while paused", paused, finish, nil},
		{"finish when completed", completed, finish, nil},

		{"pause while active", declared, pause, func(r *row, ts string) {
			r.Status, r.PausedAt, r.Note = "paused", ts, "paused at the member's request"
		}},
		{"pause while paused", paused, pause, nil},
		{"pause when completed", completed, pause, nil},
		{"pause after replacement", replaced, pause, nil},

		{"resume while paused", paused, resume, func(r *row, ts string) {
			r.Status, r.PausedAt, r.AnchorDate, r.AnchorDay = "active", "", "2026-03-05", 1
		}},
		{"resume while active", declared, resume, nil},
		{"resume when abandoned", abandoned, resume, nil},

		{"set day while active", declared, setDay, func(r *row, ts string) {
			r.Day, r.AnchorDate, r.AnchorDay = 5, "2026-03-05", 5
		}},
		{"set day while paused", paused, setDay, func(r *row, ts string) {
			r.Day, r.AnchorDate, r.AnchorDay = 5, "2026-03-05", 5
		}},
		{"set day after the day moved", advanced, setDay, nil},
		{"set day when completed", completed, setDay, nil},
		{"set day when abandoned", abandoned, setDay, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, "ada")
			e.setDate("2026-03-02")
			seen := tc.setup(e)
			before := e.row(seen.ID)
			at, ts := e.later()
			applied := e.inTx(func(tx *store.Tx) (bool, error) { return tc.change(tx, at, seen.ID) })
			want := before
			if tc.want != nil {
				tc.want(&want, ts)
				want.UpdatedAt = ts
			}
			if applied != (tc.want != nil) {
				t.Errorf("applied = %v, want %v", applied, tc.want != nil)
			}
			if got := e.row(seen.ID); got != want {
				t.Errorf("row = %+v\nwant  %+v", got, want)
			}
		})
	}
}

// TestPauseTxNote: an empty note keeps the state's note; a long one is
// clipped to 500 bytes.
func TestPauseTxNote(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, "ada")
	st := e.ok(e.svc.Declare(ctx, "ada", "test-10", "2026-03-02", "daily"))
	at, _ := e.later()
	long := strings.Repeat("x", 600)
	e.inTx(func(tx *store.Tx) (bool, error) { return program.PauseTx(ctx, tx, at, st.ID, "  "+long+"  ") })
	if got := e.row(st.ID).Note; got != long[:500] {
		t.Fatalf("note has %d bytes, want 500", len(got))
	}
	e.ok(e.svc.Resume(ctx, "ada"))
	e.inTx(func(tx *store.Tx) (bool, error) { return program.PauseTx(ctx, tx, at, st.ID, "") })
	if r := e.row(st.ID); r.Status != "paused" || r.Note != long[:500] {
		t.Fatalf("after a pause without a note: %+v", r)
	}
}
