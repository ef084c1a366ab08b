package store_test

import (
	"context"
	"testing"

	"hearth/internal/health"
	"hearth/internal/store"
	"hearth/internal/store/storetest"
)

// The body_scans rebuild (Go migration 42) keeps the rows, allows one
// figure, and leaves migration 70's unique index as it found it: present on
// a database that already had 70, absent (70 will create it) on a new one.
func TestBodyScansRebuildKeepsIndexAndRows(t *testing.T) {
	ctx := context.Background()
	for _, hadIndex := range []bool{true, false} {
		db := storetest.Open(t)
		storetest.Member(t, db, "ada")
		fat, lean := 24.5, 51.0
		if _, err := db.AddBodyScan(ctx, health.BodyScan{MemberID: "ada", BodyFatPct: &fat, LeanMassKg: &lean}); err != nil {
			t.Fatal(err)
		}
		if !hadIndex {
			if _, err := db.Write.Exec(`DROP INDEX body_scans_source_key`); err != nil {
				t.Fatal(err)
			}
		}
		if err := db.Tx(ctx, func(tx *store.Tx) error { return store.RebuildBodyScans(ctx, tx.Tx) }); err != nil {
			t.Fatal(err)
		}
		var n int
		if err := db.Read.QueryRow(`SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'body_scans_source_key'`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if (n == 1) != hadIndex {
			t.Errorf("had the index %v: %d after the rebuild", hadIndex, n)
		}
		scans, err := db.BodyScans(ctx, "ada", store.Range{})
		if err != nil || len(scans) != 1 || *scans[0].BodyFatPct != 24.5 || *scans[0].LeanMassKg != 51 {
			t.Errorf("scans after the rebuild: %+v, %v", scans, err)
		}
		if _, err := db.Write.Exec(`INSERT INTO body_scans (member_id, scanned_at, body_fat_pct, created_at) VALUES ('ada', 't', 20, 't')`); err != nil {
			t.Errorf("a scan with body fat only: %v", err)
		}
		if _, err := db.Write.Exec(`INSERT INTO body_scans (member_id, scanned_at, created_at) VALUES ('ada', 't', 't')`); err == nil {
			t.Error("a scan with neither figure was stored")
		}
	}
}
