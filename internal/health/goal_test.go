package health

import (
	"strings"
	"testing"
	"time"
)

// linear returns one reading a day at 08:00 for n days ending on now's day,
// starting at start and changing by perDay.
func linear(now time.Time, loc *time.Location, n int, start, perDay float64) []WeightReading {
	var rs []WeightReading
	first := LocalDay(now, loc).AddDate(0, 0, -(n - 1))
	for k := range n {
		d := first.AddDate(0, 0, k)
		rs = append(rs, w(time.Date(d.Year(), d.Month(), d.Day(), 8, 0, 0, 0, loc), start+perDay*float64(k)))
	}
	return rs
}

func TestGoalProgress(t *testing.T) {
	utc := time.UTC
	now := on(utc, 2026, 3, 15, 20, 0)
	today := on(utc, 2026, 3, 15, 0, 0)
	// A long steady series: after warm-up the EWMA lags a linear series by
	// −slope·(1−α)/α, e.g. 0.9 kg above a loss of 0.1 kg/day.
	losing := linear(now, utc, 200, 90, -0.1)  // today 70.1, trend 71.0
	gaining := linear(now, utc, 200, 60, 0.05) // today 69.95, trend 69.5
	tests := []struct {
		name     string
		readings []WeightReading
		goal     float64
		start    *float64
		status   ETAStatus
		note     string
		cur      *float64
		toGo     *float64
		pct      *float64
		pace     *float64
		days     *int
	}{
		{name: "losing on track: 6 kg at 0.1 kg/day = 60 days", readings: losing, goal: 65,
			status: ETAOnTrack, cur: f(71), toGo: f(-6), pct: f(76), pace: f(-0.7), days: i(60)},
		{name: "given start changes percent: (95−71)/(95−65)", readings: losing, goal: 65, start: f(95),
			status: ETAOnTrack, cur: f(71), toGo: f(-6), pct: f(80), pace: f(-0.7), days: i(60)},
		{name: "gaining on track: 2.5 kg at 0.05 kg/day = 50 days", readings: gaining, goal: 72,
			status: ETAOnTrack, cur: f(69.5), toGo: f(2.5), pct: f(79.2), pace: f(0.35), days: i(50)},
		{name: "diverging: gaining while the goal is below", readings: linear(now, utc, 30, 70, 0.05), goal: 65,
			status: ETANotConverging, note: "moving away"},
		{name: "flat", readings: linear(now, utc, 30, 80, 0), goal: 75,
			status: ETANotConverging, note: "flat", cur: f(80), toGo: f(-5), pct: f(0), pace: f(0)},
		{name: "too slow: 10.1 kg at 0.07 kg/week", readings: linear(now, utc, 200, 100, -0.01), goal: 88,
			status: ETANotConverging, note: "two years", cur: f(98.1), pace: f(-0.07)},
		{name: "within tolerance is reached", readings: linear(now, utc, 30, 75.3, 0), goal: 75,
			status: ETAReached, cur: f(75.3), toGo: f(-0.3), pct: f(100), pace: f(0)},
		{name: "past the goal from the start side is reached", readings: linear(now, utc, 30, 73, 0), goal: 75, start: f(80),
			status: ETAReached, cur: f(73), toGo: f(2), pct: f(100), pace: f(0)},
		{name: "one reading", readings: linear(now, utc, 1, 80, 0), goal: 75,
			status: ETATooFewReadings, cur: f(80), toGo: f(-5), pct: f(0)},
		{name: "recent readings span only 10 days", readings: linear(now, utc, 10, 80, -0.1), goal: 75,
			status: ETATooFewReadings},
		{name: "three readings over 3 weeks", readings: []WeightReading{w(today.AddDate(0, 0, -20), 80),
			w(today.AddDate(0, 0, -10), 79), w(today, 78)}, goal: 75, status: ETATooFewReadings},
		{name: "only stale readings (40+ days old)", readings: linear(on(utc, 2026, 2, 1, 9, 0), utc, 30, 80, -0.1), goal: 75,
			status: ETATooFewReadings},
		{name: "no readings", goal: 75, status: ETANoData},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := GoalProgress(tc.readings, tc.goal, tc.start, now, utc)
			if got.Status != tc.status || !strings.Contains(got.Note, tc.note) {
				t.Fatalf("status %q (%s), want %q (%s)", got.Status, got.Note, tc.status, tc.note)
			}
			if !eqF(got.GoalKg, f(tc.goal)) {
				t.Errorf("goal %s", fs(got.GoalKg))
			}
			check := func(name string, got, want *float64) {
				if want != nil && !eqF(got, want) {
					t.Errorf("%s = %s, want %s", name, fs(got), fs(want))
				}
			}
			check("current", got.CurrentKg, tc.cur)
			check("to go", got.ToGoKg, tc.toGo)
			check("percent", got.Percent, tc.pct)
			check("pace", got.PaceKgPerWeek, tc.pace)
			if !eqI(got.DaysToGoal, tc.days) {
				t.Errorf("days to goal %s, want %s", is(got.DaysToGoal), is(tc.days))
			}
			if tc.days != nil && !got.ETA.Equal(today.AddDate(0, 0, *tc.days)) {
				t.Errorf("ETA %v, want today + %d", got.ETA, *tc.days)
			} else if tc.days == nil && got.ETA != nil {
				t.Errorf("unexpected ETA %v", got.ETA)
			}
		})
	}
}

func TestGoalETAIsALocalDayAcrossDST(t *testing.T) {
	loc := berlin(t)
	now := on(loc, 2026, 3, 20, 21, 0)
	got := GoalProgress(linear(now, loc, 200, 90, -0.1), 65, nil, now, loc)
	// 60 days after 20 March, counted in calendar days over the DST change.
	if got.Status != ETAOnTrack || !got.ETA.Equal(on(loc, 2026, 5, 19, 0, 0)) {
		t.Fatalf("status %s ETA %v, want 19 May 00:00 CEST", got.Status, got.ETA)
	}
}

func TestWeightTrendGoal(t *testing.T) {
	now := on(time.UTC, 2026, 3, 15, 20, 0)
	m := Member{GoalWeightKg: f(65)}
	got := WeightTrend(linear(now, time.UTC, 200, 90, -0.1), m, now, time.UTC)
	if got.Goal.Status != ETAOnTrack || !eqI(got.Goal.DaysToGoal, i(60)) || !eqF(got.Goal.StartKg, f(90)) {
		t.Fatalf("goal = %+v", got.Goal)
	}
	if none := WeightTrend(nil, m, now, time.UTC); none.Goal.Status != ETANoData {
		t.Errorf("no readings with a goal: %q", none.Goal.Status)
	}
}

func TestLinearSlope(t *testing.T) {
	if got := linearSlope([]float64{0, 1, 2, 3}, []float64{1, 3, 5, 7}); got != 2 {
		t.Errorf("exact line slope = %v, want 2", got)
	}
	// mean (1,1): Σ(x−x̄)(y−ȳ) = 1, Σ(x−x̄)² = 2.
	if got := linearSlope([]float64{0, 1, 2}, []float64{0, 2, 1}); got != 0.5 {
		t.Errorf("noisy slope = %v, want 0.5", got)
	}
}
