package program_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"hearth/internal/apperr"
	"hearth/internal/content"
	"hearth/internal/program"
	"hearth/internal/store"
	"hearth/internal/store/storetest"
)

// testCatalog: program "test-10" has days 1-3 training, 4 rest, 5-6
// training, 7 rest, 8-10 training (8 training days). "other-2" is short.
const testCatalog = `{
 "items": [
  {"id":"local:t1","title":"T1","program":"test-10","day":1,"duration":20,"kind":"core"},
  {"id":"local:t2","title":"T2","program":"test-10","day":2,"duration":20,"kind":"core"},
  {"id":"local:t3","title":"T3","program":"test-10","day":3,"duration":20,"kind":"core"},
  {"id":"local:t4","title":"T4","program":"test-10","day":4,"duration":20,"kind":"core"},
  {"id":"local:t5","title":"T5","program":"test-10","day":5,"duration":20,"kind":"core"},
  {"id":"local:t6","title":"T6","program":"test-10","day":6,"duration":20,"kind":"core"},
  {"id":"local:t7","title":"T7","program":"test-10","day":7,"duration":20,"kind":"core"},
  {"id":"local:t8","title":"T8","program":"test-10","day":8,"duration":30,"kind":"core"},
  {"id":"local:bike","title":"Bike","duration":30,"kind":"cardio"},
  {"id":"local:o1","title":"O1","program":"other-2","day":1,"duration":10,"kind":"yoga"}
 ],
 "programs": [
  {"id":"test-10","title":"Test Ten","days":[
   {"day":1,"content_id":"local:t1","note":"go easy"},{"day":2,"content_id":"local:t2"},{"day":3,"content_id":"local:t3"},
   {"day":4,"rest":true},{"day":5,"content_id":"local:t4"},{"day":6,"content_id":"local:t5"},{"day":7,"rest":true},
   {"day":8,"content_id":"local:t6"},{"day":9,"content_id":"local:t7"},{"day":10,"content_id":"local:t8"}]},
  {"id":"other-2","title":"Other Two","days":[{"day":1,"rest":true},{"day":2,"content_id":"local:o1"}]}
 ]
}`

// env is a program service over a real database with a settable clock.
type env struct {
	t   *testing.T
	db  *store.DB
	svc *program.Service
	now time.Time
	loc *time.Location
}

func newEnv(t *testing.T, members ...string) *env {
	t.Helper()
	db := storetest.Open(t)
	cat := content.NewCatalog(db, nil)
	if _, err := cat.ImportFile(context.Background(), strings.NewReader(testCatalog)); err != nil {
		t.Fatal(err)
	}
	for _, m := range members {
		storetest.Member(t, db, m)
	}
	loc, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	e := &env{t: t, db: db, loc: loc}
	e.setDate("2026-03-01")
	db.Now = func() time.Time { return e.now }
	e.svc = program.New(db, cat, loc)
	return e
}

// setDate moves the clock to 09:00 household time on date.
func (e *env) setDate(date string) {
	d, err := time.ParseInLocation(time.DateOnly, date, e.loc)
	if err != nil {
		panic(err)
	}
	e.now = d.Add(9 * time.Hour)
}

func (e *env) today(t *testing.T, member, date string) program.Today {
	t.Helper()
	e.setDate(date)
	td, err := e.svc.Today(context.Background(), member, e.now, e.loc)
	if err != nil {
		t.Fatalf("Today(%s): %v", date, err)
	}
	return td
}

// ok fails the test on err and returns st.
func (e *env) ok(st program.State, err error) program.State {
	e.t.Helper()
	if err != nil {
		e.t.Fatal(err)
	}
	return st
}

// ok1 fails the test on err and returns the states.
func (e *env) ok1(states []program.State, err error) []program.State {
	e.t.Helper()
	if err != nil {
		e.t.Fatal(err)
	}
	return states
}

func wantCode(t *testing.T, err error, code apperr.Code, msg string) {
	t.Helper()
	if !apperr.Is(err, code) {
		t.Fatalf("err = %v, want %s", err, code)
	}
	if msg != "" && !strings.Contains(err.Error(), msg) {
		t.Fatalf("err = %q, want it to mention %q", err, msg)
	}
}
