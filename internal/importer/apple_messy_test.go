package importer

import (
	"errors"
	"strings"
	"testing"

	"hearth/internal/apperr"
	"hearth/internal/health"
	"hearth/internal/store"
)

func bodyScans(t *testing.T, db *store.DB) []health.BodyScan {
	t.Helper()
	s, err := db.BodyScans(t.Context(), "ada", store.Range{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// export_messy.xml has the malformed DTD of iOS 16 exports, a vertical tab
// inside a metadata value, a body fat of 1.5 and a body mass in "stones":
// the two bad records are rejected with their lines, the rest imports.
func TestAppleMessyExportImportsWhatIsValid(t *testing.T) {
	db := newDB(t)
	s := mustImport(t, db, "export_messy.xml", Options{})
	if s.Added != 6 || s.Rejected != 2 || s.TotalProblems != 2 || s.CharsDropped != 1 {
		t.Fatalf("added %d rejected %d problems %v dropped %d", s.Added, s.Rejected, s.Problems, s.CharsDropped)
	}
	if p := s.Problems; p[0].Line != 45 || !strings.Contains(p[0].Message, "outside 0-1") ||
		p[1].Line != 46 || !strings.Contains(p[1].Message, `unknown unit "stones"`) {
		t.Errorf("problems %+v", p)
	}
	if st, _ := runStatus(t, db, s.ImportID); st != StatusComplete {
		t.Errorf("status %s", st)
	}
	if w := weights(t, db); len(w) != 1 || !near(w[0].WeightKg, 81) {
		t.Errorf("weights %+v", w)
	}
	if m := meals(t, db); len(m) != 1 || m[0].Name != "Dinner (Apple Health)" || !near(m[0].Calories, 640) {
		t.Errorf("meals %+v", m)
	}

	t.Run("workout distance", func(t *testing.T) {
		w := workouts(t, db)
		// From a distance statistic (iOS 16+), and from totalDistance in miles.
		if len(w) != 2 || !ptrNear(w[0].DistanceKm, 5.04) || !ptrNear(w[1].DistanceKm, 12.4*1.609344) || !ptrNear(w[0].EnergyKcal, 301.2) {
			t.Errorf("workouts %+v", w)
		}
	})

	t.Run("body composition without a weigh-in", func(t *testing.T) {
		// Body fat on 6 March and lean mass on 7 March have no weigh-in
		// within 15 minutes: each is a body-composition entry of its own.
		sc := bodyScans(t, db)
		if s.BodyCompEntries != 2 || s.BodyCompLinked != 0 || len(sc) != 2 {
			t.Fatalf("entries %d linked %d scans %+v", s.BodyCompEntries, s.BodyCompLinked, sc)
		}
		if !ptrNear(sc[0].BodyFatPct, 24.8) || sc[0].LeanMassKg != nil || !sc[0].ScannedAt.Equal(utc("2024-03-06T20:00:00Z")) ||
			sc[0].Source != SourceApple || sc[1].BodyFatPct != nil || !ptrNear(sc[1].LeanMassKg, 60.9) {
			t.Errorf("scans %+v", sc)
		}
	})

	t.Run("strict imports nothing", func(t *testing.T) {
		db := newDB(t)
		s, err := importFixture(t, db, "export_messy.xml", Options{Strict: true})
		var ve *ValidationError
		if !errors.As(err, &ve) || !apperr.Is(err, apperr.Invalid) || ve.Total != 2 || s.Added != 0 {
			t.Fatalf("err %v added %d", err, s.Added)
		}
		if c := counts(t, db); c != [4]int{} || len(bodyScans(t, db)) != 0 {
			t.Errorf("rows stored: %v", c)
		}
	})

	t.Run("again", func(t *testing.T) {
		again := mustImport(t, db, "export_messy.xml", Options{})
		if again.Added != 0 || again.SkippedDuplicate != 6 || again.BodyCompEntries != 0 || len(bodyScans(t, db)) != 2 {
			t.Errorf("added %d duplicate %d entries %d", again.Added, again.SkippedDuplicate, again.BodyCompEntries)
		}
	})

	t.Run("a later weigh-in takes the reading", func(t *testing.T) {
		later := `<HealthData locale="en_US">
 <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Health" unit="kg" startDate="2024-03-06 21:05:00 +0100" endDate="2024-03-06 21:05:00 +0100" value="80.6"/>
</HealthData>`
		s := mustImportBytes(t, db, "export.xml", later, Options{})
		if s.BodyCompLinked != 1 {
			t.Errorf("linked %d", s.BodyCompLinked)
		}
		w := weights(t, db)
		if len(w) != 2 || !ptrNear(w[1].BodyFatPct, 24.8) {
			t.Errorf("weights %+v", w)
		}
		if sc := bodyScans(t, db); len(sc) != 1 || sc[0].LeanMassKg == nil {
			t.Errorf("the body-fat entry should now live on the weigh-in: %+v", sc)
		}
	})
}

// MyFitnessPal writes each nutrient of a meal as its own record with a
// "Meal" metadata entry, at times that straddle the slot boundaries. The
// meal, not the clock, groups them; a food correlation groups its records.
func TestAppleNutritionGroupedByMeal(t *testing.T) {
	db := newDB(t)
	s := mustImport(t, db, "export_mfp_meals.xml", Options{})
	if s.Added != 12 || s.RepeatedInFile != 2 || s.SkippedDuplicate != 0 || s.MealsCreated != 5 {
		t.Fatalf("added %d repeated %d duplicate %d meals %d", s.Added, s.RepeatedInFile, s.SkippedDuplicate, s.MealsCreated)
	}
	if s.Unknown["HKCorrelationTypeIdentifierBloodPressure"] != 1 {
		t.Errorf("unknown %v", s.Unknown)
	}
	want := []struct {
		name, at              string
		cal, prot, carbs, fat float64
	}{
		{"Breakfast (Apple Health)", "2024-03-04T10:02:00Z", 518, 27.6, 0, 0},    // logged at 11:02: lunch by the clock
		{"Dinner (Apple Health)", "2024-03-04T16:29:40Z", 812, 58.3, 75.2, 30.5}, // energy at 17:29:40, macros 17:30:05
		{"Snack (Apple Health)", "2024-03-04T20:15:00Z", 190, 0, 21, 0},          // 21:15: dinner by the clock
		{"Lunch (Apple Health)", "2024-03-05T14:05:00Z", 430, 31, 0, 0},          // named by its food correlation
		{"Post-Workout (Apple Health)", "2024-03-05T18:10:00Z", 220, 24, 0, 0},
	}
	m := meals(t, db)
	if len(m) != len(want) {
		t.Fatalf("meals %+v", m)
	}
	for i, w := range want {
		g := m[i]
		if g.Name != w.name || !g.EatenAt.Equal(utc(w.at)) || !near(g.Calories, w.cal) || !near(g.ProteinG, w.prot) ||
			!near(g.CarbsG, w.carbs) || !near(g.FatG, w.fat) {
			t.Errorf("meal %d = %+v, want %+v", i, g, w)
		}
	}
	again := mustImport(t, db, "export_mfp_meals.xml", Options{})
	if again.Added != 0 || again.MealsCreated != 0 || again.MealsUpdated != 0 || len(meals(t, db)) != 5 {
		t.Errorf("again: added %d meals %d/%d", again.Added, again.MealsCreated, again.MealsUpdated)
	}
}

// An export read before distances were stored leaves workouts without one;
// importing it again fills them in.
func TestAppleDistanceFilledOnReimport(t *testing.T) {
	db := newDB(t)
	mustImport(t, db, "export.xml", Options{})
	if _, err := db.Write.Exec(`UPDATE workouts SET distance_km = NULL`); err != nil {
		t.Fatal(err)
	}
	mustImport(t, db, "export.xml", Options{})
	if w := workouts(t, db); !ptrNear(w[0].DistanceKm, 5.12) || w[1].DistanceKm != nil {
		t.Errorf("workouts %+v", w)
	}
}

// A workout title comes from the file's activity type: it is cleaned like
// any imported text.
func TestAppleWorkoutTitleCleaned(t *testing.T) {
	doc := "<HealthData><Workout workoutActivityType=\"HKWorkoutActivityTypeYoga&#x85;Flow\" duration=\"30\" durationUnit=\"min\"" +
		" startDate=\"2024-01-05 07:00:00 +0000\" endDate=\"2024-01-05 07:30:00 +0000\"/></HealthData>"
	db := newDB(t)
	s := mustImportBytes(t, db, "export.xml", doc, Options{})
	if w := workouts(t, db); len(w) != 1 || w[0].Title != "Yoga Flow" || s.CharsDropped != 1 {
		t.Errorf("workouts %+v dropped %d", w, s.CharsDropped)
	}
}

func TestXMLCharFilter(t *testing.T) {
	doc := "<HealthData>\n <Workout workoutActivityType=\"HKWorkoutActivityTypeYoga\" duration=\"30\" durationUnit=\"min\"" +
		" startDate=\"2024-01-05 07:00:00 +0000\" endDate=\"2024-01-05 07:30:00 +0000\">\n" +
		"  <MetadataEntry key=\"note\" value=\"a\x0b\x0cb\x01\"/>\n </Workout>\n</HealthData>\n"
	db := newDB(t)
	s := mustImportBytes(t, db, "export.xml", doc, Options{})
	if s.Added != 1 || s.CharsDropped != 3 {
		t.Errorf("added %d dropped %d", s.Added, s.CharsDropped)
	}
}
