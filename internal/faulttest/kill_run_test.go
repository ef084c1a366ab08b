package faulttest

import (
	"bytes"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hearth/internal/testkit"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"hearth/internal/agent/llm/llmtest"
	"hearth/internal/dashboard"
	"hearth/internal/store"
)

// dailyTask is the default daily-dashboard task's id.
func dailyTask(t *testing.T, db *sql.DB) int64 {
	t.Helper()
	var id int64
	err := db.QueryRow(`SELECT id FROM scheduled_tasks WHERE agent_id = 'health-coach'
		AND assignment_id = 'daily-dashboard' AND kind = 'recurring' ORDER BY id LIMIT 1`).Scan(&id)
	if err != nil {
		t.Fatalf("default daily-dashboard task: %v", err)
	}
	return id
}

// backdate moves a task's next slot into the past, as if the server had
// been down when it should have fired.
func backdate(t *testing.T, db *sql.DB, task int64, slot time.Time) {
	t.Helper()
	if _, err := db.Exec(`UPDATE scheduled_tasks SET next_run_at = ?, status = 'active', status_reason = '' WHERE id = ?`,
		store.FormatTime(slot), task); err != nil {
		t.Fatal(err)
	}
}

// checkDashboards fails unless every stored document is whole: valid JSON
// that passes the document schema. It returns a digest of all of them.
func checkDashboards(t *testing.T, db *sql.DB) string {
	t.Helper()
	raw, err := json.Marshal(dashboard.SchemaMap())
	if err != nil {
		t.Fatal(err)
	}
	schemaDoc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("dashboard.json", schemaDoc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("dashboard.json")
	if err != nil {
		t.Fatal(err)
	}
	rows, err := db.Query(`SELECT member_id, day, document FROM dashboards ORDER BY member_id, day`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	h := sha256.New()
	for rows.Next() {
		var m, day, doc string
		if err := rows.Scan(&m, &day, &doc); err != nil {
			t.Fatal(err)
		}
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(doc)))
		if err != nil {
			t.Fatalf("dashboard %s %s is not JSON: %v", m, day, err)
		}
		if err := sch.Validate(inst); err != nil {
			t.Fatalf("dashboard %s %s is not a whole document: %v", m, day, err)
		}
		fmt.Fprintf(h, "%s|%s|%s\n", m, day, doc)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// TestKillDuringRun kills the server with SIGKILL while the coach's daily
// run waits on a model that never answers, restarts it and checks the
// database: intact, the killed runs wrote nothing and are marked
// interrupted, and the daily dashboard, a workflow wherever it starts,
// continues in a new attempt that completes, leaving no run open and the
// dashboards whole. The run is started two ways: by the admin API (open to
// loopback without a password) and by the scheduler's catch-up of a slot
// missed while the server was down (then the ledger row must be marked
// interrupted too).
func TestKillDuringRun(t *testing.T) {
	for _, trigger := range []string{"admin API", "schedule catch-up"} {
		t.Run(trigger, func(t *testing.T) {
			dir := t.TempDir()
			first := startHearth(t, dir) // creates the database, the demo household and the default schedules
			first.stop()

			var before string
			var task int64
			withDB(t, dir, func(db *sql.DB) {
				task = dailyTask(t, db)
				if trigger == "schedule catch-up" {
					backdate(t, db, task, time.Now().Add(-time.Hour))
				}
				before = checkDashboards(t, db)
			})

			model := llmtest.New(t)
			model.Otherwise(func(llmtest.Request) llmtest.Reply { return llmtest.Reply{Hang: true} })
			p := startHearth(t, dir, "OPENAI_BASE_URL="+model.URL(), "OPENAI_API_KEY=sk-test")
			if trigger == "admin API" {
				code, body := p.post("/api/agents/health-coach/assignments/daily-dashboard/run", `{"all": true}`)
				if code != 202 {
					t.Fatalf("start the run: %d %s", code, body)
				}
			}
			db := openDB(t, dir)
			testkit.WaitFor(t, 20*time.Second, "the run to reach the model", func() bool {
				return len(model.ChatRequests()) > 0 &&
					count(t, db, `SELECT count(*) FROM agent_runs WHERE status = 'running'`) > 0
			})
			running := count(t, db, `SELECT count(*) FROM agent_runs WHERE status IN ('running','queued')`)
			t.Logf("killing hearth with %d runs in flight and %d model requests hanging", running, len(model.ChatRequests()))
			p.kill9()

			integrityOK(t, db)
			if n := count(t, db, `SELECT count(*) FROM agent_runs WHERE status IN ('running','queued')`); n != running {
				t.Fatalf("after the kill %d runs are open, want the %d that were in flight", n, running)
			}
			if after := checkDashboards(t, db); after != before {
				t.Error("the killed run changed the stored dashboards")
			}
			_ = db.Close()

			again := startHearth(t, dir) // no model this time: the heuristic coach finishes the workflows
			db = openDB(t, dir)
			testkit.WaitFor(t, 30*time.Second, "the continued workflow runs to end", func() bool {
				return count(t, db, `SELECT count(*) FROM workflow_runs WHERE status = 'running'`) == 0
			})
			_ = db.Close()
			withDB(t, dir, func(db *sql.DB) {
				integrityOK(t, db)
				if n := count(t, db, `SELECT count(*) FROM agent_runs WHERE status IN ('running','queued')`); n != 0 {
					t.Errorf("%d runs still open after restart", n)
				}
				if n := count(t, db, `SELECT count(*) FROM agent_runs WHERE status = 'interrupted'`); n != running {
					t.Errorf("%d runs marked interrupted, want %d", n, running)
				}
				if trigger == "schedule catch-up" {
					if n := count(t, db, `SELECT count(*) FROM task_fires WHERE task_id = ? AND outcome = 'interrupted'`, task); n != 1 {
						t.Errorf("ledger: %d interrupted fires for the daily task, want 1", n)
					}
				}
				if n := count(t, db, `SELECT count(*) FROM task_fires WHERE outcome IN ('running','queued')`); n != 0 {
					t.Errorf("ledger: %d fires still open", n)
				}
				if n := count(t, db, `SELECT count(*) FROM workflow_runs WHERE status <> 'success' AND triggered_by <> 'demo'`); n != 0 {
					t.Errorf("%d continued workflow runs did not succeed", n)
				}
				checkDashboards(t, db)
			})
			if code, _ := again.get("/m/maya"); code != 200 {
				t.Errorf("dashboard after restart: %d", code)
			}
			again.stop()
			withDB(t, dir, func(db *sql.DB) { integrityOK(t, db) })
		})
	}
}
