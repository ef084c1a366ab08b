package history_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"hearth/internal/history"
	"hearth/internal/store"
	"hearth/internal/store/storetest"
)

// tenYears fills member's records with ten years of daily history as
// imports leave it: a weigh-in (Apple Health), three meals (MyFitnessPal)
// and a workout (Strong) every day, each kind from its own import whose
// summary names the app. Rows go in with SQL in one transaction: the
// importer's own speed is measured in internal/importer.
func tenYears(tb testing.TB, db *store.DB, member string) {
	tb.Helper()
	ctx := context.Background()
	start := time.Date(2016, 1, 1, 0, 0, 0, 0, time.UTC)
	created := store.FormatTime(start.AddDate(10, 0, 0))
	err := db.Tx(ctx, func(tx *store.Tx) error {
		ids := map[string]int64{}
		for _, p := range []struct{ name, kind, profile string }{{"export.zip", "apple", ""},
			{"Nutrition-Summary.csv", "csv-meals", "MyFitnessPal Nutrition-Summary"}, {"strong.csv", "csv-workouts", "Strong"}} {
			summary := fmt.Sprintf(`{"file":%q,"kind":%q,"profile":%q,"added":3650,"types":{"HKQuantityTypeIdentifierBodyMass":{"added":3650}},`+
				`"notes":["a note that pads the summary to the size real ones have, with warnings and problems listed"],"bytes":123456789}`,
				p.name, p.kind, p.profile)
			res, err := tx.ExecContext(ctx, `INSERT INTO imports (member_id, file_name, kind, status, started_at, summary)
				VALUES (?,?,?, 'complete', ?, ?)`, member, p.name, p.kind, created, summary)
			if err != nil {
				return err
			}
			if ids[p.name], err = res.LastInsertId(); err != nil {
				return err
			}
		}
		for d := range 3653 {
			at := start.AddDate(0, 0, d)
			key := at.Format(time.DateOnly)
			if _, err := tx.ExecContext(ctx, `INSERT INTO weight_readings (member_id, measured_at, weight_kg, source, source_key,
				created_at, import_id) VALUES (?,?,?, 'apple_health', ?, ?, ?)`, member, store.FormatTime(at.Add(7*time.Hour)),
				92-float64(d)/500, "w"+key, created, ids["export.zip"]); err != nil {
				return err
			}
			for i, name := range []string{"Breakfast", "Lunch", "Dinner"} {
				if _, err := tx.ExecContext(ctx, `INSERT INTO meals (member_id, eaten_at, name, calories, protein_g, source,
					source_key, created_at, import_id) VALUES (?,?,?, 600, 35, 'csv', ?, ?, ?)`, member,
					store.FormatTime(at.Add(time.Duration(8+5*i)*time.Hour)), name, key+name, created, ids["Nutrition-Summary.csv"]); err != nil {
					return err
				}
			}
			typ := []string{"strength", "strength", "run"}[d%3]
			if _, err := tx.ExecContext(ctx, `INSERT INTO workouts (member_id, started_at, type, title, duration_min, source,
				source_key, created_at, import_id) VALUES (?,?,?, 'Session', 50, 'csv', ?, ?, ?)`, member,
				store.FormatTime(at.Add(18*time.Hour)), typ, "wo"+key, created, ids["strong.csv"]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
}

// BenchmarkSummaryTenYears: the summary of a member with ten years of
// daily weights, meals and workouts, beside another member with as much
// (target: well under 20 ms; BENCHMARKS.md).
func BenchmarkSummaryTenYears(b *testing.B) {
	db := storetest.Open(b)
	for _, m := range []string{"ann", "bob"} {
		storetest.Member(b, db, m)
		tenYears(b, db, m)
	}
	ctx := context.Background()
	s, err := history.Summarize(ctx, db, "ann")
	if err != nil {
		b.Fatal(err)
	}
	if s.Weights.Count != 3653 || s.Meals.Count != 3*3653 || s.Workouts.Count != 3653 || s.Mostly() != "strength" ||
		s.Meals.Sources[0].Name != "MyFitnessPal" || s.Trend == nil || s.Trend.Months != 120 {
		b.Fatalf("summary: %d weights, %d meals, %d workouts, mostly %q, meal sources %+v, trend %+v",
			s.Weights.Count, s.Meals.Count, s.Workouts.Count, s.Mostly(), s.Meals.Sources, s.Trend)
	}
	for b.Loop() {
		if _, err := history.Summarize(ctx, db, "ann"); err != nil {
			b.Fatal(err)
		}
	}
}
