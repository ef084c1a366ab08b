package health

import (
	"testing"
	"time"
)

func TestFormatDeltaAndThousands(t *testing.T) {
	deltas := []struct {
		u    Unit
		kg   float64
		want string
	}{
		{KG, -0.6, "−0.6 kg"},
		{KG, 1.25, "+1.3 kg"},
		{KG, -0.04, "±0.0 kg"},
		{LB, 1, "+2.2 lb"},
		{LB, -0.52, "−1.1 lb"},
		{"", 0.5, "+0.5 kg"},
	}
	for _, d := range deltas {
		if got := d.u.FormatDelta(d.kg); got != d.want {
			t.Errorf("%s.FormatDelta(%v) = %q, want %q", d.u, d.kg, got, d.want)
		}
	}
	for v, want := range map[float64]string{0: "0", 999: "999", 1640: "1,640", 1234567: "1,234,567", -1500: "−1,500", 2176.2: "2,176"} {
		if got := formatThousands(v); got != want {
			t.Errorf("formatThousands(%v) = %q, want %q", v, got, want)
		}
	}
}

func TestTrendText(t *testing.T) {
	utc := time.UTC
	now := on(utc, 2026, 3, 15, 20, 0)
	weekly := []WeightReading{w(on(utc, 2026, 3, 8, 7, 0), 80), w(on(utc, 2026, 3, 15, 7, 0), 79)}
	tests := []struct {
		name     string
		m        Member
		readings []WeightReading
		want     string
	}{
		{"no data", Member{}, nil, "no weigh-ins yet"},
		{"no data with a goal", Member{GoalWeightKg: f(70)}, nil, "no weigh-ins yet; goal 70 kg, no weigh-ins yet"},
		{"kg, no goal", Member{}, weekly, "79 kg, −0.5 kg this week (trend 79.5 kg)"},
		{"lb with goal, too few readings", Member{Unit: LB, GoalWeightKg: f(70)}, weekly,
			"174.2 lb, −1.1 lb this week (trend 175.2 lb); goal 154.3 lb: 20.9 lb to lose, no ETA (needs weigh-ins on at least 4 days spanning 2 weeks within the last 4 weeks)"},
		{"stale weigh-in", Member{}, weekly[:1], "80 kg (trend 80 kg); last weigh-in 7 days ago"},
		{"on track", Member{GoalWeightKg: f(65)}, linear(now, utc, 200, 90, -0.1),
			"70.1 kg, −0.7 kg this week (trend 71 kg); goal 65 kg: 6 kg to lose, ETA Thu 14 May 2026 (in 60 days) at −0.7 kg/week"},
		{"reached", Member{GoalWeightKg: f(80)}, linear(now, utc, 30, 80, 0), "80 kg, ±0.0 kg this week (trend 80 kg); goal 80 kg reached"},
	}
	for _, tc := range tests {
		if got := WeightTrend(tc.readings, tc.m, now, utc).Text(); got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
}

func TestOtherTexts(t *testing.T) {
	utc := time.UTC
	now := on(utc, 2026, 3, 15, 20, 0)
	meals := []Meal{meal(on(utc, 2026, 3, 15, 8, 0), 450, 30, 50, 12), meal(on(utc, 2026, 3, 15, 13, 0), 1190, 62, 130, 43)}
	if got, want := NutritionDay(meals, fullTargets, now, utc).Text(),
		"1,640 of 2,000 kcal (82%), protein 92 of 140 g, carbs 180 of 200 g, fat 55 of 70 g; 2 meals"; got != want {
		t.Errorf("day:\n got %q\nwant %q", got, want)
	}
	if got, want := NutritionDay(meals, Targets{ProteinG: f(120)}, now, utc).Text(),
		"1,640 kcal, protein 92 of 120 g, carbs 180 g, fat 55 g; 2 meals"; got != want {
		t.Errorf("day without most targets:\n got %q\nwant %q", got, want)
	}
	hist := []Meal{meal(on(utc, 2026, 3, 14, 8, 0), 1800, 100, 200, 60), meal(on(utc, 2026, 3, 12, 8, 0), 1600, 120, 150, 50)}
	if got, want := NutritionHistory(hist, Targets{Calories: f(1700)}, 4, now, utc).Text(),
		"4 days to Sat 14 Mar 2026: 2 logged (missing Wed 11 Mar, Fri 13 Mar), daily average 1,700 of 1,700 kcal (100%), protein 110 g, carbs 175 g, fat 55 g"; got != want {
		t.Errorf("history:\n got %q\nwant %q", got, want)
	}
	if got, want := NutritionHistory(nil, Targets{}, 10, now, utc).Text(),
		"10 days to Sat 14 Mar 2026: 0 logged (missing …, Sun 8 Mar, Mon 9 Mar, Tue 10 Mar, Wed 11 Mar, Thu 12 Mar, Fri 13 Mar, Sat 14 Mar)"; got != want {
		t.Errorf("empty history:\n got %q\nwant %q", got, want)
	}
	x := Workout{StartedAt: on(utc, 2026, 3, 9, 23, 30), Type: "strength", Title: "Upper body", DurationMin: 44.6, AvgHR: i(132)}
	if got, want := x.Summarize().Text(berlin(t)), "Tue 10 Mar 2026: strength, Upper body, 45 min, avg HR 132"; got != want {
		t.Errorf("workout (local date):\n got %q\nwant %q", got, want)
	}
	st := WorkoutStats([]Workout{x, wo(on(utc, 2026, 3, 3, 7, 0), "run", 30)}, now, utc)
	if got, want := st.Text(), "1 workout this week (45 min), usually 1 a week; last workout 6 days ago"; got != want {
		t.Errorf("stats:\n got %q\nwant %q", got, want)
	}
}
