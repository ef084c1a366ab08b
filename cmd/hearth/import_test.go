package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hearth/internal/health"
	"hearth/internal/household"
	"hearth/internal/store"
)

func TestImportSubcommandIsIdempotent(t *testing.T) {
	dir := t.TempDir()
	db, err := store.Open(context.Background(), filepath.Join(dir, "hearth.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.CreateMember(context.Background(), health.Member{ID: "ada", Name: "Ada"}); err != nil {
		t.Fatal(err)
	}
	_ = db.Close()
	csv := filepath.Join(dir, "weights.csv")
	if err := os.WriteFile(csv, []byte("date,weight,unit\n2026-01-01,70.5,kg\n2026-01-02,155,lb\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := func(k string) string { return map[string]string{"HEARTH_DATA": dir}[k] }
	for i, want := range []string{"added 2, updated 0, skipped as duplicate 0", "added 0, updated 0, skipped as duplicate 2"} {
		var out, errb bytes.Buffer
		if code := runImport([]string{"--member", "ada", csv}, env, &out, &errb); code != 0 {
			t.Fatalf("import %d exit %d: %s %s", i, code, out.String(), errb.String())
		}
		if !strings.Contains(out.String(), want) {
			t.Fatalf("import %d summary: %q", i, out.String())
		}
	}
	db, err = store.Open(context.Background(), filepath.Join(dir, "hearth.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ws, err := db.Weights(context.Background(), "ada", store.Range{})
	if err != nil || len(ws) != 2 {
		t.Fatalf("weights after two imports = %d, %v", len(ws), err)
	}
	var errb bytes.Buffer
	if code := runImport([]string{"--member", "nobody", csv}, env, &bytes.Buffer{}, &errb); code == 0 {
		t.Fatal("unknown member imported")
	}
}

// CSV times without an offset are in the household's zone: the one chosen
// on Admin → Household, unless HEARTH_TZ says otherwise.
func TestImportReadsTimesInTheHouseholdZone(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db, err := store.Open(ctx, filepath.Join(dir, "hearth.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.CreateMember(ctx, health.Member{ID: "ada", Name: "Ada"}); err != nil {
		t.Fatal(err)
	}
	if _, err := household.New(db, nil).SetTimeZone(ctx, "Asia/Tokyo"); err != nil {
		t.Fatal(err)
	}
	_ = db.Close()
	for i, c := range []struct {
		tz, csv string
	}{
		{"", "2026-01-02T07:00:00,70.5,kg"}, // Tokyo, UTC+9
		{"UTC", "2026-01-03T07:00:00,70.4,kg"},
	} {
		csv := filepath.Join(dir, fmt.Sprintf("w%d.csv", i))
		if err := os.WriteFile(csv, []byte("date,weight,unit\n"+c.csv+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		env := func(k string) string { return map[string]string{"HEARTH_DATA": dir, "HEARTH_TZ": c.tz}[k] }
		var out, errb bytes.Buffer
		if code := runImport([]string{"--member", "ada", csv}, env, &out, &errb); code != 0 {
			t.Fatalf("import exit %d: %s %s", code, out.String(), errb.String())
		}
	}
	db, err = store.Open(ctx, filepath.Join(dir, "hearth.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ws, err := db.Weights(ctx, "ada", store.Range{})
	if err != nil || len(ws) != 2 {
		t.Fatalf("weights %v %v", ws, err)
	}
	got := map[time.Time]bool{ws[0].MeasuredAt.UTC(): true, ws[1].MeasuredAt.UTC(): true}
	if !got[time.Date(2026, 1, 1, 22, 0, 0, 0, time.UTC)] || !got[time.Date(2026, 1, 3, 7, 0, 0, 0, time.UTC)] {
		t.Fatalf("measured at %v, want 07:00 Tokyo and 07:00 UTC (HEARTH_TZ)", got)
	}
}
