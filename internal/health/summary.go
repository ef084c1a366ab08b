package health

import "time"

// Records are one member's health records, as loaded by the caller (any
// order; a window of a few months is plenty).
type Records struct {
	Weights  []WeightReading
	Meals    []Meal
	Workouts []Workout
	Scans    []BodyScan
}

// Summary is one member's compact snapshot for a day (get_health_summary).
// Weight has no chart points.
type Summary struct {
	Member          string           `json:"member"`
	Name            string           `json:"name"`
	Unit            Unit             `json:"unit"`
	Day             time.Time        `json:"day"`
	Weight          Trend            `json:"weight"`
	Nutrition       DayNutrition     `json:"nutrition"`
	LoggingStreak   int              `json:"logging_streak"`
	Training        TrainingStats    `json:"training"`
	WorkoutsToday   []WorkoutSummary `json:"workouts_today"`
	BodyComposition *Composition     `json:"body_composition,omitempty"`
}

// DaySummary summarises the local day containing day as it stood at the end
// of that day, or at now when the day is not over yet: records after that
// instant are ignored, so a past day's summary does not see later data.
func DaySummary(m Member, r Records, day, now time.Time, loc *time.Location) Summary {
	loc = orUTC(loc)
	d := dayNum(day, loc)
	asOf := dayEnd(d, loc)
	if now.Before(asOf) {
		asOf = now
	}
	meals := before(r.Meals, asOf, func(x Meal) time.Time { return x.EatenAt })
	workouts := before(r.Workouts, asOf, func(x Workout) time.Time { return x.StartedAt })
	s := Summary{
		Member:        m.ID,
		Name:          m.Name,
		Unit:          m.Unit.Normalize(),
		Day:           dayTime(d, loc),
		Weight:        WeightTrend(r.Weights, m, asOf, loc),
		Nutrition:     NutritionDay(meals, m.Targets, asOf, loc),
		LoggingStreak: LoggingStreak(meals, asOf, loc),
		Training:      WorkoutStats(workouts, asOf, loc),
		WorkoutsToday: []WorkoutSummary{},
	}
	s.Weight.Points = nil
	for _, w := range RecentWorkouts(workouts, 0) {
		if dayNum(w.StartedAt, loc) == d {
			s.WorkoutsToday = append(s.WorkoutsToday, w)
		}
	}
	if c, ok := BodyComposition(r.Scans, asOf, loc); ok {
		s.BodyComposition = &c
	}
	return s
}

// before keeps the items whose time is not after t.
func before[T any](xs []T, t time.Time, at func(T) time.Time) []T {
	var out []T
	for _, x := range xs {
		if !at(x).After(t) {
			out = append(out, x)
		}
	}
	return out
}
