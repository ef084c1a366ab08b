package health

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func TestDaySummary(t *testing.T) {
	utc := time.UTC
	now := on(utc, 2026, 3, 15, 12, 0)
	m := Member{ID: "ada", Name: "Ada", Unit: LB, Targets: fullTargets, GoalWeightKg: f(70)}
	r := Records{
		Weights: []WeightReading{w(on(utc, 2026, 3, 14, 7, 0), 80), w(on(utc, 2026, 3, 15, 7, 0), 79)},
		Meals: []Meal{
			meal(on(utc, 2026, 3, 13, 8, 0), 500, 30, 50, 10),
			meal(on(utc, 2026, 3, 14, 8, 0), 600, 30, 50, 10),
			meal(on(utc, 2026, 3, 14, 19, 0), 700, 30, 50, 10),
			meal(on(utc, 2026, 3, 15, 8, 0), 450, 30, 50, 12),
		},
		Workouts: []Workout{wo(on(utc, 2026, 3, 14, 18, 0), "run", 30), wo(on(utc, 2026, 3, 15, 7, 30), "yoga", 20)},
		Scans:    []BodyScan{{ScannedAt: on(utc, 2026, 3, 15, 9, 0), BodyFatPct: f(25), LeanMassKg: f(55)}},
	}
	today := DaySummary(m, r, now, now, utc)
	if today.Member != "ada" || today.Unit != LB || !today.Day.Equal(on(utc, 2026, 3, 15, 0, 0)) {
		t.Fatalf("header %+v", today)
	}
	if !eqF(today.Weight.CurrentKg, f(79)) || today.Weight.Points != nil || today.Weight.Goal.Status != ETATooFewReadings {
		t.Errorf("weight %+v", today.Weight)
	}
	if today.Nutrition.Meals != 1 || !eqF(today.Nutrition.VsTargets.Calories.Remaining, f(1550)) || today.LoggingStreak != 3 {
		t.Errorf("nutrition %+v streak %d", today.Nutrition, today.LoggingStreak)
	}
	if len(today.WorkoutsToday) != 1 || today.WorkoutsToday[0].Type != "yoga" || today.Training.ThisWeekCount != 2 {
		t.Errorf("workouts %+v training %+v", today.WorkoutsToday, today.Training)
	}
	if today.BodyComposition == nil || today.BodyComposition.DaysAgo != 0 {
		t.Errorf("scan %+v", today.BodyComposition)
	}

	// Yesterday as it stood at its end: today's records are invisible.
	y := DaySummary(m, r, on(utc, 2026, 3, 14, 9, 0), now, utc)
	if !eqF(y.Weight.CurrentKg, f(80)) || y.Nutrition.Meals != 2 || y.Nutrition.Totals.Calories != 1300 ||
		y.LoggingStreak != 2 || len(y.WorkoutsToday) != 1 || y.WorkoutsToday[0].Type != "run" || y.BodyComposition != nil {
		t.Errorf("yesterday %+v", y)
	}

	text := today.Text(utc)
	for _, part := range []string{"Weight: 174.2 lb", "goal 154.3 lb", "Nutrition Sun 15 Mar 2026: 450 of 2,000 kcal (23%)",
		"logging streak 3 days", "Training: 2 workouts this week (50 min)", "Workout: Sun 15 Mar 2026: yoga, 20 min",
		"Body composition: 25% body fat, lean mass 121.3 lb, today"} {
		if !strings.Contains(text, part) {
			t.Errorf("summary text lacks %q:\n%s", part, text)
		}
	}
	if _, err := json.Marshal(today); err != nil {
		t.Error(err)
	}
}

func TestDaySummaryEmptyMember(t *testing.T) {
	now := on(time.UTC, 2026, 3, 15, 12, 0)
	s := DaySummary(Member{ID: "new", Name: "New"}, Records{}, now, now, nil)
	if s.Weight.Readings != 0 || s.Nutrition.Meals != 0 || s.LoggingStreak != 0 || s.Training.LastWorkout != nil ||
		s.BodyComposition != nil || s.WorkoutsToday == nil || s.Nutrition.VsTargets.Calories.Target != nil {
		t.Fatalf("%+v", s)
	}
	want := "Weight: no weigh-ins yet\nNutrition Sun 15 Mar 2026: nothing logged; logging streak 0 days\nTraining: no workouts logged yet"
	if got := s.Text(nil); got != want {
		t.Errorf("text\n got %q\nwant %q", got, want)
	}
}
