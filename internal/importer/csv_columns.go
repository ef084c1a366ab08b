package importer

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"hearth/internal/health"
)

// csvField names a column Hearth reads.
type csvField int

const (
	fTime csvField = iota
	fWeight
	fWeightKg // a "weight_kg" column implies the unit
	fWeightLb
	fUnit
	fBodyFat
	fName
	fCalories
	fProtein
	fCarbs
	fFat
	fType
	fTitle
	fDuration
	fAvgHR
	fMaxHR
	fEnergy
	fLeanMass // header-only: weigh-ins and body scans
	fFatMass
	fBoneMass
	fVisceral
	fContent // header-only: the catalog item a workout played
	nFields
)

// csvLayout documents one CSV kind: the column order of a file without a
// header, the header names (and aliases) it understands, and the header names
// that identify it.
type csvLayout struct {
	order   []csvField
	names   map[string]csvField
	detect  []string
	minCols int
}

var timeNames = []string{"date", "datetime", "date_time", "time", "timestamp", "day"}

var csvLayouts = map[Kind]csvLayout{
	KindCSVWeight: {
		order:   []csvField{fTime, fWeight, fUnit, fBodyFat},
		names:   withTime(fTime, "measured_at", map[string]csvField{"weight": fWeight, "weight_kg": fWeightKg, "weight_lb": fWeightLb, "weight_lbs": fWeightLb, "unit": fUnit, "units": fUnit, "body_fat": fBodyFat, "body_fat_pct": fBodyFat, "body_fat_percent": fBodyFat, "bodyfat": fBodyFat, "fat_pct": fBodyFat, "lean_mass_kg": fLeanMass}),
		detect:  []string{"weight", "weight_kg", "weight_lb", "weight_lbs"},
		minCols: 3,
	},
	KindCSVMeals: {
		order:   []csvField{fTime, fName, fCalories, fProtein, fCarbs, fFat},
		names:   withTime(fTime, "eaten_at", map[string]csvField{"name": fName, "meal": fName, "food": fName, "description": fName, "calories": fCalories, "kcal": fCalories, "energy_kcal": fCalories, "energy": fCalories, "protein": fProtein, "protein_g": fProtein, "carbs": fCarbs, "carbs_g": fCarbs, "carbohydrates": fCarbs, "fat": fFat, "fat_g": fFat}),
		detect:  []string{"calories", "kcal", "energy_kcal"},
		minCols: 3,
	},
	KindCSVWorkouts: {
		order:   []csvField{fTime, fType, fTitle, fDuration, fAvgHR},
		names:   withTime(fTime, "started_at", map[string]csvField{"type": fType, "activity": fType, "workout_type": fType, "title": fTitle, "name": fTitle, "duration_min": fDuration, "duration": fDuration, "minutes": fDuration, "duration_minutes": fDuration, "avg_hr": fAvgHR, "average_hr": fAvgHR, "avg_heart_rate": fAvgHR, "heart_rate": fAvgHR, "max_hr": fMaxHR, "max_heart_rate": fMaxHR, "energy_kcal": fEnergy, "calories": fEnergy, "kcal": fEnergy, "avg_hr_bpm": fAvgHR, "max_hr_bpm": fMaxHR, "content_id": fContent}),
		detect:  []string{"duration_min", "duration", "duration_minutes"},
		minCols: 4,
	},
	// Header only (Hearth's export): scanned_at, body_fat_pct, lean_mass_kg,
	// fat_mass_kg, bone_mass_kg, visceral_fat.
	KindCSVBodyScans: {
		order:   []csvField{fTime, fBodyFat, fLeanMass, fFatMass, fBoneMass, fVisceral},
		names:   withTime(fTime, "scanned_at", map[string]csvField{"body_fat_pct": fBodyFat, "body_fat": fBodyFat, "lean_mass_kg": fLeanMass, "fat_mass_kg": fFatMass, "bone_mass_kg": fBoneMass, "visceral_fat": fVisceral}),
		detect:  []string{"scanned_at", "fat_mass_kg", "bone_mass_kg"},
		minCols: 3,
	},
}

// csvWeightUnits are the weight units a CSV may name, as factors to kg.
var csvWeightUnits = map[string]float64{"kg": 1, "kgs": 1, "kilogram": 1, "kilograms": 1,
	"lb": health.KgPerLb, "lbs": health.KgPerLb, "pound": health.KgPerLb, "pounds": health.KgPerLb,
	"st": 6.35029318, "stone": 6.35029318}

// capitalize upper-cases the first letter: "running" → "Running".
func capitalize(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

func withTime(f csvField, extra string, m map[string]csvField) map[string]csvField {
	for _, n := range append(timeNames, extra) {
		m[n] = f
	}
	return m
}

// columns maps each field to its column index, -1 when absent.
type columns [nFields]int

func positional(kind Kind) columns {
	var c columns
	for i := range c {
		c[i] = -1
	}
	for i, f := range csvLayouts[kind].order {
		c[f] = i
	}
	return c
}

// normalizeHeader turns "Weight (kg)" into "weight_kg".
func normalizeHeader(h string) string {
	h = strings.ToLower(strings.TrimSpace(h))
	var b strings.Builder
	under := false
	for _, r := range h {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			under = false
		} else if !under && b.Len() > 0 {
			b.WriteByte('_')
			under = true
		}
	}
	return strings.TrimSuffix(b.String(), "_")
}

func headerColumns(kind Kind, header []string, line int) (columns, error) {
	var c columns
	for i := range c {
		c[i] = -1
	}
	names := csvLayouts[kind].names
	for i, h := range header {
		if f, ok := names[normalizeHeader(h)]; ok && c[f] < 0 {
			c[f] = i
		}
	}
	missing := func(what string) error {
		return Problem{Line: line, Message: fmt.Sprintf("the header has no %s column (read as %s)", what, kind)}
	}
	if c[fTime] < 0 {
		return c, missing("date")
	}
	switch kind {
	case KindCSVWeight:
		if c[fWeight] < 0 && c[fWeightKg] < 0 && c[fWeightLb] < 0 {
			return c, missing("weight")
		}
		if c[fWeight] >= 0 && c[fUnit] < 0 {
			return c, missing("unit (or name the weight column weight_kg or weight_lb)")
		}
	case KindCSVMeals:
		if c[fCalories] < 0 {
			return c, missing("calories")
		}
	case KindCSVBodyScans:
		if c[fBodyFat] < 0 || c[fLeanMass] < 0 {
			return c, missing("body_fat_pct and lean_mass_kg")
		}
	case KindCSVWorkouts:
		if c[fType] < 0 {
			return c, missing("type")
		}
		if c[fDuration] < 0 {
			return c, missing("duration_min")
		}
	}
	return c, nil
}
