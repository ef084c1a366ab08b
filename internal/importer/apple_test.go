package importer

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"hearth/internal/apperr"
)

func TestAppleImport(t *testing.T) {
	db := newDB(t)
	s := mustImport(t, db, "export.xml", Options{})

	if s.Kind != KindApple {
		t.Errorf("kind = %s, want apple", s.Kind)
	}
	// 2 weights + body fat + lean mass + 12 dietary samples + 2 workouts; the
	// 2 Records nested in the food Correlation repeat top-level ones: on a
	// first import that is "repeated in file", never "duplicate".
	if s.Added != 18 || s.SkippedDuplicate != 0 || s.RepeatedInFile != 2 || s.Rejected != 0 {
		t.Errorf("added %d dup %d repeated %d rejected %d, want 18 0 2 0", s.Added, s.SkippedDuplicate, s.RepeatedInFile, s.Rejected)
	}
	if s.SkippedUnknown != 3 || s.Unknown["HKQuantityTypeIdentifierHeartRate"] != 1 || s.Unknown["ActivitySummary"] != 1 ||
		s.Unknown["HKQuantityTypeIdentifierStepCount"] != 1 {
		t.Errorf("unknown %d %v (a food Correlation is read, not unknown)", s.SkippedUnknown, s.Unknown)
	}
	if c := s.Types["HKQuantityTypeIdentifierDietaryEnergyConsumed"]; c.Added != 5 || c.Duplicate != 0 || c.Repeated != 1 {
		t.Errorf("energy counts %+v", c)
	}
	// Body fat and lean mass both went onto the one Withings weigh-in: one
	// weigh-in linked, not two.
	if s.MealsCreated != 4 || s.MealsUpdated != 0 || s.BodyCompLinked != 1 ||
		!slices.Contains(SummaryLines(s), "meals: 4 created, 0 updated") ||
		!slices.Contains(SummaryLines(s), "body composition: added to 1 weigh-in, 0 kept as body-composition entries of their own") {
		t.Errorf("meals %d/%d linked %d, want 4/0 1; report %q", s.MealsCreated, s.MealsUpdated, s.BodyCompLinked, SummaryLines(s))
	}

	t.Run("weights in kg with body composition", func(t *testing.T) {
		w := weights(t, db)
		if len(w) != 2 {
			t.Fatalf("got %d weights", len(w))
		}
		// 180.4 lb at 07:31:12 -0800; body fat 0.221 → 22.1 %; lean 140.5 lb.
		if got := w[0]; !near(got.WeightKg, 81.828) || !got.MeasuredAt.Equal(utc("2024-01-05T15:31:12Z")) ||
			!ptrNear(got.BodyFatPct, 22.1) || !ptrNear(got.LeanMassKg, 63.730) || got.Source != SourceApple {
			t.Errorf("first weight %+v (fat %v lean %v)", got, got.BodyFatPct, got.LeanMassKg)
		}
		// 81.2 kg at 08:05 +0100 = 07:05 UTC, no body composition.
		if got := w[1]; !near(got.WeightKg, 81.2) || !got.MeasuredAt.Equal(utc("2024-01-08T07:05:00Z")) || got.BodyFatPct != nil {
			t.Errorf("second weight %+v", got)
		}
	})

	t.Run("dietary samples summed per meal slot", func(t *testing.T) {
		m := meals(t, db)
		if len(m) != 4 {
			t.Fatalf("got %d meals: %+v", len(m), m)
		}
		want := []struct {
			name                  string
			at                    string
			cal, prot, carbs, fat float64
		}{
			{"Breakfast (Apple Health)", "2024-01-05T16:12:00Z", 450, 20, 40, 12}, // 08:12 and 10:29:59 local
			{"Lunch (Apple Health)", "2024-01-05T20:40:00Z", 600, 35, 55, 18},     // 2510.4 kJ; 18000 mg fat
			{"Snack (Apple Health)", "2024-01-06T00:00:00Z", 150, 0, 0, 0},
			{"Dinner (Apple Health)", "2024-01-06T03:30:00Z", 700, 45, 0, 0}, // not doubled by the Correlation
		}
		for i, w := range want {
			g := m[i]
			if g.Name != w.name || !g.EatenAt.Equal(utc(w.at)) || !near(g.Calories, w.cal) || !near(g.ProteinG, w.prot) ||
				!near(g.CarbsG, w.carbs) || !near(g.FatG, w.fat) || g.Source != SourceApple {
				t.Errorf("meal %d = %+v, want %+v", i, g, w)
			}
		}
	})

	t.Run("workouts with units and heart rate", func(t *testing.T) {
		w := workouts(t, db)
		if len(w) != 2 {
			t.Fatalf("got %d workouts", len(w))
		}
		run, lift := w[0], w[1]
		if run.Type != "running" || run.Title != "Running" || !near(run.DurationMin, 32.5) ||
			!run.StartedAt.Equal(utc("2024-01-06T15:00:30Z")) || !ptrNear(run.EnergyKcal, 320) || run.AvgHR != nil ||
			!ptrNear(run.DistanceKm, 5.12) {
			t.Errorf("run = %+v", run)
		}
		if lift.Type != "traditional_strength_training" || lift.Title != "Traditional Strength Training" ||
			!near(lift.DurationMin, 45) || !lift.StartedAt.Equal(utc("2024-01-07T17:00:00Z")) ||
			!ptrNear(lift.EnergyKcal, 250) || lift.AvgHR == nil || *lift.AvgHR != 129 || lift.MaxHR == nil || *lift.MaxHR != 161 {
			t.Errorf("strength = %+v", lift)
		}
	})

	t.Run("history row", func(t *testing.T) {
		r, err := GetRun(t.Context(), db, s.ImportID)
		if err != nil {
			t.Fatal(err)
		}
		if r.Status != StatusComplete || r.Added != 18 || r.Kind != KindApple || r.FileName != "export.xml" ||
			r.FinishedAt == nil || r.Summary == nil || r.Summary.MealsCreated != 4 {
			t.Errorf("run = %+v", r)
		}
	})
}

func TestAppleReimportAddsNothing(t *testing.T) {
	db := newDB(t)
	first := mustImport(t, db, "export.xml", Options{})
	before := counts(t, db)
	second := mustImport(t, db, "export.xml", Options{})
	if second.Added != 0 || second.SkippedDuplicate != first.Added+first.RepeatedInFile || second.RepeatedInFile != 0 {
		t.Errorf("second import added %d dup %d (first added %d)", second.Added, second.SkippedDuplicate, first.Added)
	}
	if second.MealsCreated != 0 || second.MealsUpdated != 0 {
		t.Errorf("second import touched meals: %d created %d updated", second.MealsCreated, second.MealsUpdated)
	}
	if after := counts(t, db); after != before {
		t.Errorf("rows changed: %v → %v", before, after)
	}
	if m := meals(t, db); !near(m[0].Calories, 450) {
		t.Errorf("breakfast recomputed to %v", m[0].Calories)
	}
}

// export_later.xml overlaps export.xml, written from UTC-5 with kg preferred:
// the shared samples key the same, only the new ones are added, and the
// touched meal slots are recomputed without double counting.
func TestAppleOverlappingExportsMerge(t *testing.T) {
	db := newDB(t)
	mustImport(t, db, "export.xml", Options{})
	s := mustImport(t, db, "export_later.xml", Options{})
	if s.Added != 4 || s.SkippedDuplicate != 4 {
		t.Errorf("added %d dup %d, want 4 4 (types %v)", s.Added, s.SkippedDuplicate, s.Types)
	}
	if s.MealsCreated != 1 || s.MealsUpdated != 1 || s.BodyCompLinked != 1 {
		t.Errorf("meals %d created %d updated, linked %d; want 1 1 1", s.MealsCreated, s.MealsUpdated, s.BodyCompLinked)
	}
	w := weights(t, db)
	if len(w) != 3 || !ptrNear(w[1].BodyFatPct, 25) || !near(w[2].WeightKg, 80.9) {
		t.Errorf("weights %+v", w)
	}
	m := meals(t, db)
	if len(m) != 5 {
		t.Fatalf("got %d meals", len(m))
	}
	if d := m[3]; d.Name != "Dinner (Apple Health)" || !near(d.Calories, 700) || !near(d.ProteinG, 45) || !near(d.FatG, 30) {
		t.Errorf("dinner = %+v, want 700 kcal 45 g protein 30 g fat", d)
	}
	if b := m[0]; !near(b.Calories, 450) {
		t.Errorf("breakfast = %v kcal, want 450 (the repeated 350 kcal sample is not counted twice)", b.Calories)
	}
	if n := m[4]; n.Name != "Breakfast (Apple Health)" || !near(n.Calories, 400) || !n.EatenAt.Equal(utc("2024-01-09T13:00:00Z")) {
		t.Errorf("new breakfast = %+v", n)
	}
	if len(workouts(t, db)) != 2 {
		t.Error("workouts duplicated")
	}
}

func TestAppleBadValuesStrictImportsNothing(t *testing.T) {
	db := newDB(t)
	s, err := importFixture(t, db, "export_bad_values.xml", Options{Strict: true})
	if !apperr.Is(err, apperr.Invalid) {
		t.Fatalf("err = %v, want invalid", err)
	}
	var ve *ValidationError
	if !errors.As(err, &ve) || ve.Total != 3 {
		t.Fatalf("validation error %+v", ve)
	}
	want := []struct {
		line int
		msg  string
	}{{98, `unknown unit "stones"`}, {99, `value "twenty" is not a number`}, {100, "outside 0-1"}}
	for i, w := range want {
		p := s.Problems[i]
		if p.Line != w.line || !strings.Contains(p.Message, w.msg) || !strings.HasPrefix(p.Element, "Record HKQuantityType") {
			t.Errorf("problem %d = %+v, want line %d %q", i, p, w.line, w.msg)
		}
	}
	if s.Rejected != 3 || s.Added != 0 {
		t.Errorf("rejected %d added %d", s.Rejected, s.Added)
	}
	if c := counts(t, db); c != [4]int{} {
		t.Errorf("rows stored: %v (the valid weight must not be kept either)", c)
	}
	if st, msg := runStatus(t, db, s.ImportID); st != StatusFailed || !strings.Contains(msg, "stones") {
		t.Errorf("run %s %q", st, msg)
	}
}

func TestAppleTruncatedImportsNothing(t *testing.T) {
	db := newDB(t)
	s, err := importFixture(t, db, "export_truncated.xml", Options{})
	if !apperr.Is(err, apperr.Invalid) || !strings.Contains(err.Error(), "truncated") {
		t.Fatalf("err = %v, want a truncation message", err)
	}
	if len(s.Problems) != 1 || s.Problems[0].Line < 100 {
		t.Errorf("problems %+v, want one with the line where the file ends", s.Problems)
	}
	if c := counts(t, db); c != [4]int{} {
		t.Errorf("rows stored from a truncated file: %v", c)
	}
	if st, _ := runStatus(t, db, s.ImportID); st != StatusFailed {
		t.Errorf("status %s", st)
	}
}
