package export_test

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hearth/internal/export"
	"hearth/internal/health"
	"hearth/internal/importer"
	"hearth/internal/store"
	"hearth/internal/store/storetest"
)

func ptr(f float64) *float64 { return &f }
func iptr(i int) *int        { return &i }

// fill gives ada entries with awkward values: many decimals, optional
// fields set and unset, names a spreadsheet would run as formulas.
func fill(t *testing.T, db *store.DB) {
	t.Helper()
	ctx := context.Background()
	at := time.Date(2026, 2, 1, 7, 31, 12, 345_000_000, time.UTC)
	for i, w := range []health.WeightReading{
		{WeightKg: 63.502931800000006, BodyFatPct: ptr(21.37), LeanMassKg: ptr(49.912345678)},
		{WeightKg: 70.1},
		{WeightKg: 0.1 + 0.2, BodyFatPct: ptr(1e-3)},
	} {
		w.MemberID, w.MeasuredAt = "ada", at.Add(time.Duration(i)*time.Hour)
		if _, err := db.AddWeight(ctx, w); err != nil {
			t.Fatal(err)
		}
	}
	for i, m := range []health.Meal{
		{Name: "=HYPERLINK(\"http://x\")", Calories: 512.25, ProteinG: 31.125, CarbsG: 60, FatG: 12.3333333333},
		{Name: "-5 kcal snack, with \"quotes\"", Calories: 0},
		{Name: "@porridge\nwith a newline", Calories: 350.5, ProteinG: 12},
		{Name: "Plain lunch", Calories: 700},
	} {
		m.MemberID, m.EatenAt = "ada", at.Add(time.Duration(i)*time.Minute)
		if _, err := db.AddMeal(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	for i, w := range []health.Workout{
		{Type: "run", Title: "+Morning run", DurationMin: 31.5, AvgHR: iptr(141), MaxHR: iptr(177), EnergyKcal: ptr(402.75), DistanceKm: ptr(5.27)},
		{Type: "strength", Title: "Core day 3", DurationMin: 45, ContentID: "local:ember-core-03"},
	} {
		w.MemberID, w.StartedAt = "ada", at.Add(time.Duration(i)*24*time.Hour)
		if _, err := db.AddWorkout(ctx, w); err != nil {
			t.Fatal(err)
		}
	}
	for i, s := range []health.BodyScan{
		{BodyFatPct: ptr(22.123456), LeanMassKg: ptr(50.0000001), FatMassKg: ptr(14.2), BoneMassKg: ptr(2.9), VisceralFat: ptr(7)},
		{BodyFatPct: ptr(21.9), LeanMassKg: ptr(50.4)},
	} {
		s.MemberID, s.ScannedAt = "ada", at.Add(time.Duration(i)*7*24*time.Hour)
		if _, err := db.AddBodyScan(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
}

func unzip(t *testing.T, b []byte) map[string][]byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		out[f.Name], _ = io.ReadAll(rc)
		_ = rc.Close()
	}
	return out
}

// rows renders the member's stored records without ids and provenance.
func rows(t *testing.T, db *store.DB, member string) map[string][]string {
	t.Helper()
	ctx := context.Background()
	out := map[string][]string{}
	ws, _ := db.Weights(ctx, member, store.Range{})
	for _, w := range ws {
		out["weights"] = append(out["weights"], fmt.Sprintf("%s %v %v %v", w.MeasuredAt.Format(time.RFC3339Nano), w.WeightKg, deref(w.BodyFatPct), deref(w.LeanMassKg)))
	}
	ms, _ := db.Meals(ctx, member, store.Range{})
	for _, m := range ms {
		out["meals"] = append(out["meals"], fmt.Sprintf("%s %q %v %v %v %v", m.EatenAt.Format(time.RFC3339Nano), m.Name, m.Calories, m.ProteinG, m.CarbsG, m.FatG))
	}
	wos, _ := db.Workouts(ctx, member, store.Range{})
	for _, w := range wos {
		out["workouts"] = append(out["workouts"], fmt.Sprintf("%s %s %q %v %v %v %v %v %q", w.StartedAt.Format(time.RFC3339Nano), w.Type, w.Title, w.DurationMin,
			ideref(w.AvgHR), ideref(w.MaxHR), deref(w.EnergyKcal), deref(w.DistanceKm), w.ContentID))
	}
	ss, _ := db.BodyScans(ctx, member, store.Range{})
	for _, s := range ss {
		out["scans"] = append(out["scans"], fmt.Sprintf("%s %v %v %v %v %v", s.ScannedAt.Format(time.RFC3339Nano), deref(s.BodyFatPct), deref(s.LeanMassKg),
			deref(s.FatMassKg), deref(s.BoneMassKg), deref(s.VisceralFat)))
	}
	return out
}

func deref(f *float64) any {
	if f == nil {
		return "-"
	}
	return *f
}

func ideref(i *int) any {
	if i == nil {
		return "-"
	}
	return *i
}

// Export → re-import through Hearth's own importer equals the original,
// and importing the same files again adds nothing.
func TestExportReimportRoundTrip(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	storetest.Member(t, db, "ada")
	storetest.Member(t, db, "bob")
	fill(t, db)
	var buf bytes.Buffer
	if err := export.Member(ctx, db, t.TempDir(), "ada", time.Now(), &buf); err != nil {
		t.Fatal(err)
	}
	files := unzip(t, buf.Bytes())
	for _, f := range append(export.Files(), "member.json") {
		if _, ok := files[f]; !ok {
			t.Errorf("export lacks %s", f)
		}
	}
	dir := t.TempDir()
	for _, f := range []string{"weights.csv", "meals.csv", "workouts.csv", "body_scans.csv"} {
		p := filepath.Join(dir, f)
		if err := os.WriteFile(p, files[f], 0o600); err != nil {
			t.Fatal(err)
		}
		for round := range 2 {
			sum, err := importer.ImportFile(ctx, db, importer.Options{Member: "bob", Kind: importer.KindAuto, Location: time.UTC}, p)
			if err != nil {
				t.Fatalf("re-import %s: %v (%+v)", f, err, sum.Problems)
			}
			if round == 1 && sum.Added != 0 {
				t.Errorf("importing %s again added %d", f, sum.Added)
			}
		}
	}
	want, got := rows(t, db, "ada"), rows(t, db, "bob")
	// Names are single-line in Hearth; a line break stored by an older
	// version (the "@porridge" meal, written straight to the database)
	// leaves the export as a quoted cell and comes back as a space.
	for i, m := range want["meals"] {
		want["meals"][i] = strings.ReplaceAll(m, `\n`, " ")
	}
	for _, k := range []string{"weights", "meals", "workouts", "scans"} {
		if len(want[k]) == 0 {
			t.Fatalf("no %s to compare", k)
		}
		if strings.Join(want[k], "\n") != strings.Join(got[k], "\n") {
			t.Errorf("%s differ after the round trip:\nwant %q\n got %q", k, want[k], got[k])
		}
	}
}

// Formula-like text is neutralised in every CSV; units are in the headers;
// member.json holds the same rows.
func TestExportNeutralisesFormulasAndStatesUnits(t *testing.T) {
	db := storetest.Open(t)
	storetest.Member(t, db, "ada")
	fill(t, db)
	var buf bytes.Buffer
	if err := export.Member(context.Background(), db, t.TempDir(), "ada", time.Now(), &buf); err != nil {
		t.Fatal(err)
	}
	files := unzip(t, buf.Bytes())
	for _, f := range export.Files() {
		recs, err := csv.NewReader(bytes.NewReader(files[f])).ReadAll()
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, rec := range recs[1:] {
			for _, c := range rec {
				if c != "" && strings.ContainsRune("=+-@", rune(c[0])) {
					t.Errorf("%s: cell %q would run as a formula", f, c)
				}
			}
		}
	}
	meals, _ := csv.NewReader(bytes.NewReader(files["meals.csv"])).ReadAll()
	if strings.Join(meals[0], ",") != "eaten_at,name,energy_kcal,protein_g,carbs_g,fat_g,source,source_key,created_at" {
		t.Errorf("meals header %v", meals[0])
	}
	if meals[1][1] != `'=HYPERLINK("http://x")` {
		t.Errorf("formula cell = %q", meals[1][1])
	}
	var doc map[string]any
	if err := json.Unmarshal(files["member.json"], &doc); err != nil {
		t.Fatal(err)
	}
	if ws, _ := doc["weights"].([]any); len(ws) != 3 {
		t.Errorf("member.json weights = %v", doc["weights"])
	}
	if doc["units"].(map[string]any)["weight_kg"] != "kg" {
		t.Error("member.json does not state units")
	}
}

// The apostrophe marker is unambiguous: meals named '=1+1 and =1+1 (and
// the other edge cases) export to cells no spreadsheet runs and re-import
// exactly; member.json carries the names as stored.
func TestExportMarkerRoundTripsEveryName(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	storetest.Member(t, db, "ada")
	storetest.Member(t, db, "bob")
	names := []string{"'=1+1", "=1+1", "'hello", "@sum", "'plain", "-5 km run", "''=x", "+1", "Plain 'quoted' lunch"}
	at := time.Date(2026, 2, 1, 12, 0, 0, 0, time.UTC)
	for i, n := range names {
		if _, err := db.AddMeal(ctx, health.Meal{MemberID: "ada", EatenAt: at.Add(time.Duration(i) * time.Minute), Name: n, Calories: 100}); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if err := export.Member(ctx, db, t.TempDir(), "ada", time.Now(), &buf); err != nil {
		t.Fatal(err)
	}
	files := unzip(t, buf.Bytes())
	recs, err := csv.NewReader(bytes.NewReader(files["meals.csv"])).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var cells []string
	for _, rec := range recs[1:] {
		if c := rec[1]; c != "" && strings.ContainsRune("=+-@\t\r", rune(c[0])) {
			t.Errorf("cell %q would run as a formula", c)
		}
		cells = append(cells, rec[1])
	}
	if cells[0] != "''=1+1" || cells[1] != "'=1+1" || cells[2] != "'hello" {
		t.Errorf("cells %q: want ''=1+1 and '=1+1 told apart, 'hello as it is", cells)
	}
	var doc struct {
		Meals []struct{ Name string } `json:"meals"`
	}
	if err := json.Unmarshal(files["member.json"], &doc); err != nil {
		t.Fatal(err)
	}
	for i, m := range doc.Meals {
		if m.Name != names[i] {
			t.Errorf("member.json meal %d = %q, want %q", i, m.Name, names[i])
		}
	}
	p := filepath.Join(t.TempDir(), "meals.csv")
	if err := os.WriteFile(p, files["meals.csv"], 0o600); err != nil {
		t.Fatal(err)
	}
	if sum, err := importer.ImportFile(ctx, db, importer.Options{Member: "bob", Kind: importer.KindAuto, Location: time.UTC}, p); err != nil {
		t.Fatalf("re-import: %v (%+v)", err, sum.Problems)
	}
	got, err := db.Meals(ctx, "bob", store.Range{})
	if err != nil {
		t.Fatal(err)
	}
	var back []string
	for _, m := range got {
		back = append(back, m.Name)
	}
	if strings.Join(back, "|") != strings.Join(names, "|") {
		t.Fatalf("names after export and import:\n got %q\nwant %q", back, names)
	}
}

// Export → import into the same member changes nothing: not the entries
// Hearth stored itself, not those another source (Apple Health, here with
// its own source keys) brought in.
func TestExportReimportIntoSameMemberAddsNothing(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	storetest.Member(t, db, "ada")
	fill(t, db)
	at := time.Date(2026, 3, 1, 6, 0, 0, 0, time.UTC)
	if _, err := db.AddWeight(ctx, health.WeightReading{MemberID: "ada", MeasuredAt: at, WeightKg: 64.2, Source: "apple_health", SourceKey: "w|hk-1"}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.AddWorkout(ctx, health.Workout{MemberID: "ada", StartedAt: at, Type: "run", DurationMin: 30, DistanceKm: ptr(5.1), Source: "apple_health", SourceKey: "wo|hk-2"}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.AddMeal(ctx, health.Meal{MemberID: "ada", EatenAt: at, Name: "Breakfast", Calories: 410, Source: "apple_health", SourceKey: "m|hk-3"}); err != nil {
		t.Fatal(err)
	}
	before := rows(t, db, "ada")
	var buf bytes.Buffer
	if err := export.Member(ctx, db, t.TempDir(), "ada", time.Now(), &buf); err != nil {
		t.Fatal(err)
	}
	files := unzip(t, buf.Bytes())
	dir := t.TempDir()
	for _, f := range []string{"weights.csv", "meals.csv", "workouts.csv", "body_scans.csv"} {
		p := filepath.Join(dir, f)
		if err := os.WriteFile(p, files[f], 0o600); err != nil {
			t.Fatal(err)
		}
		sum, err := importer.ImportFile(ctx, db, importer.Options{Member: "ada", Kind: importer.KindAuto, Location: time.UTC}, p)
		if err != nil {
			t.Fatalf("re-import %s: %v (%+v)", f, err, sum.Problems)
		}
		if sum.Added != 0 || sum.Updated != 0 {
			t.Errorf("importing ada's own %s into ada: added %d, updated %d; want 0 and 0", f, sum.Added, sum.Updated)
		}
	}
	after := rows(t, db, "ada")
	for k := range before {
		if strings.Join(before[k], "\n") != strings.Join(after[k], "\n") {
			t.Errorf("%s changed:\nbefore %q\n after %q", k, before[k], after[k])
		}
	}
}
