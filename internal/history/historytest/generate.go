// Package historytest writes long generated histories for tests and
// benchmarks: years of daily weigh-ins, meals and workouts, as an import
// of years of exports leaves them.
package historytest

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"hearth/internal/store"
)

// Plan says what to write: Days of history ending on Last (local), for
// Member. The weight drifts from StartKg to EndKg with daily noise; a few
// days in ten have no weigh-in and a few no meals; workouts come four or
// five times a week, mostly strength.
type Plan struct {
	Member         string
	Last           time.Time
	Days           int
	StartKg, EndKg float64
	Seed           uint64
}

// Counts is what Write stored.
type Counts struct{ Weights, Meals, Workouts int }

// imports are the exports the history came from, as the importer records
// them (internal/history's summary names the apps from them).
var imports = []struct{ file, kind, profile string }{
	{"export.zip", "apple", ""},
	{"Nutrition-Summary.csv", "csv-meals", "MyFitnessPal Nutrition-Summary"},
	{"strong.csv", "csv-workouts", "Strong"},
}

// Write stores the plan's records as three finished imports (an Apple
// Health export's weigh-ins, MyFitnessPal's meals, Strong's workouts) in
// one transaction, with SQL: ten years take well under a second. The
// importer's own speed is measured in internal/importer.
func Write(ctx context.Context, db *store.DB, p Plan) (Counts, error) {
	rng := rand.New(rand.NewPCG(p.Seed, 35))
	loc := p.Last.Location()
	first := time.Date(p.Last.Year(), p.Last.Month(), p.Last.Day(), 0, 0, 0, 0, loc).AddDate(0, 0, -(p.Days - 1))
	created := store.FormatTime(time.Now())
	var c Counts
	err := db.Tx(ctx, func(tx *store.Tx) error {
		ids := make([]int64, len(imports))
		for i, im := range imports {
			summary := fmt.Sprintf(`{"file":%q,"kind":%q,"profile":%q}`, im.file, im.kind, im.profile)
			res, err := tx.ExecContext(ctx, `INSERT INTO imports (member_id, file_name, kind, status, started_at, summary)
				VALUES (?,?,?, 'complete', ?, ?)`, p.Member, im.file, im.kind, created, summary)
			if err != nil {
				return err
			}
			if ids[i], err = res.LastInsertId(); err != nil {
				return err
			}
		}
		for d := 0; d < p.Days; d++ {
			day := first.AddDate(0, 0, d)
			frac := float64(d) / math.Max(1, float64(p.Days-1))
			if rng.IntN(10) < 8 {
				kg := p.StartKg + (p.EndKg-p.StartKg)*frac + rng.NormFloat64()*0.4
				at := day.Add(7*time.Hour + time.Duration(rng.IntN(60))*time.Minute)
				if _, err := tx.ExecContext(ctx, `INSERT INTO weight_readings (member_id, measured_at, weight_kg, source, source_key,
					created_at, import_id) VALUES (?,?,?, 'apple_health', ?, ?, ?)`, p.Member, store.FormatTime(at),
					math.Round(kg*10)/10, fmt.Sprintf("gen-w-%d", d), created, ids[0]); err != nil {
					return err
				}
				c.Weights++
			}
			if rng.IntN(10) < 9 {
				for i, meal := range []struct {
					name string
					hour int
					kcal float64
				}{{"Breakfast", 8, 450}, {"Lunch", 13, 650}, {"Dinner", 19, 750}} {
					if _, err := tx.ExecContext(ctx, `INSERT INTO meals (member_id, eaten_at, name, calories, protein_g, carbs_g, fat_g,
						source, source_key, created_at, import_id) VALUES (?,?,?,?,?,?,?, 'csv', ?, ?, ?)`, p.Member,
						store.FormatTime(day.Add(time.Duration(meal.hour)*time.Hour)), meal.name, math.Round(meal.kcal*(0.8+0.4*rng.Float64())),
						math.Round(25+20*rng.Float64()), math.Round(50+30*rng.Float64()), math.Round(15+15*rng.Float64()),
						fmt.Sprintf("gen-m-%d-%d", d, i), created, ids[1]); err != nil {
						return err
					}
					c.Meals++
				}
			}
			if wd := day.Weekday(); wd != time.Sunday && wd != time.Wednesday && rng.IntN(10) < 8 {
				typ, mins := "strength", 45.0
				switch rng.IntN(5) {
				case 0:
					typ, mins = "run", 30
				case 1:
					typ, mins = "walk", 40
				}
				if _, err := tx.ExecContext(ctx, `INSERT INTO workouts (member_id, started_at, type, title, duration_min, source,
					source_key, created_at, import_id) VALUES (?,?,?,?,?, 'csv', ?, ?, ?)`, p.Member, store.FormatTime(day.Add(18*time.Hour)),
					typ, typ, mins, fmt.Sprintf("gen-x-%d", d), created, ids[2]); err != nil {
					return err
				}
				c.Workouts++
			}
		}
		return nil
	})
	if err != nil {
		return c, fmt.Errorf("historytest: %w", err)
	}
	return c, nil
}
