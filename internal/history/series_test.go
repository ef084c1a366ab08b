package history_test

import (
	"context"
	"testing"
	"time"

	"hearth/internal/health"
	"hearth/internal/history"
	"hearth/internal/history/historytest"
	"hearth/internal/store"
	"hearth/internal/store/storetest"
)

func tenYearsTo(tb testing.TB, last time.Time) (*store.DB, historytest.Counts) {
	tb.Helper()
	ctx := context.Background()
	db := storetest.Open(tb)
	if _, err := db.CreateMember(ctx, health.Member{ID: "ada", Name: "Ada"}); err != nil {
		tb.Fatal(err)
	}
	c, err := historytest.Write(ctx, db, historytest.Plan{Member: "ada", Last: last, Days: 3653, StartKg: 92, EndKg: 84, Seed: 1})
	if err != nil {
		tb.Fatal(err)
	}
	return db, c
}

// Ten years of imported history that ended in March 2024, read in
// November 2026: "All" reaches back to the first record in months; the
// last three months are empty, but the history is there ("since").
func TestSeriesOfImportedYears(t *testing.T) {
	last := time.Date(2024, 3, 14, 0, 0, 0, 0, time.UTC)
	db, c := tenYearsTo(t, last)
	now := time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)
	l := history.NewLoader(db, time.UTC)
	all, err := l.Load(context.Background(), "ada", history.All, now)
	if err != nil {
		t.Fatal(err)
	}
	first := last.AddDate(0, 0, -3652)
	if !all.From.Equal(first) || !all.Since.Before(first.AddDate(0, 0, 1)) || all.Grain != history.Monthly || all.WeightGrain != history.Monthly {
		t.Fatalf("all: from %v since %v grain %s/%s", all.From, all.Since, all.Grain, all.WeightGrain)
	}
	if all.Meals != c.Meals || all.Workouts != c.Workouts || all.WeighIns != c.Weights {
		t.Errorf("all counts meals %d workouts %d weigh-ins %d, stored %+v", all.Meals, all.Workouts, all.WeighIns, c)
	}
	sumMeals, sumWorkouts := 0, 0
	for _, b := range all.Buckets {
		sumMeals += b.Meals
		sumWorkouts += b.Workouts
	}
	if sumMeals != c.Meals || sumWorkouts != c.Workouts {
		t.Errorf("buckets hold %d meals, %d workouts; stored %+v", sumMeals, sumWorkouts, c)
	}
	// Months from March 2014 to November 2026.
	if n := len(all.Buckets); n != 153 {
		t.Errorf("%d monthly buckets, want 153", n)
	}
	if n := len(all.Weight); n < 115 || n > 122 {
		t.Errorf("%d weight points, want one per month with weigh-ins (~121)", n)
	}
	if all.Last == nil || all.Last.MeasuredAt.Before(last.AddDate(0, 0, -5)) || all.Last.MeasuredAt.After(last.AddDate(0, 0, 1)) || all.First == nil || all.First.MeasuredAt.After(first.AddDate(0, 0, 5)) {
		t.Errorf("first %+v last %+v", all.First, all.Last)
	}
	if tr := all.Weight[len(all.Weight)-1].TrendKg; tr < 83 || tr > 85.5 {
		t.Errorf("final trend %.2f, want ~84", tr)
	}
	if all.Types[0].Type != "strength" {
		t.Errorf("types %+v, want strength first", all.Types)
	}

	q, err := l.Load(context.Background(), "ada", history.Quarter, now)
	if err != nil {
		t.Fatal(err)
	}
	if !q.Empty() || q.Since.IsZero() || q.Grain != history.Daily || len(q.Buckets) != 92 {
		t.Errorf("3 months: empty %v since %v grain %s buckets %d", q.Empty(), q.Since, q.Grain, len(q.Buckets))
	}
}

// A member logging now: 3 months are days, 12 months weeks; a week cut
// by the span's start counts only its days inside it, and a day with
// three meals is one logged day.
func TestSeriesBuckets(t *testing.T) {
	now := time.Date(2026, 11, 28, 21, 0, 0, 0, time.UTC) // a Saturday
	db, _ := tenYearsTo(t, now)
	l := history.NewLoader(db, time.UTC)
	q, err := l.Load(context.Background(), "ada", history.Quarter, now)
	if err != nil {
		t.Fatal(err)
	}
	if q.Grain != history.Daily || !q.From.Equal(time.Date(2026, 8, 29, 0, 0, 0, 0, time.UTC)) || len(q.Buckets) != 92 {
		t.Fatalf("3 months: grain %s from %v buckets %d", q.Grain, q.From, len(q.Buckets))
	}
	for _, b := range q.Buckets {
		if b.Days != 1 || (b.Meals > 0) != (b.DaysLogged == 1) || b.Meals%3 != 0 {
			t.Fatalf("day %v: %+v", b.Start, b)
		}
	}
	y, err := l.Load(context.Background(), "ada", history.Year, now)
	if err != nil {
		t.Fatal(err)
	}
	if y.Grain != history.Weekly || y.WeightGrain != history.Daily {
		t.Fatalf("12 months: grain %s weight %s", y.Grain, y.WeightGrain)
	}
	// 29 Nov 2025 is a Saturday: its week's bucket starts Monday 24 Nov
	// and holds two days of the span.
	if b := y.Buckets[0]; !b.Start.Equal(time.Date(2025, 11, 24, 0, 0, 0, 0, time.UTC)) || b.Days != 2 {
		t.Errorf("first week %+v", b)
	}
	if b := y.Buckets[len(y.Buckets)-1]; b.Days != 6 { // Monday 23 Nov to today
		t.Errorf("last week %+v", b)
	}
}

// BenchmarkSeriesTenYears loads "All" of ten years of daily records (the
// history view's data; its page render is measured in web/kiosk).
func BenchmarkSeriesTenYears(b *testing.B) {
	now := time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)
	db, _ := tenYearsTo(b, now)
	l := history.NewLoader(db, time.UTC)
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		if _, err := l.Load(ctx, "ada", history.All, now); err != nil {
			b.Fatal(err)
		}
	}
}
