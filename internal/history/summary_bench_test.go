package history_test

import (
	"context"
	"testing"
	"time"

	"hearth/internal/history"
	"hearth/internal/history/historytest"
	"hearth/internal/store/storetest"
)

// BenchmarkSummaryTenYears: the summary of a member with ten years of
// daily weights, meals and workouts, beside another member with as much
// (target: well under 20 ms; BENCHMARKS.md).
func BenchmarkSummaryTenYears(b *testing.B) {
	db := storetest.Open(b)
	var c historytest.Counts
	for _, m := range []string{"ann", "bob"} {
		storetest.Member(b, db, m)
		var err error
		if c, err = historytest.Write(context.Background(), db, historytest.Plan{Member: m, Last: time.Now(), Days: 3653,
			StartKg: 92, EndKg: 84, Seed: 11}); err != nil {
			b.Fatal(err)
		}
	}
	ctx := context.Background()
	s, err := history.Summarize(ctx, db, "ann")
	if err != nil {
		b.Fatal(err)
	}
	if s.Weights.Count != c.Weights || s.Meals.Count != c.Meals || s.Workouts.Count != c.Workouts || s.Mostly() != "strength" ||
		s.Meals.Sources[0].Name != "MyFitnessPal" || s.Workouts.Sources[0].Name != "Strong" || s.Trend == nil || s.Trend.Months < 120 {
		b.Fatalf("summary: %d weights, %d meals, %d workouts, mostly %q, meal sources %+v, trend %+v",
			s.Weights.Count, s.Meals.Count, s.Workouts.Count, s.Mostly(), s.Meals.Sources, s.Trend)
	}
	for b.Loop() {
		if _, err := history.Summarize(ctx, db, "ann"); err != nil {
			b.Fatal(err)
		}
	}
}
