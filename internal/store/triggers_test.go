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
