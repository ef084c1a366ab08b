package demo

import (
	"time"

	"hearth/internal/health"
)

// person is a demo member with the habits the generator plays out.
type person struct {
	member           health.Member
	startKg          float64     // weight Days days ago
	kgPerDay         float64     // drift toward the goal
	noiseKg          float64     // day-to-day scale noise (standard deviation)
	scaleStep        float64     // scale precision in the member's unit
	bodyFat          *[2]float64 // smart-scale body fat: % at the start, change per day
	appetite         float64     // portion factor on the food templates
	snackChance      float64
	skipBreakfast    float64
	noMealsYesterday bool
	activityMix      []string // types drawn uniformly: repeat a type to weight it
	morningWorkouts  float64  // share of workouts before work
	dexa             bool
	goals            func(m health.Member, today time.Time) []health.Goal
}

func people() []person {
	return []person{
		{
			member: health.Member{ID: "maya", Name: "Maya", Color: "#e07a5f", Avatar: "🦊", Unit: health.KG,
				Targets:      health.Targets{Calories: ptr(1700.0), ProteinG: ptr(120.0), CarbsG: ptr(170.0), FatG: ptr(60.0)},
				GoalWeightKg: ptr(68.0), HeightCm: ptr(168.0), BirthDate: date(1988, time.April, 12),
				Sex: "female", ActivityLevel: "moderate"},
			startKg: 74.6, kgPerDay: -0.065, noiseKg: 0.35, scaleStep: 0.1,
			bodyFat:  &[2]float64{33.2, -0.03},
			appetite: 0.88, snackChance: 0.45, skipBreakfast: 0.12, noMealsYesterday: true,
			activityMix:     []string{"run", "run", "yoga", "yoga", "strength", "strength", "hiit", "cycling"},
			morningWorkouts: 0.6, dexa: true,
			goals: func(m health.Member, today time.Time) []health.Goal {
				return []health.Goal{
					{MemberID: m.ID, Kind: "weight", Description: "Reach 68 kg by summer", Target: ptr(68.0), Unit: "kg",
						TargetDate: ptr(today.AddDate(0, 4, 0))},
					{MemberID: m.ID, Kind: "protein", Description: "Eat 120 g of protein a day", Target: ptr(120.0), Unit: "g"},
				}
			},
		},
		{
			member: health.Member{ID: "theo", Name: "Theo", Color: "#3d85c6", Avatar: "🐻", Unit: health.LB,
				Targets:      health.Targets{Calories: ptr(2900.0), ProteinG: ptr(165.0), CarbsG: ptr(340.0), FatG: ptr(90.0)},
				GoalWeightKg: ptr(health.LB.ToKg(175)), HeightCm: ptr(183.0), BirthDate: date(1985, time.September, 3),
				Sex: "male", ActivityLevel: "active"},
			startKg: health.LB.ToKg(167.6), kgPerDay: 0.03, noiseKg: 0.4, scaleStep: 0.2,
			appetite: 1.5, snackChance: 0.8, skipBreakfast: 0.05,
			activityMix:     []string{"strength", "strength", "strength", "cycling", "cycling", "run", "hiit", "yoga"},
			morningWorkouts: 0.3,
			goals: func(m health.Member, _ time.Time) []health.Goal {
				return []health.Goal{
					{MemberID: m.ID, Kind: "weight", Description: "Lean bulk to 175 lb", Target: ptr(health.LB.ToKg(175)), Unit: "kg"},
					{MemberID: m.ID, Kind: "workouts_per_week", Description: "Train 4 times a week", Target: ptr(4.0), Unit: "workouts"},
				}
			},
		},
	}
}

func ptr[T any](v T) *T { return &v }

func date(y int, m time.Month, d int) *time.Time {
	t := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	return &t
}
