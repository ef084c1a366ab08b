package faulttest

import (
	"database/sql"
	"hearth/internal/testkit"
	"strings"
	"testing"
	"time"
)

// TestScheduleCatchUpAfterDowntime: the daily-dashboard task's slots of the
// last three days passed while the server was down; at restart the newest
// one runs once (one run per member, from the schedule), the older ones are
// recorded as missed, and nothing runs again for them afterwards or after
// another restart.
func TestScheduleCatchUpAfterDowntime(t *testing.T) {
	dir := t.TempDir()
	first := startHearth(t, dir)
	first.stop()

	var task int64
	var members int
	day := time.Now().UTC().Truncate(24 * time.Hour)
	firstMissed := day.Add(4*time.Hour - 72*time.Hour) // 04:00 three days ago
	withDB(t, dir, func(db *sql.DB) {
		task = dailyTask(t, db)
		backdate(t, db, task, firstMissed)
		members = count(t, db, `SELECT count(*) FROM members`)
		// The demo household's first plans (trigger demo) are the only runs.
		if n := count(t, db, `SELECT count(*) FROM agent_runs WHERE triggered_by <> 'demo'`); n != 0 {
			t.Fatalf("%d runs before the catch-up", n)
		}
	})

	p := startHearth(t, dir, "HEARTH_CATCHUP=96h")
	db := openDB(t, dir)
	testkit.WaitFor(t, 30*time.Second, "the catch-up run to finish", func() bool {
		return count(t, db, `SELECT count(*) FROM task_fires WHERE task_id = ? AND via = 'catchup' AND outcome NOT IN ('running','queued')`, task) == 1
	})
	check := func(when string) {
		t.Helper()
		if n := count(t, db, `SELECT count(*) FROM task_fires WHERE task_id = ? AND via = 'catchup'`, task); n != 1 {
			t.Errorf("%s: %d catch-up fires, want exactly 1", when, n)
		}
		if n := count(t, db, `SELECT count(*) FROM task_fires WHERE task_id = ? AND via = 'catchup' AND outcome = 'ran'`, task); n != 1 {
			var outcome, reason string
			_ = db.QueryRow(`SELECT outcome, reason FROM task_fires WHERE task_id = ? AND via = 'catchup'`, task).Scan(&outcome, &reason)
			t.Errorf("%s: catch-up fire ended %q (%s), want ran", when, outcome, reason)
		}
		if n := count(t, db, `SELECT count(*) FROM agent_runs WHERE assignment_id = 'daily-dashboard' AND triggered_by = 'schedule'`); n != members {
			t.Errorf("%s: %d daily-dashboard runs, want one per member (%d)", when, n, members)
		}
		if n := count(t, db, `SELECT count(*) FROM agent_runs WHERE status NOT IN ('succeeded','fell_back')`); n != 0 {
			t.Errorf("%s: %d runs did not succeed", when, n)
		}
		if n := count(t, db, `SELECT count(*) FROM task_fires WHERE task_id = ? AND outcome = 'missed'`, task); n < 2 {
			t.Errorf("%s: %d older slots recorded as missed, want ≥ 2", when, n)
		}
	}
	check("after the catch-up")
	// Each catch-up run made the dashboard of the day it ran (household
	// time is UTC here): read from the runs, not from the test's clock, so
	// a run on the far side of midnight is judged by its own day.
	if n := count(t, db, `SELECT count(*) FROM dashboards d JOIN agent_runs r ON r.id = d.run_id
		WHERE r.triggered_by = 'schedule' AND r.assignment_id = 'daily-dashboard' AND d.day = substr(r.started_at, 1, 10)`); n != members {
		t.Errorf("%d dashboards for the day of their catch-up run, want %d", n, members)
	}
	var next string
	if err := db.QueryRow(`SELECT next_run_at FROM scheduled_tasks WHERE id = ?`, task).Scan(&next); err != nil {
		t.Fatal(err)
	}
	if next <= time.Now().UTC().Format("2006-01-02T15:04:05.000Z") {
		t.Errorf("next_run_at %s is not in the future", next)
	}
	p.stop()

	// A second restart has nothing to catch up.
	// The scheduler decides catch-up (and records a fire for any run it
	// starts) before it logs "schedule: started": after that line, a
	// wrongly repeated catch-up is in the ledger.
	again := startHearth(t, dir, "HEARTH_CATCHUP=96h")
	testkit.WaitFor(t, 10*time.Second, "the scheduler to start", func() bool { return strings.Contains(again.logs.String(), "schedule: started") })
	check("after another restart")
	again.stop()
	checkDashboards(t, db)
	integrityOK(t, db)
}
