package importer

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"hearth/internal/health"
)

// writeFile writes a test file and returns its path.
func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// A row of Hearth's own export is one stored entry: a corrected file
// updates what the last import wrote, a member's later edit is kept, and an
// entry the member deleted stays deleted.
func TestOwnExportCorrectionsAndEdits(t *testing.T) {
	db := newDB(t)
	ctx := context.Background()
	const header = "measured_at,weight_kg,body_fat_pct,lean_mass_kg,source,source_key,created_at\n"
	run := func(rows string) Summary {
		t.Helper()
		s, err := ImportFile(ctx, db, Options{Member: "ada", Location: time.UTC}, writeFile(t, "weights.csv", header+rows))
		if err != nil {
			t.Fatalf("import: %v (%v)", err, s.Problems)
		}
		if s.Profile != hearthExport {
			t.Fatalf("profile %q", s.Profile)
		}
		return s
	}
	first := run("2024-01-05T07:00:00.000Z,80.5,,,manual,,2024-01-05T07:01:00.000Z\n" +
		"2024-01-06T07:00:00.000Z,80.1,,,apple_health,4f2a,2024-02-01T00:00:00.000Z\n")
	if first.Added != 2 {
		t.Fatalf("added %d", first.Added)
	}
	fixed := run("2024-01-05T07:00:00.000Z,80.4,,,manual,,2024-01-05T07:01:00.000Z\n" +
		"2024-01-06T07:00:00.000Z,80.0,21.5,,apple_health,4f2a,2024-02-01T00:00:00.000Z\n")
	if fixed.Updated != 2 || fixed.Added != 0 {
		t.Fatalf("corrected file: updated %d added %d", fixed.Updated, fixed.Added)
	}
	w := weights(t, db)
	if len(w) != 2 || w[0].WeightKg != 80.4 || !ptrNear(w[1].BodyFatPct, 21.5) || w[0].Source != "manual" || w[1].Source != SourceApple {
		t.Fatalf("weights %+v", w)
	}
	if _, err := db.Write.Exec(`UPDATE weight_readings SET weight_kg = 79.9 WHERE source = 'manual'`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Write.Exec(`DELETE FROM weight_readings WHERE source = 'apple_health'`); err != nil {
		t.Fatal(err)
	}
	again := run("2024-01-05T07:00:00.000Z,81,,,manual,,2024-01-05T07:01:00.000Z\n" +
		"2024-01-06T07:00:00.000Z,80.0,21.5,,apple_health,4f2a,2024-02-01T00:00:00.000Z\n")
	if again.KeptEdits != 2 || again.Added+again.Updated != 0 {
		t.Fatalf("after the member's edit and delete: %+v", again)
	}
	if w := weights(t, db); len(w) != 1 || w[0].WeightKg != 79.9 {
		t.Fatalf("weights %+v", w)
	}
}

// An export from before source keys were exported is matched by source and
// time: importing it into the same member adds nothing, even for entries
// another source keyed.
func TestOwnExportWithoutSourceKeys(t *testing.T) {
	db := newDB(t)
	ctx := context.Background()
	at := time.Date(2024, 1, 6, 7, 0, 0, 0, time.UTC)
	if _, err := db.AddWeight(ctx, health.WeightReading{MemberID: "ada", MeasuredAt: at, WeightKg: 80.1, Source: SourceApple, SourceKey: "4f2a"}); err != nil {
		t.Fatal(err)
	}
	p := writeFile(t, "weights.csv", "measured_at,weight_kg,body_fat_pct,lean_mass_kg,source\n2024-01-06T07:00:00.000Z,80.1,,,apple_health\n")
	s, err := ImportFile(ctx, db, Options{Member: "ada", Location: time.UTC}, p)
	if err != nil {
		t.Fatal(err)
	}
	if s.Added != 0 || s.SkippedDuplicate != 1 || len(weights(t, db)) != 1 {
		t.Fatalf("added %d duplicate %d", s.Added, s.SkippedDuplicate)
	}
}
