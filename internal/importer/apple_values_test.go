package importer

import (
	"testing"
)

func TestParseAppleTime(t *testing.T) {
	tests := []struct {
		in   string
		want string
		off  int
	}{
		{"2024-01-05 07:31:12 -0800", "2024-01-05T15:31:12Z", -8 * 3600},
		{"2024-01-08 08:05:00 +0100", "2024-01-08T07:05:00Z", 3600},
		{"2024-06-30 23:59:59 +0530", "2024-06-30T18:29:59Z", 5*3600 + 1800},
		{"2024-01-05T07:31:12-08:00", "2024-01-05T15:31:12Z", -8 * 3600}, // RFC 3339 fallback
	}
	for _, tt := range tests {
		got, off, ok := parseAppleTime(tt.in)
		if !ok || !got.Equal(utc(tt.want)) || off != tt.off {
			t.Errorf("parseAppleTime(%q) = %v %d %v, want %s %d", tt.in, got, off, ok, tt.want, tt.off)
		}
	}
	for _, bad := range []string{"", "2024-02-30 07:00:00 +0000", "2024-13-05 07:31:12 -0800", "2024-01-05 24:31:12 -0800",
		"2024-01-05 07:31:12 *0800", "2024-01-05 07:31", "x024-01-05 07:31:12 -0800"} {
		if _, _, ok := parseAppleTime(bad); ok {
			t.Errorf("parseAppleTime(%q) accepted", bad)
		}
	}
}

// A food entry that names no meal is named by its local hour (the
// boundaries the README documents).
func TestSlotOf(t *testing.T) {
	want := map[int]string{0: "snack", 3: "snack", 4: "breakfast", 10: "breakfast", 11: "lunch", 14: "lunch", 15: "snack",
		16: "snack", 17: "dinner", 22: "dinner", 23: "snack"}
	for h, slot := range want {
		if got := slotOf(h); got != slot {
			t.Errorf("slotOf(%02d:00) = %s, want %s", h, got, slot)
		}
	}
}

func TestWorkoutType(t *testing.T) {
	tests := map[string][2]string{
		"HKWorkoutActivityTypeRunning":                       {"running", "Running"},
		"HKWorkoutActivityTypeTraditionalStrengthTraining":   {"traditional_strength_training", "Traditional Strength Training"},
		"HKWorkoutActivityTypeHighIntensityIntervalTraining": {"high_intensity_interval_training", "High Intensity Interval Training"},
		"HKWorkoutActivityType":                              {"", ""},
		"Yoga":                                               {"yoga", "Yoga"},
	}
	for in, want := range tests {
		typ, title := workoutType(in)
		if typ != want[0] || title != want[1] {
			t.Errorf("workoutType(%q) = %q %q, want %q %q", in, typ, title, want[0], want[1])
		}
	}
	if typ, _ := workoutType("HKWorkoutActivityType" + "VeryLongMadeUpActivityNameThatGoesOnAndOn"); len(typ) > 40 {
		t.Errorf("type %q longer than 40", typ)
	}
}

func TestKeyIgnoresZoneAndUnit(t *testing.T) {
	a, _, _ := parseAppleTime("2024-01-05 07:31:12 -0800")
	b, _, _ := parseAppleTime("2024-01-05 10:31:12 -0500")
	var k keyer
	ka := k.reset("HKQuantityTypeIdentifierBodyMass").time(a).num(180.4 * 0.45359237).str("Withings").sum()
	kb := k.reset("HKQuantityTypeIdentifierBodyMass").time(b).num(81.828).str("Withings").sum()
	if ka != kb || len(ka) != 32 {
		t.Errorf("keys differ: %s %s", ka, kb)
	}
	if kc := k.reset("HKQuantityTypeIdentifierBodyMass").time(a).num(81.9).str("Withings").sum(); kc == ka {
		t.Error("a different value has the same key")
	}
}
