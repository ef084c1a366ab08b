package health

import (
	"testing"
	"time"
)

func TestWeightTrend(t *testing.T) {
	utc := time.UTC
	now := on(utc, 2026, 3, 15, 20, 0)
	day := func(d int) time.Time { return on(utc, 2026, 3, d, 7, 0) }
	bf := w(day(15), 78.2)
	bf.BodyFatPct, bf.LeanMassKg = f(25.04), f(55.555)
	type pt struct {
		day        int
		raw, trend *float64
	}
	tests := []struct {
		name             string
		readings         []WeightReading
		current, trend   *float64
		change7, change3 *float64 // change3 = 30-day change
		daysSince        *int
		n                int
		points           []pt // March days; nil = don't check
	}{
		{name: "no data"},
		{name: "one reading", readings: []WeightReading{w(day(15), 80)},
			current: f(80), trend: f(80), daysSince: i(0), n: 1, points: []pt{{15, f(80), f(80)}}},
		{name: "three days: 80, 79, 81 → 80, 79.9, 80.01",
			readings: []WeightReading{w(day(13), 80), w(day(14), 79), w(day(15), 81)},
			current:  f(81), trend: f(80.01), daysSince: i(0), n: 3,
			points: []pt{{13, f(80), f(80)}, {14, f(79), f(79.9)}, {15, f(81), f(80.01)}}},
		{name: "two-day gap weighs 1-0.9² = 0.19; no change without a reading in the window",
			readings: []WeightReading{w(day(5), 80), w(day(7), 78)},
			current:  f(78), trend: f(79.62), daysSince: i(8), n: 2},
		{name: "73-day gap nearly resets the trend",
			readings: []WeightReading{w(on(utc, 2026, 1, 1, 7, 0), 90), w(day(15), 80)},
			current:  f(80), trend: f(80), change7: f(-10), change3: f(-10), daysSince: i(0), n: 2},
		{name: "out of order, two readings on one day averaged, latest is current",
			readings: []WeightReading{w(day(14), 79), bf, w(day(13), 80), w(on(utc, 2026, 3, 14, 20, 0), 81)},
			current:  f(78.2), trend: f(79.82), daysSince: i(0), n: 4,
			points: []pt{{13, f(80), f(80)}, {14, f(80), f(80)}, {15, f(78.2), f(79.82)}}},
		{name: "7-day change: 80 then 79 a week later → trend 79.48",
			readings: []WeightReading{w(day(8), 80), w(day(15), 79)},
			current:  f(79), trend: f(79.48), change7: f(-0.52), daysSince: i(0), n: 2},
		{name: "future reading and zero weight ignored; no point on the day since without a weigh-in",
			readings: []WeightReading{w(day(14), 80), w(on(utc, 2026, 3, 16, 7, 0), 70), w(day(15), 0)},
			current:  f(80), trend: f(80), daysSince: i(1), n: 1,
			points: []pt{{14, f(80), f(80)}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := WeightTrend(tc.readings, Member{ID: "ada"}, now, utc)
			if got.Readings != tc.n || !eqF(got.CurrentKg, tc.current) || !eqF(got.TrendKg, tc.trend) ||
				!eqF(got.Change7dKg, tc.change7) || !eqF(got.Change30dKg, tc.change3) || !eqI(got.DaysSinceWeighIn, tc.daysSince) {
				t.Fatalf("got n=%d current=%s trend=%s 7d=%s 30d=%s since=%s; want n=%d current=%s trend=%s 7d=%s 30d=%s since=%s",
					got.Readings, fs(got.CurrentKg), fs(got.TrendKg), fs(got.Change7dKg), fs(got.Change30dKg), is(got.DaysSinceWeighIn),
					tc.n, fs(tc.current), fs(tc.trend), fs(tc.change7), fs(tc.change3), is(tc.daysSince))
			}
			if got.Unit != KG || got.Goal.Status != ETANoGoal {
				t.Errorf("unit %q goal %q", got.Unit, got.Goal.Status)
			}
			if tc.points == nil {
				return
			}
			if len(got.Points) != len(tc.points) {
				t.Fatalf("points = %+v, want %d", got.Points, len(tc.points))
			}
			for k, p := range tc.points {
				g := got.Points[k]
				if !g.Day.Equal(on(utc, 2026, 3, p.day, 0, 0)) || !eqF(g.RawKg, p.raw) || !eqF(&g.TrendKg, p.trend) {
					t.Errorf("point %d = %v raw %s trend %v, want day %d raw %s trend %s", k, g.Day, fs(g.RawKg), g.TrendKg, p.day, fs(p.raw), fs(p.trend))
				}
			}
		})
	}
}

func TestWeightTrendLatestExtras(t *testing.T) {
	now := on(time.UTC, 2026, 3, 15, 20, 0)
	r := w(on(time.UTC, 2026, 3, 15, 7, 0), 78.2)
	r.BodyFatPct, r.LeanMassKg = f(25.04), f(55.555)
	got := WeightTrend([]WeightReading{w(on(time.UTC, 2026, 3, 14, 7, 0), 79), r}, Member{}, now, time.UTC)
	if !eqF(got.BodyFatPct, f(25)) || !eqF(got.LeanMassKg, f(55.56)) || !got.LastWeighIn.Equal(r.MeasuredAt) {
		t.Fatalf("bf %s lean %s last %v", fs(got.BodyFatPct), fs(got.LeanMassKg), got.LastWeighIn)
	}
}

func TestWeightTrendChartWindow(t *testing.T) {
	now := on(time.UTC, 2026, 3, 31, 9, 0)
	var rs []WeightReading
	for d := 0; d < 60; d++ {
		if d%3 == 0 { // a weigh-in every third day, the last on 30 Mar
			rs = append(rs, w(on(time.UTC, 2026, 2, 1+d, 7, 0), 80))
		}
	}
	got := WeightTrend(rs, Member{}, now, time.UTC)
	// One point per weigh-in day of the last ChartDays days (2–31 Mar):
	// none carried forward to days without one.
	if len(got.Points) != 10 {
		t.Fatalf("points = %d, want 10 (every third day)", len(got.Points))
	}
	if first := got.Points[0].Day; !first.Equal(on(time.UTC, 2026, 3, 3, 0, 0)) {
		t.Errorf("first chart day %v, want 3 Mar", first)
	}
	if last := got.Points[len(got.Points)-1].Day; !last.Equal(on(time.UTC, 2026, 3, 30, 0, 0)) {
		t.Errorf("last chart day %v, want 30 Mar (the last weigh-in)", last)
	}
	for _, p := range got.Points {
		if p.RawKg == nil {
			t.Errorf("%v: a point without its weigh-in", p.Day)
		}
	}
}

// A trend is not drawn past the last weigh-in: twelve days without one
// leave the chart's last twelve days empty (the chart shows a gap), not a
// flat line "measured" to today.
func TestWeightTrendStopsAtTheLastWeighIn(t *testing.T) {
	now := on(time.UTC, 2026, 3, 31, 9, 0)
	var rs []WeightReading
	for d := 1; d <= 19; d++ {
		rs = append(rs, w(on(time.UTC, 2026, 3, d, 7, 0), 80-float64(d)/10))
	}
	got := WeightTrend(rs, Member{}, now, time.UTC)
	if n := len(got.Points); n != 18 {
		t.Fatalf("points = %d, want 18 (2–19 Mar)", n)
	}
	if last := got.Points[17].Day; !last.Equal(on(time.UTC, 2026, 3, 19, 0, 0)) {
		t.Errorf("last point %v, want 19 Mar", last)
	}
	all := WeightSeries(rs, now, time.UTC)
	if len(all) != 19 || all[0].TrendKg != 79.9 || *all[18].RawKg != 78.1 {
		t.Errorf("series: %d points, first trend %v, last raw %v", len(all), all[0].TrendKg, *all[18].RawKg)
	}
}

func TestWeightTrendDSTDayBoundary(t *testing.T) {
	loc := berlin(t)
	// Both readings fall on 28 March in UTC but on two local days in Berlin.
	rs := []WeightReading{w(on(loc, 2026, 3, 28, 23, 30), 80), w(on(loc, 2026, 3, 29, 0, 30), 79)}
	now := on(loc, 2026, 3, 29, 12, 0)
	got := WeightTrend(rs, Member{}, now, loc)
	if !eqF(got.TrendKg, f(79.9)) || len(got.Points) != 2 {
		t.Fatalf("trend %s points %d, want 79.9 over 2 local days", fs(got.TrendKg), len(got.Points))
	}
	if !got.Points[1].Day.Equal(on(loc, 2026, 3, 29, 0, 0)) {
		t.Errorf("second point day %v", got.Points[1].Day)
	}
	utc := WeightTrend(rs, Member{}, now, time.UTC)
	if !eqF(utc.TrendKg, f(79.5)) {
		t.Errorf("in UTC the two readings share a day: trend %s, want 79.5", fs(utc.TrendKg))
	}
}
