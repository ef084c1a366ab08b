package importer

import (
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
)

// A corrected export updates the entries it changed instead of adding a
// second copy; entries the member changed (or deleted) since are kept.
func TestCorrectedFileUpdatesInPlace(t *testing.T) {
	db := newDB(t)
	mustImport(t, db, "mfp_nutrition.csv", Options{})

	s := mustImport(t, db, "mfp_nutrition_fixed.csv", Options{}) // lunch on 4 March: 655.3 → 705.3 kcal
	if s.Added != 0 || s.Updated != 1 || s.SkippedDuplicate != 6 || s.KeptEdits != 0 {
		t.Fatalf("corrected file: added %d updated %d unchanged %d kept %d", s.Added, s.Updated, s.SkippedDuplicate, s.KeptEdits)
	}
	m := meals(t, db)
	if len(m) != 7 || m[1].Name != "Lunch" || !near(m[1].Calories, 705.3) {
		t.Fatalf("meals after the correction: %+v", m)
	}
	if c := s.Types["csv-meals"]; c.Updated != 1 || c.Duplicate != 6 {
		t.Errorf("type counts %+v", c)
	}

	// The member corrects dinner by hand and deletes the snack (any code
	// path: here plain SQL, as the kiosk's edit would).
	if _, err := db.Write.Exec(`UPDATE meals SET calories = 800 WHERE member_id = 'ada' AND name = 'Dinner' AND eaten_at LIKE '2024-03-04%'`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Write.Exec(`DELETE FROM meals WHERE member_id = 'ada' AND name = 'Snacks'`); err != nil {
		t.Fatal(err)
	}
	v3 := fixture(t, "mfp_nutrition_fixed.csv")
	for old, fixed := range map[string]string{
		"2024-03-04,Dinner,812.0,":    "2024-03-04,Dinner,850.0,",
		"2024-03-04,Snacks,190.0,":    "2024-03-04,Snacks,200.0,",
		"2024-03-05,Breakfast,430.5,": "2024-03-05,Breakfast,440.0,",
	} {
		if !strings.Contains(v3, old) {
			t.Fatalf("fixture lacks %q", old)
		}
		v3 = strings.Replace(v3, old, fixed, 1)
	}
	s = mustImportBytes(t, db, "Nutrition-Summary-v3.csv", v3, Options{})
	if s.Added != 0 || s.Updated != 1 || s.KeptEdits != 2 || s.SkippedDuplicate != 4 {
		t.Fatalf("third file: added %d updated %d kept %d unchanged %d", s.Added, s.Updated, s.KeptEdits, s.SkippedDuplicate)
	}
	m = meals(t, db)
	if len(m) != 6 || !near(m[2].Calories, 800) || m[2].Name != "Dinner" || !near(m[3].Calories, 440) {
		t.Errorf("the edit or the deletion was overwritten, or the correction lost: %+v", m)
	}
	if !strings.Contains(strings.Join(SummaryLines(s), "\n"), "kept 2 of your edits") {
		t.Errorf("report %q", SummaryLines(s))
	}
	// Imported again, the same file changes nothing and still keeps the edits.
	s = mustImportBytes(t, db, "Nutrition-Summary-v3.csv", v3, Options{})
	if s.Added+s.Updated != 0 || s.KeptEdits != 2 || s.SkippedDuplicate != 5 {
		t.Errorf("again: added %d updated %d kept %d unchanged %d", s.Added, s.Updated, s.KeptEdits, s.SkippedDuplicate)
	}
}

// Weigh-ins (key: time) and workouts (key: start and type) update in place too.
func TestCorrectionsWeightsAndWorkouts(t *testing.T) {
	db := newDB(t)
	mustImport(t, db, "weight.csv", Options{})
	mustImport(t, db, "workouts.csv", Options{})
	weightsV2 := strings.Replace(fixture(t, "weight.csv"), "2024-01-06 07:30,81.5,kg,", "2024-01-06 07:30,81.3,kg,20.5", 1)
	s := mustImportBytes(t, db, "weight.csv", weightsV2, Options{})
	if s.Updated != 1 || s.SkippedDuplicate != 2 || s.Added != 0 {
		t.Errorf("weights: updated %d unchanged %d added %d", s.Updated, s.SkippedDuplicate, s.Added)
	}
	if w := weights(t, db); len(w) != 3 || !near(w[1].WeightKg, 81.3) || !ptrNear(w[1].BodyFatPct, 20.5) {
		t.Errorf("weights %+v", w)
	}
	workoutsV2 := strings.Replace(fixture(t, "workouts.csv"), "Morning run,32.5,148", "Morning run,34,151", 1)
	s = mustImportBytes(t, db, "workouts.csv", workoutsV2, Options{})
	if s.Updated != 1 || s.SkippedDuplicate != 2 {
		t.Errorf("workouts: updated %d unchanged %d", s.Updated, s.SkippedDuplicate)
	}
	if w := workouts(t, db); len(w) != 3 || !near(w[0].DurationMin, 34) || *w[0].AvgHR != 151 {
		t.Errorf("workouts %+v", w)
	}
}

// A row repeated inside one file is "repeated in file", not a duplicate; a
// second weigh-in for the same instant replaces the first and is reported.
func TestRepeatsInsideOneFile(t *testing.T) {
	db := newDB(t)
	data := "date,weight,unit\n2024-01-05 07:00,81.4,kg\n2024-01-05 07:00,81.4,kg\n2024-01-06 07:00,81.2,kg\n2024-01-06 07:00,81.0,kg\n"
	s := mustImportBytes(t, db, "w.csv", data, Options{})
	if s.Added != 2 || s.RepeatedInFile != 1 || s.SkippedDuplicate != 0 {
		t.Fatalf("added %d repeated %d duplicate %d", s.Added, s.RepeatedInFile, s.SkippedDuplicate)
	}
	if w := weights(t, db); !near(w[1].WeightKg, 81.0) || !hasCorrection(s, "the last row is kept", "line 5 (2 rows for 2024-01-06 06:00 UTC)") {
		t.Errorf("weights %+v corrections %v", w, s.Corrections)
	}
	s = mustImportBytes(t, db, "w.csv", data, Options{})
	if s.Added != 0 || s.SkippedDuplicate != 2 || s.RepeatedInFile != 1 {
		t.Errorf("again: added %d duplicate %d repeated %d", s.Added, s.SkippedDuplicate, s.RepeatedInFile)
	}
}

// Files that are not UTF-8 are transcoded: a BOM says UTF-16, otherwise
// Windows-1252. Control characters in names are dropped and counted.
func TestCSVEncodings(t *testing.T) {
	meals1252, err := charmap.Windows1252.NewEncoder().String("date;name;kcal\n2024-01-05 08:00;Müsli mit Äpfeln;420\n2024-01-05 19:00;Crème brûlée;310\n")
	if err != nil {
		t.Fatal(err)
	}
	weights16, err := unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewEncoder().String("date\tweight\tunit\r\n2024-01-05\t81,4\tkg\r\n")
	if err != nil {
		t.Fatal(err)
	}
	t.Run("windows-1252", func(t *testing.T) {
		db := newDB(t)
		s := mustImportBytes(t, db, "meals.csv", meals1252, Options{})
		m := meals(t, db)
		if len(m) != 2 || m[0].Name != "Müsli mit Äpfeln" || m[1].Name != "Crème brûlée" || !hasNote(s, "transcoded from Windows-1252") {
			t.Errorf("meals %+v notes %v", m, s.Notes)
		}
	})
	t.Run("utf-16", func(t *testing.T) {
		db := newDB(t)
		s := mustImportBytes(t, db, "weights.txt", weights16, Options{})
		if w := weights(t, db); len(w) != 1 || !near(w[0].WeightKg, 81.4) || !hasNote(s, "transcoded from UTF-16") {
			t.Errorf("weights %+v notes %v", w, s.Notes)
		}
	})
	t.Run("control characters", func(t *testing.T) {
		db := newDB(t)
		s := mustImportBytes(t, db, "meals.csv", "datetime,name,calories\n2024-01-05 08:00,\"Oats\x1b[31m\rand tea\",420\n", Options{})
		// Names are single-line: the line break in the quoted cell becomes a
		// space; the escape character is dropped and counted.
		if m := meals(t, db); len(m) != 1 || m[0].Name != "Oats[31m and tea" || s.CharsDropped != 1 {
			t.Errorf("meal %+v dropped %d", m, s.CharsDropped)
		}
	})
}

// Bad rows are rejected one by one and listed; the others import. With
// --strict (Options.Strict) the file imports nothing.
func TestCSVBadRowsRejectedOneByOne(t *testing.T) {
	db := newDB(t)
	s, err := importFixture(t, db, "weight_bad_row.csv", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Added != 3 || s.Rejected != 2 || s.TotalProblems != 2 || s.Problems[0].Line != 3 || s.Problems[1].Line != 5 {
		t.Errorf("added %d rejected %d problems %+v", s.Added, s.Rejected, s.Problems)
	}
	if st, _ := runStatus(t, db, s.ImportID); st != StatusComplete || len(weights(t, db)) != 3 {
		t.Errorf("status %s, %d weights", st, len(weights(t, db)))
	}
}

// The same file through the CLI: the unit flag and the report.
func TestRunCLIUnitAndReport(t *testing.T) {
	db := newDB(t)
	code, out, errOut := runCLI(t, cliDB(t, db), "--member", "ada", "--tz", "Europe/Berlin", "--unit", "lb",
		filepath.Join("testdata", "mfp_measurement.csv"), filepath.Join("testdata", "strong.csv"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"mfp_measurement.csv: csv-weight (MyFitnessPal Measurement-Summary)",
		"the file does not say its weight unit: read as lb (as chosen for this import)", "strong.csv: csv-workouts (Strong)",
		"read as miles", "grouped 7 rows into 3 workouts", `warning: duration over a day is not believable (a timer left running?): the workout is stored with 0 minutes: line 8 ("264h 1m")`} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	if w := weights(t, db); len(w) != 3 || !near(w[0].WeightKg, 83.733) {
		t.Errorf("weights %+v", w)
	}
	if wo := workouts(t, db); !ptrNear(wo[1].DistanceKm, 5.2*1.609344) {
		t.Errorf("Strong's bare distance with --unit lb is miles: %+v", wo[1])
	}
}

// Rows imported before natural keys (keyed by a hash of their values) are
// recognised and adopted, not copied: re-importing the file after the
// upgrade adds nothing, and a corrected file updates them.
func TestRowsFromBeforeNaturalKeysAreAdopted(t *testing.T) {
	db := newDB(t)
	if _, err := db.Write.Exec(`INSERT INTO meals (member_id, eaten_at, name, calories, protein_g, carbs_g, fat_g, source, source_key, created_at)
		VALUES ('ada', '2024-01-05T07:00:00.000Z', 'Oats with berries', 420, 15, 70, 9, 'csv', 'c0ffee0123456789c0ffee0123456789', '2024-01-06T00:00:00.000Z')`); err != nil {
		t.Fatal(err)
	}
	s := mustImport(t, db, "meals.tsv", Options{})
	if s.Added != 2 || s.SkippedDuplicate != 1 || len(meals(t, db)) != 3 {
		t.Fatalf("added %d duplicate %d meals %d", s.Added, s.SkippedDuplicate, len(meals(t, db)))
	}
	fixed := strings.Replace(fixture(t, "meals.tsv"), "Oats with berries\t420", "Oats with berries\t450", 1)
	s = mustImportBytes(t, db, "meals.tsv", fixed, Options{})
	if s.Updated != 1 || s.Added != 0 || !near(meals(t, db)[0].Calories, 450) {
		t.Errorf("updated %d added %d meals %+v", s.Updated, s.Added, meals(t, db))
	}
}

// Weigh-ins the migration re-keyed (natural key, no ledger entry yet) are
// found too.
func TestMigratedRowsWithoutLedger(t *testing.T) {
	db := newDB(t)
	if _, err := db.Write.Exec(`INSERT INTO weight_readings (member_id, measured_at, weight_kg, source, source_key, created_at)
		VALUES ('ada', '2024-01-06T06:30:00.000Z', 81.5, 'csv', 'w|2024-01-06T06:30:00.000Z', '2024-01-07T00:00:00.000Z')`); err != nil {
		t.Fatal(err)
	}
	s := mustImport(t, db, "weight.csv", Options{})
	if s.Added != 2 || s.SkippedDuplicate != 1 || len(weights(t, db)) != 3 {
		t.Errorf("added %d duplicate %d weights %d", s.Added, s.SkippedDuplicate, len(weights(t, db)))
	}
	if s = mustImport(t, db, "weight.csv", Options{}); s.SkippedDuplicate != 3 {
		t.Errorf("again: duplicate %d", s.SkippedDuplicate)
	}
}
