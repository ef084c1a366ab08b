package health

import "encoding/json"

// Measured values are stored exactly as computed (an import converts pounds,
// kilojoules and fractions), which leaves float noise like
// 63.502931800000006. The JSON forms round them to what the measurement
// means: weights to 0.01 kg, percentages and macros to 0.1, energy to 0.1
// kcal, durations to 0.1 min, distances to 0.01 km.

// MarshalJSON writes the reading with rounded figures.
func (r WeightReading) MarshalJSON() ([]byte, error) {
	type plain WeightReading
	r.WeightKg = round2(r.WeightKg)
	r.BodyFatPct, r.LeanMassKg = roundPtr(r.BodyFatPct, 1), roundPtr(r.LeanMassKg, 2)
	return json.Marshal(plain(r))
}

// MarshalJSON writes the meal with rounded figures.
func (m Meal) MarshalJSON() ([]byte, error) {
	type plain Meal
	m.Calories, m.ProteinG, m.CarbsG, m.FatG = round1(m.Calories), round1(m.ProteinG), round1(m.CarbsG), round1(m.FatG)
	return json.Marshal(plain(m))
}

// MarshalJSON writes the workout with rounded figures.
func (w Workout) MarshalJSON() ([]byte, error) {
	type plain Workout
	w.DurationMin, w.EnergyKcal, w.DistanceKm = round1(w.DurationMin), roundPtr(w.EnergyKcal, 1), roundPtr(w.DistanceKm, 2)
	return json.Marshal(plain(w))
}

// MarshalJSON writes the scan with rounded figures.
func (s BodyScan) MarshalJSON() ([]byte, error) {
	type plain BodyScan
	s.BodyFatPct, s.LeanMassKg = roundPtr(s.BodyFatPct, 1), roundPtr(s.LeanMassKg, 2)
	s.FatMassKg, s.BoneMassKg, s.VisceralFat = roundPtr(s.FatMassKg, 2), roundPtr(s.BoneMassKg, 2), roundPtr(s.VisceralFat, 2)
	return json.Marshal(plain(s))
}
