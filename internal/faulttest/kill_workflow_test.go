package faulttest

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"hearth/internal/testkit"
	"testing"
	"time"

	"hearth/internal/agent/llm/llmtest"
)

// workflowRun is what GET /api/workflow-runs/:id answers, in part.
type workflowRun struct {
	ID        int64
	Status    string
	Error     string
	AgentRuns []int64 `json:"agent_runs"`
	Steps     []struct {
		Path      string
		Status    string
		Attempts  int
		AgentRuns []int64 `json:"agent_runs"`
	}
}

func (p *proc) workflowRun(id int64) workflowRun {
	p.t.Helper()
	code, body := p.get(fmt.Sprintf("/api/workflow-runs/%d", id))
	if code != 200 {
		p.t.Fatalf("workflow run %d: %d %s", id, code, body)
	}
	var r workflowRun
	if err := json.Unmarshal([]byte(body), &r); err != nil {
		p.t.Fatal(err)
	}
	return r
}

func stepStatus(db *sql.DB, run int64, path string) (status string, attempts int) {
	_ = db.QueryRow(`SELECT status, attempts FROM workflow_steps WHERE run_id = ? AND path = ?`, run, path).Scan(&status, &attempts)
	return status, attempts
}

// TestKillDuringWorkflowStep kills the server with SIGKILL while the daily
// dashboard workflow's reason step waits on the model, restarts it (the
// heuristic coach this time) and checks that the run continues from its
// last completed step and completes: gather is not run again, reason runs a
// second time, and the killed attempt's engine run stays linked to the
// workflow run as interrupted.
func TestKillDuringWorkflowStep(t *testing.T) {
	dir := t.TempDir()
	startHearth(t, dir).stop() // the database and the demo household

	model := llmtest.New(t)
	model.Otherwise(func(llmtest.Request) llmtest.Reply { return llmtest.Reply{Hang: true} })
	p := startHearth(t, dir, "OPENAI_BASE_URL="+model.URL(), "OPENAI_API_KEY=sk-test")
	code, body := p.post("/api/workflows/daily-dashboard/runs", `{"member": "maya"}`)
	if code != 201 {
		t.Fatalf("start the workflow: %d %s", code, body)
	}
	var started workflowRun
	if err := json.Unmarshal([]byte(body), &started); err != nil {
		t.Fatal(err)
	}
	db := openDB(t, dir)
	testkit.WaitFor(t, 20*time.Second, "the reason step to reach the model", func() bool {
		st, _ := stepStatus(db, started.ID, "reason")
		return st == "running" && len(model.ChatRequests()) > 0
	})
	p.kill9()

	integrityOK(t, db)
	if st, _ := stepStatus(db, started.ID, "gather"); st != "success" {
		t.Fatalf("gather is %q after the kill, want success", st)
	}
	if n := count(t, db, `SELECT count(*) FROM workflow_runs WHERE id = ? AND status = 'running'`, started.ID); n != 1 {
		t.Fatal("the killed run is not left running")
	}
	_ = db.Close()

	again := startHearth(t, dir) // no model: the heuristic coach finishes the run
	checkContinued(t, again, dir, started.ID)
	again.stop()
}
