package health

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"time"
)

// ErrIncompleteProfile is wrapped by calculations that need member data that
// is missing; the message names the missing fields.
var ErrIncompleteProfile = errors.New("health: incomplete profile")

// ActivityMultiplier maps an activity level to its TDEE factor; ok is false
// for an unknown or empty level.
func ActivityMultiplier(level string) (float64, bool) {
	switch level {
	case "sedentary":
		return 1.2, true
	case "light":
		return 1.375, true
	case "moderate":
		return 1.55, true
	case "active":
		return 1.725, true
	case "very_active":
		return 1.9, true
	}
	return 0, false
}

// BMR is the basal metabolic rate in kcal/day by Mifflin-St Jeor:
// 10·kg + 6.25·cm − 5·age + 5 (male) or − 161 (female), with age on the
// calendar date of on. It fails with ErrIncompleteProfile when sex, height,
// birth date or weight is missing.
func BMR(m Member, weightKg float64, on time.Time) (float64, error) {
	var missing []string
	if m.Sex != "female" && m.Sex != "male" {
		missing = append(missing, "sex")
	}
	if m.HeightCm == nil || *m.HeightCm <= 0 {
		missing = append(missing, "height")
	}
	age := m.AgeOn(on)
	if age <= 0 {
		missing = append(missing, "birth date")
	}
	if weightKg <= 0 {
		missing = append(missing, "weight")
	}
	if len(missing) > 0 {
		return 0, fmt.Errorf("%w: missing %s", ErrIncompleteProfile, strings.Join(missing, ", "))
	}
	bmr := 10*weightKg + 6.25**m.HeightCm - 5*float64(age)
	if m.Sex == "male" {
		return bmr + 5, nil
	}
	return bmr - 161, nil
}

// TDEE is BMR × the activity multiplier; an unset activity level counts as
// sedentary (assumed reports that).
func TDEE(m Member, weightKg float64, on time.Time) (tdee float64, assumed bool, err error) {
	bmr, err := BMR(m, weightKg, on)
	if err != nil {
		return 0, false, err
	}
	mult, ok := ActivityMultiplier(m.ActivityLevel)
	if !ok {
		mult = 1.2
	}
	return bmr * mult, !ok, nil
}

// Calorie target rules: a deficit to lose, a surplus to gain, and a floor of
// max(BMR, the minimum for the member's sex).
const (
	LoseAdjustKcal    = -500
	GainAdjustKcal    = 250
	MinKcalFemale     = 1200
	MinKcalMale       = 1500
	DirectionLose     = "lose"
	DirectionGain     = "gain"
	DirectionMaintain = "maintain"
)

// CalorieSuggestion is a daily calorie target with the numbers behind it
// (suggest_calorie_target). Calories is rounded to 10 kcal, never below Floor.
type CalorieSuggestion struct {
	Calories       float64 `json:"calories"`
	BMR            float64 `json:"bmr"`
	TDEE           float64 `json:"tdee"`
	ActivityLevel  string  `json:"activity_level"`
	Multiplier     float64 `json:"multiplier"`
	Direction      string  `json:"direction"`
	AdjustmentKcal float64 `json:"adjustment_kcal"`
	Floor          float64 `json:"floor"`
	Floored        bool    `json:"floored"`
	Reasoning      string  `json:"reasoning"`
}

// SuggestCalorieTarget derives a daily calorie target from TDEE at currentKg,
// adjusted toward the member's goal weight (within GoalToleranceKg, or
// without a goal, it maintains).
func SuggestCalorieTarget(m Member, currentKg float64, on time.Time) (CalorieSuggestion, error) {
	bmr, err := BMR(m, currentKg, on)
	if err != nil {
		return CalorieSuggestion{}, err
	}
	tdee, assumed, _ := TDEE(m, currentKg, on)
	s := CalorieSuggestion{BMR: math.Round(bmr), TDEE: math.Round(tdee), ActivityLevel: m.ActivityLevel, Direction: DirectionMaintain}
	s.Multiplier, _ = ActivityMultiplier(m.ActivityLevel)
	if assumed {
		s.ActivityLevel, s.Multiplier = "sedentary", 1.2
	}
	u := m.Unit.Normalize()
	var why strings.Builder
	fmt.Fprintf(&why, "BMR %s kcal (Mifflin-St Jeor: %s, %d y, %s cm, %s) × %s (%s activity",
		formatThousands(bmr), m.Sex, m.AgeOn(on), trimFloat(round1(*m.HeightCm)), u.Format(currentKg),
		trimFloat(s.Multiplier), s.ActivityLevel)
	if assumed {
		why.WriteString(", not set so assumed")
	}
	fmt.Fprintf(&why, ") = TDEE %s kcal/day. ", formatThousands(tdee))
	if g := m.GoalWeightKg; g != nil && *g > 0 && math.Abs(*g-currentKg) > GoalToleranceKg {
		if *g < currentKg {
			s.Direction, s.AdjustmentKcal = DirectionLose, LoseAdjustKcal
			fmt.Fprintf(&why, "Goal %s is below current %s: %s kcal/day", u.Format(*g), u.Format(currentKg), formatThousands(LoseAdjustKcal))
		} else {
			s.Direction, s.AdjustmentKcal = DirectionGain, GainAdjustKcal
			fmt.Fprintf(&why, "Goal %s is above current %s: +%d kcal/day", u.Format(*g), u.Format(currentKg), GainAdjustKcal)
		}
	} else if g != nil && *g > 0 {
		fmt.Fprintf(&why, "At goal %s: maintain", u.Format(*g))
	} else {
		why.WriteString("No goal weight: maintain")
	}
	minKcal := MinKcalFemale
	if m.Sex == "male" {
		minKcal = MinKcalMale
	}
	s.Floor = math.Round(math.Max(bmr, float64(minKcal)))
	target := tdee + s.AdjustmentKcal
	s.Calories = math.Round(target/10) * 10
	if target < s.Floor {
		s.Floored = true
		s.Calories = math.Ceil(s.Floor/10) * 10
	}
	fmt.Fprintf(&why, " → %s kcal/day", formatThousands(s.Calories))
	if s.Floored {
		fmt.Fprintf(&why, " (raised to the floor of %s kcal: never below BMR or %d kcal)", formatThousands(s.Floor), minKcal)
	}
	why.WriteString(".")
	s.Reasoning = why.String()
	return s, nil
}
