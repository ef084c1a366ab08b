package importer

import (
	"context"
	"database/sql"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hearth/internal/health"
	"hearth/internal/importer/importertest"
	"hearth/internal/store"
	"hearth/internal/store/storetest"
)

// newDB opens a migrated database with member "ada" and a fixed clock.
func newDB(t testing.TB) *store.DB {
	t.Helper()
	db := storetest.Open(t)
	db.Now = func() time.Time { return time.Date(2024, 2, 1, 9, 0, 0, 0, time.UTC) }
	storetest.Member(t, db, "ada")
	return db
}

// importFixture imports testdata/name for ada.
func importFixture(t *testing.T, db *store.DB, name string, opts Options) (Summary, error) {
	t.Helper()
	if opts.Member == "" {
		opts.Member = "ada"
	}
	if opts.Location == nil {
		opts.Location = berlin(t)
	}
	return ImportFile(context.Background(), db, opts, filepath.Join("testdata", name))
}

func mustImport(t *testing.T, db *store.DB, name string, opts Options) Summary {
	t.Helper()
	s, err := importFixture(t, db, name, opts)
	if err != nil {
		t.Fatalf("import %s: %v (problems %v)", name, err, s.Problems)
	}
	return s
}

func berlin(t testing.TB) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatalf("load zone: %v", err)
	}
	return loc
}

// counts returns the rows of ada's weights, meals, workouts and staged samples.
func counts(t *testing.T, db *store.DB) [4]int {
	t.Helper()
	var c [4]int
	for i, table := range []string{"weight_readings", "meals", "workouts", "import_samples"} {
		if err := db.Read.QueryRow(`SELECT count(*) FROM ` + table + ` WHERE member_id = 'ada'`).Scan(&c[i]); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

func weights(t *testing.T, db *store.DB) []health.WeightReading {
	t.Helper()
	w, err := db.Weights(context.Background(), "ada", store.Range{})
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func meals(t *testing.T, db *store.DB) []health.Meal {
	t.Helper()
	m, err := db.Meals(context.Background(), "ada", store.Range{})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func workouts(t *testing.T, db *store.DB) []health.Workout {
	t.Helper()
	w, err := db.Workouts(context.Background(), "ada", store.Range{})
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func near(a, b float64) bool { return math.Abs(a-b) < 0.001 }

func ptrNear(p *float64, want float64) bool { return p != nil && near(*p, want) }

func utc(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t.UTC()
}

func runStatus(t *testing.T, db *store.DB, id int64) (status, errMsg string) {
	t.Helper()
	var e sql.NullString
	if err := db.Read.QueryRow(`SELECT status, error FROM imports WHERE id = ?`, id).Scan(&status, &e); err != nil {
		t.Fatal(err)
	}
	return status, e.String
}

func storeMember(t *testing.T, db *store.DB, id string) {
	t.Helper()
	storetest.Member(t, db, id)
}

// bigExport writes a generated export of n records into a temp dir.
func bigExport(t testing.TB, n int) string {
	t.Helper()
	path, _ := importertest.AppleExportFile(t, n)
	return path
}

// importBytes imports data as a file called name through Import (the admin
// upload's path: any io.ReaderAt), for ada in Berlin unless opts say otherwise.
func importBytes(t *testing.T, db *store.DB, name, data string, opts Options) (Summary, error) {
	t.Helper()
	if opts.Member == "" {
		opts.Member = "ada"
	}
	if opts.Location == nil {
		opts.Location = berlin(t)
	}
	return Import(context.Background(), db, opts, name, strings.NewReader(data), int64(len(data)))
}

func mustImportBytes(t *testing.T, db *store.DB, name, data string, opts Options) Summary {
	t.Helper()
	s, err := importBytes(t, db, name, data, opts)
	if err != nil {
		t.Fatalf("import %s: %v (problems %v)", name, err, s.Problems)
	}
	return s
}
