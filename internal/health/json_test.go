package health

import (
	"encoding/json"
	"strings"
	"testing"
)

// Imports convert units (140 lb = 63.50293180000001 kg): the JSON carries
// the figure a person would read, not the float noise.
func TestJSONRoundsMeasuredValues(t *testing.T) {
	kg := LB.ToKg(140)
	tests := []struct {
		v    any
		want []string
	}{
		{WeightReading{WeightKg: kg, BodyFatPct: f(22.149999), LeanMassKg: f(kg * 0.78)},
			[]string{`"weight_kg":63.5,`, `"body_fat_pct":22.1,`, `"lean_mass_kg":49.53,`}},
		{Meal{Calories: 2510.4 / 4.184, ProteinG: 18000 * 0.001, CarbsG: 0.1 + 0.2, FatG: 12.349},
			[]string{`"calories":600,`, `"protein_g":18,`, `"carbs_g":0.3,`, `"fat_g":12.3,`}},
		{Workout{DurationMin: 1950.0 / 60, EnergyKcal: f(1338.88 / 4.184), DistanceKm: f(3.1 * 1.609344)},
			[]string{`"duration_min":32.5,`, `"energy_kcal":320,`, `"distance_km":4.99,`}},
		{BodyScan{BodyFatPct: f(0.221 * 100), LeanMassKg: f(LB.ToKg(140.5))},
			[]string{`"body_fat_pct":22.1,`, `"lean_mass_kg":63.73,`}},
	}
	for _, tt := range tests {
		b, err := json.Marshal(tt.v)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range tt.want {
			if !strings.Contains(string(b), w) {
				t.Errorf("%s lacks %s", b, w)
			}
		}
	}
	// Pointers to the types round too (the API encodes slices of values and
	// single values; both go through the same method).
	b, _ := json.Marshal(&WeightReading{WeightKg: kg})
	if !strings.Contains(string(b), `"weight_kg":63.5,`) {
		t.Errorf("pointer: %s", b)
	}
}
