package store_test

import (
	"context"
	"path/filepath"
	"testing"

	"hearth/internal/store"
	"hearth/internal/store/storetest"
)

// A database written before package text existed holds control characters
// (a "\r" in a meal name forged live-stream events): opening it with this
// binary repairs them once, through the repair_text migration.
func TestOpenRepairsStoredControlCharacters(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := store.Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	storetest.Member(t, db, "maya")
	for _, q := range []string{
		"INSERT INTO meals (member_id, eaten_at, name, calories, created_at) VALUES ('maya', '2026-01-01T08:00:00.000Z', 'Oats\r\revent: datastar-patch-signals\rdata: signals {pwned: 1}\r', 300, '2026-01-01T08:00:00.000Z')",
		"INSERT INTO meals (member_id, eaten_at, name, calories, created_at) VALUES ('maya', '2026-01-01T09:00:00.000Z', 'Tea' || char(27) || '[31m' || char(0) || 'x', 5, '2026-01-01T09:00:00.000Z')",
		"INSERT INTO meals (member_id, eaten_at, name, calories, created_at) VALUES ('maya', '2026-01-01T10:00:00.000Z', 'Soup' || char(8232) || 'ok', 5, '2026-01-01T10:00:00.000Z')",
		"UPDATE members SET name = 'Maya' || char(133) WHERE id = 'maya'",
		// Pretend the repair never ran, as on a database from an older binary.
		"DELETE FROM goose_db_version WHERE version_id = 9",
	} {
		if _, err := db.Write.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	bad, err := store.FindBadText(ctx, db.Read)
	if err != nil || len(bad) != 3 {
		t.Fatalf("before repair: %d bad values (%v), want 3: %+v", len(bad), err, bad)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	db, err = store.Open(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if bad, err := store.FindBadText(ctx, db.Read); err != nil || len(bad) != 0 {
		t.Fatalf("after repair: %v %+v", err, bad)
	}
	names := map[string]bool{}
	rows, err := db.Read.Query("SELECT name FROM meals ORDER BY eaten_at")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		names[n] = true
	}
	rows.Close()
	for _, want := range []string{"Oats\n\nevent: datastar-patch-signals\ndata: signals {pwned: 1}\n", "Tea[31mx", "Soup\u2028ok"} {
		if !names[want] {
			t.Errorf("missing repaired meal %q in %v", want, names)
		}
	}
	m, err := db.Member(ctx, "maya")
	if err != nil || m.Name != "Maya" {
		t.Fatalf("member name %q, %v", m.Name, err)
	}
}
