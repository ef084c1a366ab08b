package health

import (
	"testing"
	"time"
)

func wo(at time.Time, typ string, min float64) Workout {
	return Workout{StartedAt: at, Type: typ, DurationMin: min}
}

func TestRecentWorkouts(t *testing.T) {
	utc := time.UTC
	ws := []Workout{
		wo(on(utc, 2026, 3, 3, 7, 0), "run", 30),
		wo(on(utc, 2026, 3, 9, 7, 0), "yoga", 20),
		wo(on(utc, 2026, 3, 1, 7, 0), "hiit", 15),
		wo(on(utc, 2026, 3, 5, 7, 0), "strength", 45),
	}
	ws[1].AvgHR, ws[1].ID, ws[1].Source = i(101), 7, "manual"
	got := RecentWorkouts(ws, 3)
	if len(got) != 3 || got[0].Type != "yoga" || got[1].Type != "strength" || got[2].Type != "run" || !eqI(got[0].AvgHR, i(101)) {
		t.Fatalf("recent 3 = %+v", got)
	}
	if all := RecentWorkouts(ws, 0); len(all) != 4 || all[3].Type != "hiit" {
		t.Errorf("n=0 = %+v", all)
	}
	if more := RecentWorkouts(ws, 10); len(more) != 4 {
		t.Errorf("n>len = %d", len(more))
	}
	if none := RecentWorkouts(nil, 5); none == nil || len(none) != 0 {
		t.Errorf("no workouts = %#v, want empty non-nil", none)
	}
	if ws[0].Type != "run" {
		t.Error("input was reordered")
	}
}

func TestWorkoutStats(t *testing.T) {
	utc := time.UTC
	now := on(utc, 2026, 3, 12, 18, 0) // Thursday; the week began Monday 9 March
	at := func(m time.Month, d int) Workout { return wo(on(utc, 2026, m, d, 7, 0), "run", 30) }
	var history []Workout
	// Four full weeks before: 2 + 3 + 4 + 3 = 12 workouts → 3 a week, plus an older one.
	for _, d := range []struct {
		m time.Month
		d int
	}{{2, 2}, {2, 10}, {2, 12}, {2, 16}, {2, 18}, {2, 20}, {2, 23}, {2, 24}, {2, 26}, {3, 1}, {3, 2}, {3, 4}, {3, 8}} {
		history = append(history, at(d.m, d.d))
	}
	thisWeek := []Workout{wo(on(utc, 2026, 3, 9, 18, 0), "strength", 45), wo(on(utc, 2026, 3, 10, 7, 0), "yoga", 30)}
	tests := []struct {
		name            string
		ws              []Workout
		count           int
		minutes         float64
		usual, usualMin *float64
		weeks           int
		since, rest     *int
	}{
		{name: "no workouts"},
		{name: "steady member", ws: append(append([]Workout{}, history...), thisWeek...), count: 2, minutes: 75,
			usual: f(3), usualMin: f(90), weeks: 4, since: i(2), rest: i(1)},
		{name: "new member: one full week so far", ws: []Workout{at(3, 3), at(3, 5), at(3, 11)}, count: 1, minutes: 30,
			usual: f(2), usualMin: f(60), weeks: 1, since: i(1), rest: i(0)},
		{name: "first week ever: nothing to average", ws: thisWeek, count: 2, minutes: 75, since: i(2), rest: i(1)},
		{name: "worked out today; a future one is ignored", ws: []Workout{wo(on(utc, 2026, 3, 12, 7, 0), "run", 25),
			wo(on(utc, 2026, 3, 12, 19, 0), "run", 99)}, count: 1, minutes: 25, since: i(0), rest: i(0)},
		{name: "long break", ws: []Workout{at(2, 1)}, usual: f(0), usualMin: f(0), weeks: 4, since: i(39), rest: i(38)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := WorkoutStats(tc.ws, now, utc)
			if !got.WeekStart.Equal(on(utc, 2026, 3, 9, 0, 0)) {
				t.Errorf("week start %v", got.WeekStart)
			}
			if got.ThisWeekCount != tc.count || got.ThisWeekMinutes != tc.minutes || !eqF(got.UsualPerWeek, tc.usual) ||
				!eqF(got.UsualMinutesPerWeek, tc.usualMin) || got.AveragedWeeks != tc.weeks || !eqI(got.DaysSinceLast, tc.since) ||
				!eqI(got.RestDays, tc.rest) {
				t.Fatalf("got %d/%v usual %s/%s over %d, since %s rest %s", got.ThisWeekCount, got.ThisWeekMinutes,
					fs(got.UsualPerWeek), fs(got.UsualMinutesPerWeek), got.AveragedWeeks, is(got.DaysSinceLast), is(got.RestDays))
			}
		})
	}
}

func TestWorkoutStatsWeekBoundaryAcrossDST(t *testing.T) {
	loc := berlin(t)
	now := on(loc, 2026, 3, 30, 0, 30) // Monday just after the 23-hour Sunday
	ws := []Workout{
		wo(on(loc, 2026, 3, 29, 23, 30), "yoga", 20), // Sunday: last week (21:30Z)
		wo(on(loc, 2026, 3, 30, 0, 10), "run", 10),   // Monday: this week (22:10Z on Sunday)
	}
	got := WorkoutStats(ws, now, loc)
	if got.ThisWeekCount != 1 || got.ThisWeekMinutes != 10 || !got.WeekStart.Equal(on(loc, 2026, 3, 30, 0, 0)) ||
		!eqF(got.UsualPerWeek, f(1)) || got.AveragedWeeks != 1 {
		t.Fatalf("%+v usual %s", got, fs(got.UsualPerWeek))
	}
}
