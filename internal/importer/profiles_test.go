package importer

import (
	"slices"
	"strings"
	"testing"

	"hearth/internal/health"
	"hearth/internal/store"
)

// App exports, imported as they are (fixtures and their sources:
// testdata/README.md). Each is imported twice: the second time adds nothing.
func TestAppExports(t *testing.T) {
	tests := []struct {
		file    string
		kind    Kind
		profile string
		added   int
		check   func(t *testing.T, db *store.DB, s Summary)
	}{
		{"mfp_nutrition.csv", KindCSVMeals, "MyFitnessPal Nutrition-Summary", 7, func(t *testing.T, db *store.DB, s Summary) {
			m := meals(t, db)
			// Meals sit at fixed household times (Berlin, UTC+1): breakfast
			// 08:00, lunch 12:30, snacks 15:30, dinner 19:00; other names noon.
			want := []struct {
				name, at              string
				cal, prot, carbs, fat float64
			}{
				{"Breakfast", "2024-03-04T07:00:00Z", 518, 27.6, 36.7, 29},
				{"Lunch", "2024-03-04T11:30:00Z", 655.3, 44.1, 68.9, 21.4},
				{"Snacks", "2024-03-04T14:30:00Z", 190, 6, 21, 9},
				{"Dinner", "2024-03-04T18:00:00Z", 812, 58.3, 75.2, 30.5},
				{"Breakfast", "2024-03-05T07:00:00Z", 430.5, 26.5, 48, 14.2},
				{"Post-Workout", "2024-03-05T11:00:00Z", 220, 24, 24, 3.5},
				{"Dinner", "2024-03-05T18:00:00Z", 760, 49, 82, 26},
			}
			if len(m) != len(want) {
				t.Fatalf("got %d meals: %+v", len(m), m)
			}
			for i, w := range want {
				g := m[i]
				if g.Name != w.name || !g.EatenAt.Equal(utc(w.at)) || !near(g.Calories, w.cal) || !near(g.ProteinG, w.prot) ||
					!near(g.CarbsG, w.carbs) || !near(g.FatG, w.fat) {
					t.Errorf("meal %d = %+v, want %+v", i, g, w)
				}
			}
			// The micronutrient columns are named, not silently dropped.
			if !hasWarning(s, `not imported: "Saturated Fat"`, `"Sodium (mg)"`, `"Vitamin A"`) {
				t.Errorf("warnings %v", s.Warnings)
			}
		}},
		{"mfp_nutrition_entries.csv", KindCSVMeals, "MyFitnessPal Nutrition-Summary", 3, func(t *testing.T, db *store.DB, s Summary) {
			// One row per food entry (Time column, BOM): a meal is the sum of
			// its rows, two identical rows included (two portions).
			m := meals(t, db)
			if len(m) != 3 || m[0].Name != "Breakfast" || !near(m[0].Calories, 530) || !near(m[0].CarbsG, 108) ||
				!near(m[2].Calories, 510.2) || !near(m[2].FatG, 25.7) {
				t.Errorf("meals %+v", m)
			}
			if s.RepeatedInFile != 0 || !hasNote(s, "added up 6 rows into 3 meals") {
				t.Errorf("repeated %d notes %v", s.RepeatedInFile, s.Notes)
			}
		}},
		{"mfp_exercise.csv", KindCSVWorkouts, "MyFitnessPal Exercise-Summary", 4, func(t *testing.T, db *store.DB, s Summary) {
			w := workouts(t, db)
			if len(w) != 4 {
				t.Fatalf("got %d workouts: %+v", len(w), w)
			}
			// Calorie adjustments are not workouts; the exact repeat of the
			// morning walk is one; two walks on 5 March add up; the literal
			// quotes around names are gone.
			byTitle := map[string]health.Workout{}
			for _, x := range w {
				byTitle[x.StartedAt.Format("01-02")+" "+x.Title] = x
			}
			walk4 := byTitle["03-04 Walking, 3.5 mph, brisk pace"]
			walk5 := byTitle["03-05 Walking, 3.5 mph, brisk pace"]
			if walk4.Type != "walking" || !near(walk4.DurationMin, 35) || !ptrNear(walk4.EnergyKcal, 178) ||
				!near(walk5.DurationMin, 30) || !ptrNear(walk5.EnergyKcal, 150) {
				t.Errorf("walks %+v %+v", walk4, walk5)
			}
			if sq := byTitle["03-04 Front Squats, Barbell, Arms Crossed"]; sq.Type != "front_squats" || sq.EnergyKcal != nil {
				t.Errorf("strength row %+v", sq)
			}
			if s.RepeatedInFile != 1 || !hasNote(s, "2 calorie-adjustment rows are not workouts") {
				t.Errorf("repeated %d notes %v", s.RepeatedInFile, s.Notes)
			}
			if len(weights(t, db)) != 0 || !hasWarning(s, `"Pounds"`) {
				t.Errorf("a set load became a weigh-in, or was dropped without a word: %v", s.Warnings)
			}
		}},
		{"withings_weight.csv", KindCSVWeight, "Withings weight.csv", 3, func(t *testing.T, db *store.DB, s Summary) {
			w := weights(t, db)
			// Times in the household zone; body fat % = fat mass / weight;
			// lean = weight − fat mass.
			if !w[2].MeasuredAt.Equal(utc("2024-03-03T06:12:40Z")) || !near(w[2].WeightKg, 80.9) ||
				!ptrNear(w[2].BodyFatPct, 16.02/80.9*100) || !ptrNear(w[2].LeanMassKg, 80.9-16.02) {
				t.Errorf("reading %+v", w[2])
			}
			if w[0].BodyFatPct != nil || w[0].LeanMassKg != nil {
				t.Errorf("a reading without fat mass got composition: %+v", w[0])
			}
			if !hasWarning(s, `"Bone mass (kg)"`, `"Muscle mass (kg)"`, `"Hydration (kg)"`) {
				t.Errorf("warnings %v", s.Warnings)
			}
		}},
		{"withings_gewicht.csv", KindCSVWeight, "Withings weight.csv", 2, func(t *testing.T, db *store.DB, s Summary) {
			w := weights(t, db)
			// "2024-03-02 6:04 Uhr" is 06:04 in Berlin.
			if !w[1].MeasuredAt.Equal(utc("2024-03-02T05:04:00Z")) || !near(w[1].WeightKg, 94.34) ||
				!ptrNear(w[1].LeanMassKg, 67.53) || !ptrNear(w[1].BodyFatPct, 26.81/94.34*100) {
				t.Errorf("reading %+v", w[1])
			}
		}},
		{"strong.csv", KindCSVWorkouts, "Strong", 3, func(t *testing.T, db *store.DB, s Summary) {
			w := workouts(t, db)
			if len(w) != 3 || len(weights(t, db)) != 0 {
				t.Fatalf("workouts %+v; weights %d (set loads must never be body weight)", w, len(weights(t, db)))
			}
			push, cardio, legs := w[0], w[1], w[2]
			if push.Title != "Push Day" || push.Type != "strength" || !near(push.DurationMin, 63) ||
				!push.StartedAt.Equal(utc("2024-03-04T17:02:11Z")) || push.DistanceKm != nil {
				t.Errorf("push %+v", push)
			}
			if !near(cardio.DurationMin, 31) || !ptrNear(cardio.DistanceKm, 5.2) { // bare Distance: the member's system (kg → km)
				t.Errorf("cardio %+v", cardio)
			}
			if legs.DurationMin != 0 || !hasCorrection(s, `duration over a day is not believable`, `line 8 ("264h 1m")`) {
				t.Errorf("legs %+v corrections %v", legs, s.Corrections)
			}
			if !hasNote(s, "grouped 7 rows into 3 workouts") || !hasNote(s, "1 rest-timer and note rows are not sets") ||
				!hasNote(s, "does not say its distance unit: read as km") || !hasWarning(s, "set loads") {
				t.Errorf("notes %v warnings %v", s.Notes, s.Warnings)
			}
		}},
		{"strong_semicolon.csv", KindCSVWorkouts, "Strong", 2, func(t *testing.T, db *store.DB, s Summary) {
			w := workouts(t, db)
			if !near(w[0].DurationMin, 53) || !near(w[1].DurationMin, 35) || !ptrNear(w[1].DistanceKm, 2.4*1.609344) {
				t.Errorf("workouts %+v (Workout Duration, Distance Unit mi.)", w)
			}
		}},
		{"strong_numbered.csv", KindCSVWorkouts, "Strong", 2, func(t *testing.T, db *store.DB, s Summary) {
			w := workouts(t, db)
			if !near(w[0].DurationMin, 62) || w[0].Title != "Workout A #12" || !near(w[1].DurationMin, 25) || !ptrNear(w[1].DistanceKm, 5) {
				t.Errorf("workouts %+v (Duration (sec), Distance (meters))", w)
			}
		}},
		{"hevy.csv", KindCSVWorkouts, "Hevy", 2, func(t *testing.T, db *store.DB, s Summary) {
			w := workouts(t, db)
			if len(w) != 2 || w[0].Title != "Push Day 🚀" || !near(w[0].DurationMin, 63) || !w[0].StartedAt.Equal(utc("2024-03-04T17:02:00Z")) ||
				!near(w[1].DurationMin, 31) || !ptrNear(w[1].DistanceKm, 5.2) || len(weights(t, db)) != 0 {
				t.Errorf("workouts %+v", w)
			}
		}},
		{"hevy_lbs.csv", KindCSVWorkouts, "Hevy", 2, func(t *testing.T, db *store.DB, s Summary) {
			w := workouts(t, db)
			if !ptrNear(w[1].DistanceKm, 2.5*1.609344) || len(weights(t, db)) != 0 {
				t.Errorf("workouts %+v", w)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			t.Parallel()
			db := newDB(t)
			s := mustImport(t, db, tt.file, Options{})
			if s.Kind != tt.kind || s.Profile != tt.profile || s.Added != tt.added || s.Rejected != 0 {
				t.Fatalf("kind %s profile %q added %d rejected %d (%v); want %s %q %d 0",
					s.Kind, s.Profile, s.Added, s.Rejected, s.Problems, tt.kind, tt.profile, tt.added)
			}
			tt.check(t, db, s)
			before := counts(t, db)
			again := mustImport(t, db, tt.file, Options{})
			if again.Added != 0 || again.Updated != 0 || again.SkippedDuplicate != tt.added || counts(t, db) != before {
				t.Errorf("second import added %d updated %d unchanged %d", again.Added, again.Updated, again.SkippedDuplicate)
			}
		})
	}
}

func hasNote(s Summary, want string) bool {
	return slices.ContainsFunc(s.Notes, func(n string) bool { return strings.Contains(n, want) })
}

// hasCorrection reports whether one correction, as the report prints it,
// contains every part.
func hasCorrection(s Summary, parts ...string) bool {
	return slices.ContainsFunc(s.Corrections, func(c Correction) bool {
		for _, want := range parts {
			if !strings.Contains(c.String(), want) {
				return false
			}
		}
		return true
	})
}

// hasWarning reports whether one warning contains every part.
func hasWarning(s Summary, parts ...string) bool {
	return slices.ContainsFunc(s.Warnings, func(p Problem) bool {
		for _, want := range parts {
			if !strings.Contains(p.Message, want) {
				return false
			}
		}
		return true
	})
}

// MyFitnessPal's Measurement-Summary says no unit: the import's unit (or
// the member's) is used and the report says so.
func TestWeightUnitNotStated(t *testing.T) {
	db := newDB(t)
	if _, err := db.CreateMember(t.Context(), health.Member{ID: "ben", Name: "Ben", Unit: health.LB}); err != nil {
		t.Fatal(err)
	}
	s := mustImport(t, db, "mfp_measurement.csv", Options{Member: "ben"})
	if s.Profile != "MyFitnessPal Measurement-Summary" || s.Unit != health.LB || s.Added != 3 ||
		!hasNote(s, "does not say its weight unit: read as lb (the member's unit setting)") {
		t.Fatalf("summary %+v", s)
	}
	w, err := db.Weights(t.Context(), "ben", store.Range{})
	if err != nil || len(w) != 3 || !near(w[0].WeightKg, 184.6*health.KgPerLb) || !w[0].MeasuredAt.Equal(utc("2024-03-01T11:00:00Z")) {
		t.Fatalf("weights %+v %v", w, err)
	}
	// The option wins over the member's unit, and says it was chosen.
	s = mustImport(t, db, "mfp_measurement.csv", Options{Unit: health.KG})
	if s.Unit != health.KG || !hasNote(s, "read as kg (as chosen for this import)") || !near(weights(t, db)[0].WeightKg, 184.6) {
		t.Errorf("summary %+v", s)
	}
	// Header-driven: only the columns the header names are needed.
	for _, data := range []string{"date,weight_kg\n2024-01-05,81.4\n", "Datum;Gewicht (kg)\n2024-01-05;81,4\n", "2024-01-05,81.4\n"} {
		db := newDB(t)
		s := mustImportBytes(t, db, "w.csv", data, Options{})
		if s.Added != 1 || !near(weights(t, db)[0].WeightKg, 81.4) {
			t.Errorf("%q: added %d weights %+v", data, s.Added, weights(t, db))
		}
	}
}
