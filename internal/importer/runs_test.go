package importer

import (
	"context"
	"errors"
	"strings"
	"testing"

	"hearth/internal/apperr"
)

func TestImportUnknownMember(t *testing.T) {
	db := newDB(t)
	_, err := importFixture(t, db, "weight.csv", Options{Member: "zed"})
	if !apperr.Is(err, apperr.NotFound) || !strings.Contains(err.Error(), `"zed"`) {
		t.Errorf("err = %v, want not found naming the member", err)
	}
	if _, err := importFixture(t, db, "weight.csv", Options{Member: "ada", Kind: "pdf"}); !apperr.Is(err, apperr.Invalid) {
		t.Errorf("bad kind: %v", err)
	}
	var n int
	if err := db.Read.QueryRow(`SELECT count(*) FROM imports`).Scan(&n); err != nil || n != 0 {
		t.Errorf("imports rows = %d (%v), want none for refused calls", n, err)
	}
}

func TestRunsHistory(t *testing.T) {
	db := newDB(t)
	storeMember(t, db, "ben")
	good := mustImport(t, db, "weight.csv", Options{})
	bad, _ := importFixture(t, db, "weight_bad_row.csv", Options{Strict: true})
	mustImport(t, db, "workouts.csv", Options{Member: "ben"})

	runs, err := ListRuns(t.Context(), db, "ada", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 2 {
		t.Fatalf("got %d runs for ada", len(runs))
	}
	byID := map[int64]Run{runs[0].ID: runs[0], runs[1].ID: runs[1]}
	if r := byID[good.ImportID]; r.Status != StatusComplete || r.Kind != KindCSVWeight || r.Added != 3 || r.Error != "" {
		t.Errorf("good run = %+v", r)
	}
	r := byID[bad.ImportID]
	if r.Status != StatusFailed || r.Rejected != 2 || r.Added != 0 || !strings.Contains(r.Error, "line 3") ||
		r.Summary == nil || len(r.Summary.Problems) != 2 {
		t.Errorf("failed run = %+v", r)
	}
	all, err := ListRuns(t.Context(), db, "", 10)
	if err != nil || len(all) != 3 {
		t.Errorf("all runs = %d, %v", len(all), err)
	}
	if _, err := GetRun(t.Context(), db, 999); !apperr.Is(err, apperr.NotFound) {
		t.Errorf("GetRun(999) = %v", err)
	}
}

// A crash leaves the 'running' row committed before the data transaction;
// the next start marks it interrupted. Completed rows are left alone.
func TestMarkInterrupted(t *testing.T) {
	db := newDB(t)
	done := mustImport(t, db, "weight.csv", Options{})
	id, err := beginRun(t.Context(), db, "ada", "export.zip", KindAuto)
	if err != nil {
		t.Fatal(err)
	}
	n, err := MarkInterrupted(t.Context(), db)
	if err != nil || n != 1 {
		t.Fatalf("MarkInterrupted = %d, %v", n, err)
	}
	if st, msg := runStatus(t, db, id); st != StatusInterrupted || !strings.Contains(msg, "nothing was imported") {
		t.Errorf("crashed run %s %q", st, msg)
	}
	if st, _ := runStatus(t, db, done.ImportID); st != StatusComplete {
		t.Errorf("finished run became %s", st)
	}
}

// Cancelling mid-file rolls the whole file back and records the failure.
func TestImportCancelled(t *testing.T) {
	db := newDB(t)
	ctx, cancel := context.WithCancel(t.Context())
	s, err := ImportFile(ctx, db, Options{Member: "ada", Progress: func(p Progress) {
		if p.Records > 0 {
			cancel()
		}
	}}, bigExport(t, 20_000))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if c := counts(t, db); c != [4]int{} {
		t.Errorf("rows kept after cancel: %v", c)
	}
	if st, _ := runStatus(t, db, s.ImportID); st != StatusFailed {
		t.Errorf("status %s", st)
	}
}
