package coach

import (
	"time"

	"hearth/internal/content"
	"hearth/internal/health"
)

// The compact summaries the read tools return. Weights are in the member's
// unit rounded to 0.1 (the same figures the Text fields print); dates are
// household-local YYYY-MM-DD.

// WeightView is get_weight_trend's result.
type WeightView struct {
	Unit             health.Unit `json:"unit"`
	Readings         int         `json:"readings"`
	Current          *float64    `json:"current,omitempty"`
	Trend            *float64    `json:"trend,omitempty"`
	Change7d         *float64    `json:"change_7d,omitempty"`
	Change30d        *float64    `json:"change_30d,omitempty"`
	BodyFatPct       *float64    `json:"body_fat_pct,omitempty"`
	LastWeighIn      string      `json:"last_weigh_in,omitempty"`
	DaysSinceWeighIn *int        `json:"days_since_weigh_in,omitempty"`
	Goal             GoalView    `json:"goal"`
	// CurrentText and Change7dText are the figures as the member reads them
	// ("81.4 kg", "−0.6 kg").
	CurrentText  string `json:"current_text,omitempty"`
	Change7dText string `json:"change_7d_text,omitempty"`
	Text         string `json:"text"`
	// BMI is the current weight over the height squared (when the height
	// is known), one decimal.
	BMI *float64 `json:"bmi,omitempty"`
	// Questioned are recent readings far from the trend (or a sudden change
	// from the weigh-in before), left out of every
	// figure above until the member confirms them.
	Questioned []QuestionedReading `json:"questioned_readings,omitempty"`
	// Plateau: the raw readings of the last PlateauDays held within
	// PlateauBandKg (the smoothed trend may still be catching up).
	// MovingAway: the 30-day trend goes away from the goal weight.
	Plateau    bool `json:"plateau"`
	MovingAway bool `json:"moving_away_from_goal"`
}

// QuestionedReading is a weigh-in set aside as implausible.
type QuestionedReading struct {
	ID    int64   `json:"id"`
	Date  string  `json:"date"`
	Value float64 `json:"value"`
	Text  string  `json:"text"`
	// Sudden: a change of more than health.SuddenChangeKg from the weigh-in
	// before (ChangeText, "+3 kg"), not far from the trend: weighing again
	// the next day tells.
	Sudden     bool   `json:"sudden_change,omitempty"`
	ChangeText string `json:"change_text,omitempty"`
}

// GoalView is progress toward a goal weight (calculate_goal_progress).
type GoalView struct {
	Status      health.ETAStatus `json:"status"`
	Goal        *float64         `json:"goal,omitempty"`
	Current     *float64         `json:"current,omitempty"`
	ToGo        *float64         `json:"to_go,omitempty"`
	Percent     *float64         `json:"percent,omitempty"`
	PacePerWeek *float64         `json:"pace_per_week,omitempty"`
	ETA         string           `json:"eta,omitempty"`
	// ETAText is the ETA as the kiosk's weight widget writes it ("Sun 24
	// Jan"), so a briefing that quotes it can be brought up to date.
	ETAText    string `json:"eta_text,omitempty"`
	DaysToGoal *int   `json:"days_to_goal,omitempty"`
	Text       string `json:"text"`
}

// NutritionDayView is one day's nutrition (get_today_nutrition, calculate_remaining_macros).
type NutritionDayView struct {
	Date          string             `json:"date"`
	Meals         int                `json:"meals"`
	Totals        health.Macros      `json:"totals"`
	VsTargets     health.MacroBudget `json:"vs_targets"`
	LoggingStreak int                `json:"logging_streak"`
	Text          string             `json:"text"`
}

// DayLine is one day of a nutrition history.
type DayLine struct {
	Date     string  `json:"date"`
	Meals    int     `json:"meals"`
	Calories float64 `json:"calories"`
	ProteinG float64 `json:"protein_g"`
}

// NutritionHistoryView is get_nutrition_history's result: the complete days
// before today; averages are over logged days.
type NutritionHistoryView struct {
	From        string    `json:"from"`
	Through     string    `json:"through"`
	Days        []DayLine `json:"days"`
	DaysLogged  int       `json:"days_logged"`
	DaysMissing int       `json:"days_missing"`
	MissingDays []string  `json:"missing_days,omitempty"`
	// LastLogged is the last day before today with a meal, however long
	// ago ("" when none ever): how long a gap has lasted.
	LastLogged string             `json:"last_logged,omitempty"`
	Average    health.MacroBudget `json:"average"`
	Text       string             `json:"text"`
}

// WorkoutLine is one workout.
type WorkoutLine struct {
	Date        string  `json:"date"`
	Type        string  `json:"type"`
	Title       string  `json:"title,omitempty"`
	DurationMin float64 `json:"duration_min"`
	AvgHR       *int    `json:"avg_hr,omitempty"`
	ContentID   string  `json:"content_id,omitempty"`
	Text        string  `json:"text"`
}

// StatsView is the training rhythm.
type StatsView struct {
	ThisWeek        int      `json:"this_week"`
	ThisWeekMinutes float64  `json:"this_week_minutes"`
	UsualPerWeek    *float64 `json:"usual_per_week,omitempty"`
	AveragedWeeks   int      `json:"averaged_weeks"`
	LastWorkout     string   `json:"last_workout,omitempty"`
	DaysSinceLast   *int     `json:"days_since_last,omitempty"`
	RestDays        *int     `json:"rest_days,omitempty"`
	// HardDaysInARow: days in a row, to today or yesterday, with a hard
	// session (HIIT, strength, running… or an hour or more).
	HardDaysInARow int    `json:"hard_days_in_a_row"`
	Text           string `json:"text"`
}

// Completion is a catalog item the member finished (a done tap or a logged
// workout carrying its id).
type Completion struct {
	ContentID string    `json:"content_id"`
	Title     string    `json:"title,omitempty"`
	At        time.Time `json:"at"`
	Source    string    `json:"source"` // done_tap | workout
}

// WorkoutsView is get_recent_workouts's result.
type WorkoutsView struct {
	Recent    []WorkoutLine `json:"recent"`
	Stats     StatsView     `json:"stats"`
	Completed []Completion  `json:"completed_content"`
}

// BodyView is get_body_composition's result.
type BodyView struct {
	HasScan       bool     `json:"has_scan"`
	Date          string   `json:"date,omitempty"`
	DaysAgo       int      `json:"days_ago,omitempty"`
	BodyFatPct    *float64 `json:"body_fat_pct,omitempty"`
	LeanMass      *float64 `json:"lean_mass,omitempty"`
	BodyFatChange *float64 `json:"body_fat_change,omitempty"`
	LeanChange    *float64 `json:"lean_mass_change,omitempty"`
	Text          string   `json:"text"`
}

// ProgramBrief is a catalog program with its first session.
type ProgramBrief struct {
	ID           string             `json:"id"`
	Title        string             `json:"title"`
	TotalDays    int                `json:"total_days"`
	TrainingDays int                `json:"training_days"`
	First        *content.MenuEntry `json:"first,omitempty"`
}

// ContentView is get_fitness_content's result: the menu to choose from.
type ContentView struct {
	Items     []content.MenuEntry `json:"items"`
	Programs  []ProgramBrief      `json:"programs"`
	Truncated bool                `json:"truncated"`
}

// round1 rounds to one decimal.
func round1(v float64) float64 { return health.Round1(v) }

// inUnit converts kilograms to the unit, rounded to 0.1.
func inUnit(u health.Unit, kg *float64) *float64 {
	if kg == nil {
		return nil
	}
	v := round1(u.FromKg(*kg))
	return &v
}

func dateOf(t time.Time, loc *time.Location) string { return t.In(loc).Format(time.DateOnly) }
