package importer

import (
	"hearth/internal/health"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// appleTimeLayout is how export.xml writes instants: "2024-01-05 07:31:12 -0800".
const appleTimeLayout = "2006-01-02 15:04:05 -0700"

// parseAppleTime reads an Apple timestamp and returns the instant in UTC and
// the record's offset from UTC in seconds. The fixed-width form is parsed by
// hand (it is on every record); anything else goes through time.Parse.
func parseAppleTime(s string) (time.Time, int, bool) {
	if len(s) == len(appleTimeLayout) && s[4] == '-' && s[7] == '-' && s[10] == ' ' && s[13] == ':' &&
		s[16] == ':' && s[19] == ' ' && (s[20] == '+' || s[20] == '-') {
		y, ok1 := digits(s[0:4])
		mo, ok2 := digits(s[5:7])
		d, ok3 := digits(s[8:10])
		h, ok4 := digits(s[11:13])
		mi, ok5 := digits(s[14:16])
		sec, ok6 := digits(s[17:19])
		oh, ok7 := digits(s[21:23])
		om, ok8 := digits(s[23:25])
		if ok1 && ok2 && ok3 && ok4 && ok5 && ok6 && ok7 && ok8 && mo >= 1 && mo <= 12 && d >= 1 && h < 24 &&
			mi < 60 && sec < 60 && oh < 24 && om < 60 {
			off := oh*3600 + om*60
			if s[20] == '-' {
				off = -off
			}
			t := time.Date(y, time.Month(mo), d, h, mi, sec, 0, time.UTC)
			if t.Day() != d { // e.g. Feb 30
				return time.Time{}, 0, false
			}
			return t.Add(-time.Duration(off) * time.Second), off, true
		}
		return time.Time{}, 0, false
	}
	for _, layout := range []string{appleTimeLayout, time.RFC3339Nano} {
		if t, err := time.Parse(layout, strings.TrimSpace(s)); err == nil {
			_, off := t.Zone()
			return t.UTC(), off, true
		}
	}
	return time.Time{}, 0, false
}

func digits(s string) (int, bool) {
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// parseNumber reads a finite decimal number.
func parseNumber(s string) (float64, bool) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, false
	}
	return v, true
}

// Unit conversions to Hearth's canonical units (kg, kcal, g, minutes, km).
var (
	massToKg     = map[string]float64{"kg": 1, "g": 0.001, "lb": health.KgPerLb, "lbs": health.KgPerLb, "st": health.KgPerStone}
	energyToKcal = map[string]float64{"kcal": 1, "Cal": 1, "kJ": 1 / 4.184, "cal": 0.001, "J": 1 / 4184.0}
	massToG      = map[string]float64{"g": 1, "mg": 0.001, "mcg": 0.000001, "µg": 0.000001, "kg": 1000}
	timeToMin    = map[string]float64{"min": 1, "s": 1.0 / 60, "sec": 1.0 / 60, "hr": 60, "h": 60}
	rateToPerMin = map[string]float64{"count/min": 1, "count/s": 60, "bpm": 1}
	lengthToKm   = map[string]float64{"km": 1, "m": 0.001, "cm": 0.00001, "mi": 1.609344, "yd": 0.0009144, "ft": 0.0003048}
)

// appleQuantity describes a Record type Hearth imports.
type appleQuantity struct {
	kind  recKind
	stage string             // import_samples kind for recSample
	units map[string]float64 // unit attribute → factor to the canonical unit
	pct   bool               // a fraction 0-1 with unit "%", stored as percent
	meal  bool               // a dietary sample, summed into meal slots
	min   float64            // smallest accepted canonical value
	minEx bool               // min itself is refused (body mass must be > 0)
	max   float64
}

// appleTypes are the Record types Hearth imports; others are skipped and counted.
var appleTypes = map[string]appleQuantity{
	"HKQuantityTypeIdentifierBodyMass":              {kind: recWeight, units: massToKg, min: 0, minEx: true, max: 700},
	"HKQuantityTypeIdentifierLeanBodyMass":          {kind: recSample, stage: "lean_mass", units: massToKg, min: 0, minEx: true, max: 700},
	"HKQuantityTypeIdentifierBodyFatPercentage":     {kind: recSample, stage: "body_fat", pct: true, min: 0, max: 100},
	"HKQuantityTypeIdentifierDietaryEnergyConsumed": {kind: recSample, meal: true, stage: "energy", units: energyToKcal, min: 0, max: 100000},
	"HKQuantityTypeIdentifierDietaryProtein":        {kind: recSample, meal: true, stage: "protein", units: massToG, min: 0, max: 10000},
	"HKQuantityTypeIdentifierDietaryCarbohydrates":  {kind: recSample, meal: true, stage: "carbs", units: massToG, min: 0, max: 10000},
	"HKQuantityTypeIdentifierDietaryFatTotal":       {kind: recSample, meal: true, stage: "fat", units: massToG, min: 0, max: 10000},
}

// slotOf names the meal of a food entry that names none, by the local hour
// it was logged at: breakfast 04:00-10:59, lunch 11:00-14:59, a snack
// 15:00-16:59, dinner 17:00-22:59, and a snack at night (23:00-03:59).
func slotOf(h int) string {
	switch {
	case h >= 4 && h < 11:
		return "breakfast"
	case h >= 11 && h < 15:
		return "lunch"
	case h >= 17 && h < 23:
		return "dinner"
	}
	return "snack"
}

// workoutType turns "HKWorkoutActivityTypeTraditionalStrengthTraining" into
// the type "traditional_strength_training" and the title
// "Traditional Strength Training".
func workoutType(activity string) (typ, title string) {
	name := strings.TrimPrefix(activity, "HKWorkoutActivityType")
	var t, h strings.Builder
	for i, r := range name {
		upper := r >= 'A' && r <= 'Z'
		if upper && i > 0 {
			t.WriteByte('_')
			h.WriteByte(' ')
		}
		switch {
		case upper:
			t.WriteRune(r + ('a' - 'A'))
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			t.WriteRune(r)
		default:
			if t.Len() > 0 {
				t.WriteByte('_')
			}
		}
		h.WriteRune(r)
	}
	return truncate(t.String(), 40), truncate(h.String(), 120)
}

// truncate cuts s to at most n bytes without splitting a UTF-8 sequence.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
