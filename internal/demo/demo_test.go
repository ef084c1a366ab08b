package demo

import (
	"context"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"
	_ "time/tzdata" // the tests need Europe/Berlin on any machine

	"hearth/internal/health"
	"hearth/internal/store"
	"hearth/internal/store/storetest"
)

func berlin(t *testing.T) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatalf("time zone: %v", err) // time/tzdata is linked in: never missing
	}
	return loc
}

type loaded struct {
	weights  []health.WeightReading
	meals    []health.Meal
	workouts []health.Workout
	scans    []health.BodyScan
	goals    []health.Goal
}

func load(t *testing.T, db *store.DB, id string) loaded {
	t.Helper()
	ctx := context.Background()
	var l loaded
	var err error
	if l.weights, err = db.Weights(ctx, id, store.Range{}); err != nil {
		t.Fatal(err)
	}
	if l.meals, err = db.Meals(ctx, id, store.Range{}); err != nil {
		t.Fatal(err)
	}
	if l.workouts, err = db.Workouts(ctx, id, store.Range{}); err != nil {
		t.Fatal(err)
	}
	if l.scans, err = db.BodyScans(ctx, id, store.Range{}); err != nil {
		t.Fatal(err)
	}
	if l.goals, err = db.Goals(ctx, id, true); err != nil {
		t.Fatal(err)
	}
	return l
}

func TestSeedEmptyDatabase(t *testing.T) {
	ctx := context.Background()
	loc := berlin(t)
	now := time.Date(2026, 3, 31, 19, 5, 0, 0, loc) // the window spans the DST change
	db := storetest.Open(t)
	seeded, err := Seed(ctx, db, now, loc, rand.New(rand.NewPCG(1, 2)))
	if err != nil || !seeded {
		t.Fatalf("Seed = %v, %v", seeded, err)
	}
	members, err := db.ListMembers(ctx)
	if err != nil || len(members) != 2 {
		t.Fatalf("members = %v, %v", members, err)
	}
	if members[0].Color == members[1].Color || members[0].Avatar == members[1].Avatar || members[0].Avatar == "" {
		t.Errorf("colours/avatars not distinct: %+v", members)
	}
	byID := map[string]health.Member{}
	for _, m := range members {
		byID[m.ID] = m
	}
	if byID["maya"].Unit != health.KG || byID["theo"].Unit != health.LB || byID["maya"].Targets.Calories == nil ||
		byID["theo"].GoalWeightKg == nil || byID["maya"].ActivityLevel != "moderate" {
		t.Fatalf("members = %+v", byID)
	}

	today := health.LocalDay(now, loc)
	first := today.AddDate(0, 0, -(Days - 1))
	yesterday := today.AddDate(0, 0, -1)
	fullWeeks := float64(Days) / 7
	for _, id := range []string{"maya", "theo"} {
		m, l := byID[id], load(t, db, id)
		t.Run(id, func(t *testing.T) {
			// Weights: most of the 60 days, none outside them, none in the future.
			if n := len(l.weights); n < 45 || n >= Days {
				t.Errorf("weights = %d, want most but not all of %d days", n, Days)
			}
			if d := health.LocalDay(l.weights[0].MeasuredAt, loc); d.Before(first) || d.After(first.AddDate(0, 0, 3)) {
				t.Errorf("first weigh-in on %v, want near %v", d, first)
			}
			for _, r := range l.weights {
				if r.Source != Source || r.MeasuredAt.After(now) || r.WeightKg < 60 || r.WeightKg > 90 {
					t.Fatalf("bad reading %+v", r)
				}
			}
			// Meals: 2-4 on logged days, a few gap days, yesterday empty for Maya only.
			hist := health.NutritionHistory(l.meals, m.Targets, Days-1, now, loc)
			wantMissing := map[string]int{"maya": 4, "theo": 3}[id]
			if hist.DaysMissing != wantMissing {
				t.Errorf("days without meals = %d (%v), want %d", hist.DaysMissing, hist.MissingDays, wantMissing)
			}
			for _, d := range hist.Days {
				if d.Meals != 0 && (d.Meals < 2 || d.Meals > 4) {
					t.Errorf("%v: %d meals", d.Day, d.Meals)
				}
			}
			y := health.NutritionDay(l.meals, m.Targets, yesterday, loc)
			if (id == "maya") != (y.Meals == 0) {
				t.Errorf("yesterday %d meals", y.Meals)
			}
			avg := hist.Average.Calories
			if avg.Percent == nil || *avg.Percent < 70 || *avg.Percent > 115 {
				t.Errorf("average calories %v vs target: %v%%", avg.Consumed, pct(avg.Percent))
			}
			// Workouts: 3-5 a week on average and in every full week.
			perWeek := float64(len(l.workouts)) / fullWeeks
			if perWeek < 3 || perWeek > 5 {
				t.Errorf("%.2f workouts a week, want 3-5", perWeek)
			}
			weeks := map[time.Time]int{}
			for _, w := range l.workouts {
				if w.Source != Source || w.DurationMin <= 0 || w.AvgHR == nil || w.MaxHR == nil || *w.MaxHR <= *w.AvgHR ||
					w.Title == "" || w.StartedAt.Add(time.Duration(w.DurationMin)*time.Minute).After(now) {
					t.Fatalf("bad workout %+v", w)
				}
				weeks[health.WeekStart(w.StartedAt, loc)]++
			}
			for wk := health.WeekStart(first, loc).AddDate(0, 0, 7); wk.AddDate(0, 0, 7).Before(today); wk = wk.AddDate(0, 0, 7) {
				if n := weeks[wk]; n < 3 || n > 5 {
					t.Errorf("week of %v: %d workouts", wk.Format(time.DateOnly), n)
				}
			}
			if len(l.goals) == 0 {
				t.Error("no goals")
			}
		})
	}
	maya, theo := load(t, db, "maya"), load(t, db, "theo")
	if len(maya.scans) != 2 || len(theo.scans) != 0 {
		t.Fatalf("scans maya %d theo %d, want 2 and 0", len(maya.scans), len(theo.scans))
	}
	if a, b := health.DaysAgo(maya.scans[0].ScannedAt, now, loc), health.DaysAgo(maya.scans[1].ScannedAt, now, loc); a != 42 || b != 7 {
		t.Errorf("scans %d and %d days ago, want 42 and 7", a, b)
	}
	types := map[string]bool{}
	for _, w := range append(maya.workouts, theo.workouts...) {
		types[w.Type] = true
	}
	if len(types) != 5 {
		t.Errorf("workout types %v, want strength, run, yoga, hiit and cycling", types)
	}
}

func pct(p *float64) float64 {
	if p == nil {
		return -1
	}
	return *p
}

func TestSeedNeverTouchesAHousehold(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 3, 15, 12, 0, 0, 0, time.UTC)

	t.Run("second call is a no-op", func(t *testing.T) {
		db := storetest.Open(t)
		if ok, err := Seed(ctx, db, now, time.UTC, rand.New(rand.NewPCG(1, 1))); !ok || err != nil {
			t.Fatalf("first Seed = %v, %v", ok, err)
		}
		before := counts(t, db)
		ok, err := Seed(ctx, db, now.Add(time.Hour), time.UTC, rand.New(rand.NewPCG(2, 2)))
		if ok || err != nil {
			t.Fatalf("second Seed = %v, %v", ok, err)
		}
		if after := counts(t, db); after != before {
			t.Errorf("rows changed: %v → %v", before, after)
		}
	})
	t.Run("existing member", func(t *testing.T) {
		db := storetest.Open(t)
		storetest.Member(t, db, "ada")
		ok, err := Seed(ctx, db, now, time.UTC, rand.New(rand.NewPCG(1, 1)))
		if ok || err != nil {
			t.Fatalf("Seed = %v, %v", ok, err)
		}
		if c := counts(t, db); c != [6]int{1, 0, 0, 0, 0, 0} {
			t.Errorf("rows = %v, want only the member", c)
		}
	})
}

// counts returns the row counts of members, weights, meals, workouts, scans, goals.
func counts(t *testing.T, db *store.DB) [6]int {
	t.Helper()
	var c [6]int
	for i, table := range []string{"members", "weight_readings", "meals", "workouts", "body_scans", "goals"} {
		if err := db.Read.QueryRow(`SELECT count(*) FROM ` + table).Scan(&c[i]); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

func TestPlanIsDeterministic(t *testing.T) {
	now := time.Date(2026, 3, 15, 12, 0, 0, 0, time.UTC)
	a := plan(now, time.UTC, rand.New(rand.NewPCG(7, 7)))
	b := plan(now, time.UTC, rand.New(rand.NewPCG(7, 7)))
	if !reflect.DeepEqual(a, b) {
		t.Fatal("same seed gave different households")
	}
	c := plan(now, time.UTC, rand.New(rand.NewPCG(8, 8)))
	if reflect.DeepEqual(a.weights, c.weights) || reflect.DeepEqual(a.meals, c.meals) {
		t.Error("different seeds gave the same data")
	}
}

func TestPlanEarlyMorningHasNothingInTheFuture(t *testing.T) {
	now := time.Date(2026, 3, 15, 5, 0, 0, 0, time.UTC)
	h := plan(now, time.UTC, rand.New(rand.NewPCG(3, 3)))
	today := health.LocalDay(now, time.UTC)
	for _, m := range h.meals {
		if !m.EatenAt.Before(now) {
			t.Fatalf("meal in the future: %+v", m)
		}
	}
	for _, w := range h.weights {
		if !w.MeasuredAt.Before(now) {
			t.Fatalf("weigh-in in the future: %+v", w)
		}
	}
	for _, w := range h.workouts {
		if !w.StartedAt.Before(today) {
			t.Fatalf("workout before 5 am: %+v", w)
		}
	}
}

// TestDemoTrendsConverge runs the health summaries over the demo data: both
// members trend toward their goals with an ETA, for the seeded database and
// for a range of other seeds.
func TestDemoTrendsConverge(t *testing.T) {
	ctx := context.Background()
	loc := berlin(t)
	now := time.Date(2026, 3, 31, 19, 5, 0, 0, loc)
	db := storetest.Open(t)
	if _, err := Seed(ctx, db, now, loc, rand.New(rand.NewPCG(1, 2))); err != nil {
		t.Fatal(err)
	}
	members, _ := db.ListMembers(ctx)
	for _, m := range members {
		l := load(t, db, m.ID)
		tr := health.WeightTrend(l.weights, m, now, loc)
		checkConverging(t, m, tr)
		s := health.DaySummary(m, health.Records{Weights: l.weights, Meals: l.meals, Workouts: l.workouts, Scans: l.scans}, now, now, loc)
		t.Logf("%s:\n%s", m.Name, s.Text(loc))
		if m.ID == "maya" && (s.BodyComposition == nil || s.LoggingStreak != 1) {
			t.Errorf("maya: scan %v, streak %d (today only, yesterday is the gap)", s.BodyComposition, s.LoggingStreak)
		}
	}
	for seed := uint64(10); seed < 40; seed++ {
		h := plan(now, loc, rand.New(rand.NewPCG(seed, seed)))
		for _, m := range h.members {
			var rs []health.WeightReading
			for _, r := range h.weights {
				if r.MemberID == m.ID {
					rs = append(rs, r)
				}
			}
			checkConverging(t, m, health.WeightTrend(rs, m, now, loc))
		}
	}
}

func checkConverging(t *testing.T, m health.Member, tr health.Trend) {
	t.Helper()
	g := tr.Goal
	if g.Status != health.ETAOnTrack || g.DaysToGoal == nil || *g.DaysToGoal < 14 || *g.DaysToGoal > 180 {
		t.Errorf("%s: goal %s (%s), days %v; trend: %s", m.ID, g.Status, g.Note, g.DaysToGoal, tr.Text())
		return
	}
	toward := *tr.Change30dKg < 0
	if *m.GoalWeightKg > *tr.TrendKg {
		toward = *tr.Change30dKg > 0
	}
	if !toward {
		t.Errorf("%s: 30-day change %v moves away from goal", m.ID, *tr.Change30dKg)
	}
}
