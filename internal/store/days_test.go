package store_test

import (
	"context"
	"testing"
	"time"

	"hearth/internal/health"
	"hearth/internal/store"
	"hearth/internal/store/storetest"
)

// Per-day sums fall on the household's local days on both sides of a
// daylight-saving change: a meal at 00:30 local is that day's, though in
// UTC it is the day before (one hour before the change, two after).
func TestMealAndWorkoutDaysAcrossDST(t *testing.T) {
	ctx := context.Background()
	db := storetest.Open(t)
	loc, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.CreateMember(ctx, health.Member{ID: "ada", Name: "Ada"}); err != nil {
		t.Fatal(err)
	}
	at := func(m time.Month, d, h, min int) time.Time { return time.Date(2026, m, d, h, min, 0, 0, loc) }
	for _, m := range []health.Meal{
		{EatenAt: at(3, 28, 0, 30), Calories: 100, ProteinG: 1}, // 27 Mar 23:30 UTC
		{EatenAt: at(3, 28, 23, 30), Calories: 200},             // 28 Mar 22:30 UTC
		{EatenAt: at(3, 30, 0, 30), Calories: 400, ProteinG: 4}, // after the change: 29 Mar 22:30 UTC
		{EatenAt: at(3, 30, 12, 0), Calories: 800},
	} {
		m.MemberID = "ada"
		if _, err := db.AddMeal(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	for _, w := range []health.Workout{
		{StartedAt: at(3, 30, 0, 15), Type: "run", DurationMin: 30},
		{StartedAt: at(3, 30, 18, 0), Type: "run", DurationMin: 20},
		{StartedAt: at(3, 30, 19, 0), Type: "yoga", DurationMin: 15},
	} {
		w.MemberID = "ada"
		if _, err := db.AddWorkout(ctx, w); err != nil {
			t.Fatal(err)
		}
	}
	from, to := at(3, 28, 0, 0), at(3, 31, 0, 0)
	days, err := db.MealDays(ctx, "ada", from, to, loc)
	if err != nil {
		t.Fatal(err)
	}
	want := []store.MealDay{{Day: "2026-03-28", Meals: 2, Kcal: 300, ProteinG: 1}, {Day: "2026-03-30", Meals: 2, Kcal: 1200, ProteinG: 4}}
	if len(days) != len(want) || days[0] != want[0] || days[1] != want[1] {
		t.Errorf("meal days %+v, want %+v", days, want)
	}
	wds, err := db.WorkoutDays(ctx, "ada", from, to, loc)
	if err != nil {
		t.Fatal(err)
	}
	wantW := []store.WorkoutDay{{Day: "2026-03-30", Type: "run", N: 2, Minutes: 50}, {Day: "2026-03-30", Type: "yoga", N: 1, Minutes: 15}}
	if len(wds) != 2 || wds[0] != wantW[0] || wds[1] != wantW[1] {
		t.Errorf("workout days %+v, want %+v", wds, wantW)
	}
	// The span's end is exclusive and an empty span reads nothing.
	if d, err := db.MealDays(ctx, "ada", from, at(3, 28, 0, 30), loc); err != nil || len(d) != 0 {
		t.Errorf("before the first meal: %+v %v", d, err)
	}
	if d, err := db.MealDays(ctx, "ada", to, to, loc); err != nil || len(d) != 0 {
		t.Errorf("empty span: %+v %v", d, err)
	}
}
