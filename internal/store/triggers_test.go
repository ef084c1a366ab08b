package store_test

import (
	"context"
	"testing"

	"hearth/internal/store/storetest"
)

// After migration 28 a run may be triggered by "demo" (the demo household's
// first plans), and the rows and references around agent_runs are intact.
func TestAgentRunsAcceptTheDemoTrigger(t *testing.T) {
	db := storetest.Open(t)
	storetest.Member(t, db, "ada")
	ctx := context.Background()
	insert := func(trigger string) error {
		_, err := db.Write.ExecContext(ctx, `INSERT INTO agent_runs (agent_id, assignment_id, member_id, triggered_by, status, created_at)
			VALUES ('health-coach', 'daily-dashboard', 'ada', ?, 'succeeded', '2026-03-01T07:30:00.000Z')`, trigger)
		return err
	}
	if err := insert("demo"); err != nil {
		t.Fatalf("a demo run: %v", err)
	}
	if err := insert("bogus"); err == nil {
		t.Fatal("the CHECK no longer refuses an unknown trigger")
	}
	var ok string
	if err := db.Read.QueryRowContext(ctx, `PRAGMA integrity_check`).Scan(&ok); err != nil || ok != "ok" {
		t.Fatalf("integrity: %q %v", ok, err)
	}
	var fk int
	if err := db.Read.QueryRowContext(ctx, `SELECT count(*) FROM pragma_foreign_key_check`).Scan(&fk); err != nil || fk != 0 {
		t.Fatalf("foreign keys: %d %v", fk, err)
	}
}

// After migrations 93 and 128 a workflow run may be triggered by "demo"
// and keeps its origin; its steps stay linked.
func TestWorkflowRunsAcceptTheDemoTriggerAndAnOrigin(t *testing.T) {
	db := storetest.Open(t)
	storetest.Member(t, db, "ada")
	ctx := context.Background()
	insert := func(trigger string) (int64, error) {
		res, err := db.Write.ExecContext(ctx, `INSERT INTO workflow_runs (workflow_id, version, member_id, status, triggered_by,
			input, origin, created_at, updated_at) VALUES ('daily-dashboard', 'v', 'ada', 'running', ?, '{}', 'task:3',
			'2026-03-01T07:30:00.000Z', '2026-03-01T07:30:00.000Z')`, trigger)
		if err != nil {
			return 0, err
		}
		return res.LastInsertId()
	}
	id, err := insert("demo")
	if err != nil {
		t.Fatalf("a demo run: %v", err)
	}
	if _, err := insert("bogus"); err == nil {
		t.Fatal("the CHECK no longer refuses an unknown trigger")
	}
	if _, err := db.Write.ExecContext(ctx, `INSERT INTO workflow_steps (run_id, path, step_id, seq, status, input, started_at)
		VALUES (?, 'gather', 'gather', 1, 'success', '{}', '2026-03-01T07:30:00.000Z')`, id); err != nil {
		t.Fatal(err)
	}
	var origin string
	var steps int
	if err := db.Read.QueryRowContext(ctx, `SELECT origin, (SELECT count(*) FROM workflow_steps WHERE run_id = r.id)
		FROM workflow_runs r WHERE id = ?`, id).Scan(&origin, &steps); err != nil || origin != "task:3" || steps != 1 {
		t.Fatalf("origin %q, %d steps: %v", origin, steps, err)
	}
	var fk int
	if err := db.Read.QueryRowContext(ctx, `SELECT count(*) FROM pragma_foreign_key_check`).Scan(&fk); err != nil || fk != 0 {
		t.Fatalf("foreign keys: %d %v", fk, err)
	}
}
