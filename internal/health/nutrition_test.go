package health

import (
	"testing"
	"time"
)

func meal(at time.Time, kcal, p, c, fat float64) Meal {
	return Meal{EatenAt: at, Name: "x", Calories: kcal, ProteinG: p, CarbsG: c, FatG: fat}
}

var fullTargets = Targets{Calories: f(2000), ProteinG: f(140), CarbsG: f(200), FatG: f(70)}

func TestNutritionDay(t *testing.T) {
	utc := time.UTC
	day := on(utc, 2026, 3, 15, 21, 0)
	today := []Meal{
		meal(on(utc, 2026, 3, 15, 8, 0), 450, 30, 50, 12),
		meal(on(utc, 2026, 3, 15, 13, 0), 650, 40, 70, 20),
		meal(on(utc, 2026, 3, 15, 19, 0), 540, 22, 60, 23),
		meal(on(utc, 2026, 3, 14, 19, 0), 900, 50, 90, 30), // yesterday: excluded
	}
	type mp struct{ consumed, target, remaining, percent *float64 }
	tests := []struct {
		name    string
		meals   []Meal
		targets Targets
		n       int
		kcal    mp
		protein mp
		fat     mp
	}{
		{name: "three meals vs targets", meals: today, targets: fullTargets, n: 3,
			kcal:    mp{f(1640), f(2000), f(360), f(82)},
			protein: mp{f(92), f(140), f(48), f(65.7)},
			fat:     mp{f(55), f(70), f(15), f(78.6)}},
		{name: "no targets", meals: today, n: 3,
			kcal: mp{consumed: f(1640)}, protein: mp{consumed: f(92)}, fat: mp{consumed: f(55)}},
		{name: "zero target counts as unset", meals: today, targets: Targets{Calories: f(0), FatG: f(50)}, n: 3,
			kcal: mp{consumed: f(1640)}, protein: mp{consumed: f(92)}, fat: mp{f(55), f(50), f(-5), f(110)}},
		{name: "no meals", targets: fullTargets,
			kcal: mp{f(0), f(2000), f(2000), f(0)}, protein: mp{f(0), f(140), f(140), f(0)}, fat: mp{f(0), f(70), f(70), f(0)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := NutritionDay(tc.meals, tc.targets, day, utc)
			if got.Meals != tc.n || !got.Day.Equal(on(utc, 2026, 3, 15, 0, 0)) {
				t.Fatalf("meals %d day %v", got.Meals, got.Day)
			}
			for _, c := range []struct {
				name string
				got  MacroProgress
				want mp
			}{{"kcal", got.VsTargets.Calories, tc.kcal}, {"protein", got.VsTargets.Protein, tc.protein}, {"fat", got.VsTargets.Fat, tc.fat}} {
				if !eqF(&c.got.Consumed, c.want.consumed) || !eqF(c.got.Target, c.want.target) ||
					!eqF(c.got.Remaining, c.want.remaining) || !eqF(c.got.Percent, c.want.percent) {
					t.Errorf("%s = %v/%s/%s/%s, want %s/%s/%s/%s", c.name, c.got.Consumed, fs(c.got.Target), fs(c.got.Remaining),
						fs(c.got.Percent), fs(c.want.consumed), fs(c.want.target), fs(c.want.remaining), fs(c.want.percent))
				}
			}
			if tc.n == 3 && (got.Totals != Macros{Calories: 1640, ProteinG: 92, CarbsG: 180, FatG: 55}) {
				t.Errorf("totals %+v", got.Totals)
			}
		})
	}
}

func TestRemainingMacrosOverTarget(t *testing.T) {
	got := RemainingMacros(Macros{Calories: 2250.4, ProteinG: 150.26, CarbsG: 10}, fullTargets)
	if !eqF(got.Calories.Remaining, f(-250)) || !eqF(got.Calories.Percent, f(112.5)) ||
		!eqF(got.Protein.Remaining, f(-10.3)) || !eqF(got.Carbs.Remaining, f(190)) || !eqF(got.Fat.Percent, f(0)) {
		t.Fatalf("%+v", got)
	}
}

func TestNutritionDayDSTBoundary(t *testing.T) {
	loc := berlin(t)
	meals := []Meal{
		meal(on(loc, 2026, 3, 28, 23, 30), 100, 0, 0, 0), // Saturday
		meal(on(loc, 2026, 3, 29, 0, 30), 200, 0, 0, 0),  // Sunday, still CET: 23:30Z on the 28th
		meal(on(loc, 2026, 3, 29, 23, 30), 300, 0, 0, 0), // Sunday, CEST: 21:30Z
		meal(on(loc, 2026, 3, 30, 0, 10), 400, 0, 0, 0),  // Monday
	}
	got := NutritionDay(meals, Targets{}, on(loc, 2026, 3, 29, 12, 0), loc)
	if got.Meals != 2 || got.Totals.Calories != 500 {
		t.Fatalf("Sunday 29 March in Berlin: %d meals, %v kcal; want 2, 500", got.Meals, got.Totals.Calories)
	}
	// A fixed +01:00 offset would put the 23:30 CEST meal on Sunday and
	// the 00:10 CEST one too; the real zone splits them.
	if sat := NutritionDay(meals, Targets{}, on(loc, 2026, 3, 28, 12, 0), loc); sat.Meals != 1 || sat.Totals.Calories != 100 {
		t.Errorf("Saturday: %+v", sat.DayTotals)
	}
}

func TestLoggingStreak(t *testing.T) {
	utc := time.UTC
	now := on(utc, 2026, 3, 15, 12, 0)
	at := func(d, h int) Meal { return meal(on(utc, 2026, 3, d, h, 0), 500, 0, 0, 0) }
	tests := []struct {
		name  string
		meals []Meal
		want  int
	}{
		{"no meals", nil, 0},
		{"today and the two days before, then a gap", []Meal{at(15, 8), at(14, 8), at(14, 19), at(13, 8), at(11, 8)}, 3},
		{"nothing yet today counts from yesterday", []Meal{at(14, 8), at(13, 8), at(10, 8)}, 2},
		{"nothing today or yesterday", []Meal{at(13, 8), at(12, 8)}, 0},
		{"only today", []Meal{at(15, 8)}, 1},
		{"a meal later today (after now) does not count", []Meal{at(15, 19), at(14, 8)}, 1},
		{"out of order", []Meal{at(12, 8), at(14, 8), at(13, 8), at(15, 8)}, 4},
	}
	for _, tc := range tests {
		if got := LoggingStreak(tc.meals, now, utc); got != tc.want {
			t.Errorf("%s: streak %d, want %d", tc.name, got, tc.want)
		}
	}
}

func TestLoggingStreakAcrossDST(t *testing.T) {
	loc := berlin(t)
	now := on(loc, 2026, 3, 30, 0, 30)
	meals := []Meal{
		meal(on(loc, 2026, 3, 27, 0, 30), 1, 0, 0, 0),
		meal(on(loc, 2026, 3, 28, 0, 30), 1, 0, 0, 0),
		meal(on(loc, 2026, 3, 29, 23, 45), 1, 0, 0, 0),
		meal(on(loc, 2026, 3, 30, 0, 10), 1, 0, 0, 0),
	}
	if got := LoggingStreak(meals, now, loc); got != 4 {
		t.Fatalf("streak %d, want 4 (27, 28, 29, 30 March)", got)
	}
}

func TestNutritionHistory(t *testing.T) {
	utc := time.UTC
	now := on(utc, 2026, 3, 15, 20, 0)
	meals := []Meal{
		meal(on(utc, 2026, 3, 15, 8, 0), 999, 99, 99, 99), // today: excluded
		meal(on(utc, 2026, 3, 14, 8, 0), 1000, 50, 100, 30),
		meal(on(utc, 2026, 3, 14, 19, 0), 640, 42, 80, 25),
		meal(on(utc, 2026, 3, 13, 12, 0), 2000, 140, 200, 70),
		meal(on(utc, 2026, 3, 10, 12, 0), 1800, 110, 190, 65),
		meal(on(utc, 2026, 3, 7, 12, 0), 5000, 0, 0, 0), // before the window
	}
	got := NutritionHistory(meals, fullTargets, 7, now, utc)
	if !got.From.Equal(on(utc, 2026, 3, 8, 0, 0)) || !got.Through.Equal(on(utc, 2026, 3, 14, 0, 0)) || len(got.Days) != 7 {
		t.Fatalf("window %v..%v, %d days", got.From, got.Through, len(got.Days))
	}
	if got.DaysLogged != 3 || got.DaysMissing != 4 || len(got.MissingDays) != 4 ||
		!got.MissingDays[0].Equal(on(utc, 2026, 3, 8, 0, 0)) || !got.MissingDays[3].Equal(on(utc, 2026, 3, 12, 0, 0)) {
		t.Fatalf("logged %d missing %d %v", got.DaysLogged, got.DaysMissing, got.MissingDays)
	}
	if d := got.Days[6]; d.Meals != 2 || d.Totals.Calories != 1640 || d.Totals.ProteinG != 92 {
		t.Errorf("14 March = %+v", d)
	}
	// (1640+2000+1800)/3 = 1813.3 kcal; protein (92+140+110)/3 = 114 g vs 140.
	a := got.Average
	if a.Calories.Consumed != 1813 || !eqF(a.Calories.Remaining, f(187)) || a.Protein.Consumed != 114 ||
		!eqF(a.Protein.Remaining, f(26)) || !eqF(a.Protein.Percent, f(81.4)) {
		t.Errorf("average = %+v", a)
	}
	one := NutritionHistory(meals, Targets{}, 0, now, utc)
	if len(one.Days) != 1 || one.DaysLogged != 1 || one.Average.Calories.Consumed != 1640 || one.Average.Calories.Target != nil {
		t.Errorf("n=0 clamps to yesterday only, no targets: %+v", one)
	}
	empty := NutritionHistory(nil, fullTargets, 3, now, utc)
	if empty.DaysLogged != 0 || empty.DaysMissing != 3 || empty.Average.Calories.Consumed != 0 {
		t.Errorf("empty: %+v", empty)
	}
}
