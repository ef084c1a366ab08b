package health

import (
	"sort"
	"time"
)

// WorkoutSummary is the compact view of one workout (get_recent_workouts).
type WorkoutSummary struct {
	ID          int64     `json:"-"` // the entry, for screens that correct it
	StartedAt   time.Time `json:"started_at"`
	Type        string    `json:"type"`
	Title       string    `json:"title,omitempty"`
	DurationMin float64   `json:"duration_min"`
	AvgHR       *int      `json:"avg_hr,omitempty"`
	MaxHR       *int      `json:"max_hr,omitempty"`
	EnergyKcal  *float64  `json:"energy_kcal,omitempty"`
	DistanceKm  *float64  `json:"distance_km,omitempty"`
	ContentID   string    `json:"content_id,omitempty"`
}

// Summarize drops the workout's bookkeeping fields.
func (w Workout) Summarize() WorkoutSummary {
	return WorkoutSummary{ID: w.ID, StartedAt: w.StartedAt, Type: w.Type, Title: w.Title, DurationMin: w.DurationMin,
		AvgHR: w.AvgHR, MaxHR: w.MaxHR, EnergyKcal: w.EnergyKcal, DistanceKm: roundPtr(w.DistanceKm, 2), ContentID: w.ContentID}
}

// RecentWorkouts returns the n most recent workouts, newest first
// (all of them when n ≤ 0).
func RecentWorkouts(workouts []Workout, n int) []WorkoutSummary {
	ws := sortedWorkouts(workouts)
	if n <= 0 || n > len(ws) {
		n = len(ws)
	}
	out := make([]WorkoutSummary, 0, n)
	for i := len(ws) - 1; len(out) < n; i-- {
		out = append(out, ws[i].Summarize())
	}
	return out
}

// sortedWorkouts returns a copy ordered by start time, oldest first.
func sortedWorkouts(workouts []Workout) []Workout {
	ws := append([]Workout(nil), workouts...)
	sort.SliceStable(ws, func(i, j int) bool {
		if !ws[i].StartedAt.Equal(ws[j].StartedAt) {
			return ws[i].StartedAt.Before(ws[j].StartedAt)
		}
		return ws[i].ID < ws[j].ID
	})
	return ws
}

// UsualWeeks is how many full weeks before the current one WorkoutStats
// averages over (fewer when the first workout is more recent).
const UsualWeeks = 4

// TrainingStats is a member's training rhythm as of now. Weeks start on
// Monday (local). UsualPerWeek averages the UsualWeeks full weeks before this
// one, or the full weeks since the first workout when fewer (AveragedWeeks);
// it is nil when there is no full week to average. RestDays counts the
// complete days since the last workout (today, still in progress, is not a
// rest day yet).
type TrainingStats struct {
	WeekStart           time.Time  `json:"week_start"`
	ThisWeekCount       int        `json:"this_week_count"`
	ThisWeekMinutes     float64    `json:"this_week_minutes"`
	UsualPerWeek        *float64   `json:"usual_per_week,omitempty"`
	UsualMinutesPerWeek *float64   `json:"usual_minutes_per_week,omitempty"`
	AveragedWeeks       int        `json:"averaged_weeks"`
	LastWorkout         *time.Time `json:"last_workout,omitempty"`
	DaysSinceLast       *int       `json:"days_since_last,omitempty"`
	RestDays            *int       `json:"rest_days,omitempty"`
}

// WorkoutStats summarises the training rhythm from workouts (any order;
// those starting after now are ignored).
func WorkoutStats(workouts []Workout, now time.Time, loc *time.Location) TrainingStats {
	loc = orUTC(loc)
	today := dayNum(now, loc)
	week := dayNum(WeekStart(now, loc), loc)
	st := TrainingStats{WeekStart: dayTime(week, loc)}
	var past []Workout
	for _, w := range sortedWorkouts(workouts) {
		if !w.StartedAt.After(now) {
			past = append(past, w)
		}
	}
	if len(past) == 0 {
		return st
	}
	firstWeek := dayNum(WeekStart(past[0].StartedAt, loc), loc)
	weeks := min(UsualWeeks, (week-firstWeek)/7)
	from := week - 7*weeks
	var usualN, usualMin float64
	for _, w := range past {
		d := dayNum(w.StartedAt, loc)
		switch {
		case d >= week:
			st.ThisWeekCount++
			st.ThisWeekMinutes += w.DurationMin
		case d >= from:
			usualN++
			usualMin += w.DurationMin
		}
	}
	st.ThisWeekMinutes = round1(st.ThisWeekMinutes)
	st.AveragedWeeks = weeks
	if weeks > 0 {
		st.UsualPerWeek = ptr(round2(usualN / float64(weeks)))
		st.UsualMinutesPerWeek = ptr(round1(usualMin / float64(weeks)))
	}
	last := past[len(past)-1].StartedAt
	since := today - dayNum(last, loc)
	st.LastWorkout, st.DaysSinceLast, st.RestDays = &last, ptr(since), ptr(max(0, since-1))
	return st
}
