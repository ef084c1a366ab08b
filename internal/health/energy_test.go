package health

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func birth(y int, m time.Month, d int) *time.Time {
	t := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	return &t
}

func TestAgeOn(t *testing.T) {
	tests := []struct {
		born *time.Time
		on   time.Time
		want int
	}{
		{birth(1988, 3, 1), on(time.UTC, 2026, 3, 1, 9, 0), 38},  // birthday today (1988 was a leap year)
		{birth(1988, 3, 1), on(time.UTC, 2026, 2, 28, 9, 0), 37}, // day before
		{birth(2000, 2, 29), on(time.UTC, 2026, 2, 28, 9, 0), 25},
		{birth(2000, 2, 29), on(time.UTC, 2026, 3, 1, 9, 0), 26},
		{birth(1988, 12, 31), on(time.UTC, 2026, 12, 30, 9, 0), 37},
		{nil, on(time.UTC, 2026, 1, 1, 0, 0), 0},
	}
	for _, tc := range tests {
		if got := (Member{BirthDate: tc.born}).AgeOn(tc.on); got != tc.want {
			t.Errorf("born %v on %v: %d, want %d", tc.born, tc.on, got, tc.want)
		}
	}
}

func TestActivityMultiplier(t *testing.T) {
	for level, want := range map[string]float64{"sedentary": 1.2, "light": 1.375, "moderate": 1.55, "active": 1.725, "very_active": 1.9} {
		if got, ok := ActivityMultiplier(level); !ok || got != want {
			t.Errorf("%s = %v, %v", level, got, ok)
		}
	}
	if _, ok := ActivityMultiplier("couch"); ok {
		t.Error("unknown level accepted")
	}
}

func TestBMRAndTDEE(t *testing.T) {
	day := on(time.UTC, 2026, 3, 15, 9, 0)
	maya := Member{Sex: "female", HeightCm: f(168), BirthDate: birth(1988, 4, 12), ActivityLevel: "moderate"} // 37 on day
	// 10·70 + 6.25·168 − 5·37 − 161 = 700 + 1050 − 185 − 161
	if got, err := BMR(maya, 70, day); err != nil || got != 1404 {
		t.Fatalf("female BMR = %v, %v; want 1404", got, err)
	}
	theo := Member{Sex: "male", HeightCm: f(180), BirthDate: birth(1986, 3, 15)} // 40 today
	// 800 + 1125 − 200 + 5
	if got, err := BMR(theo, 80, day); err != nil || got != 1730 {
		t.Fatalf("male BMR = %v, %v; want 1730", got, err)
	}
	if got, assumed, err := TDEE(maya, 70, day); err != nil || assumed || !eqF(&got, f(2176.2)) {
		t.Errorf("TDEE moderate = %v %v %v, want 2176.2", got, assumed, err)
	}
	if got, assumed, err := TDEE(theo, 80, day); err != nil || !assumed || !eqF(&got, f(2076)) {
		t.Errorf("TDEE with no activity level = %v %v %v, want 2076 (sedentary assumed)", got, assumed, err)
	}
	_, err := BMR(Member{Sex: "other"}, 0, day)
	if !errors.Is(err, ErrIncompleteProfile) || !strings.Contains(err.Error(), "missing sex, height, birth date, weight") {
		t.Errorf("missing everything: %v", err)
	}
	if _, _, err := TDEE(Member{Sex: "female", HeightCm: f(160)}, 60, day); !errors.Is(err, ErrIncompleteProfile) ||
		!strings.HasSuffix(err.Error(), "missing birth date") {
		t.Errorf("missing birth date: %v", err)
	}
}

func TestSuggestCalorieTarget(t *testing.T) {
	day := on(time.UTC, 2026, 3, 15, 9, 0)
	female := Member{Sex: "female", HeightCm: f(168), BirthDate: birth(1988, 4, 12), ActivityLevel: "moderate"}
	male := Member{Sex: "male", HeightCm: f(180), BirthDate: birth(1986, 3, 15), ActivityLevel: "sedentary"}
	with := func(m Member, goal *float64, level string) Member {
		m.GoalWeightKg = goal
		if level != "" {
			m.ActivityLevel = level
		}
		return m
	}
	tests := []struct {
		name      string
		m         Member
		kg        float64
		calories  float64
		tdee      float64
		direction string
		floor     float64
		floored   bool
	}{
		// 2176.2 − 500 = 1676.2 → 1680
		{"female losing", with(female, f(65), ""), 70, 1680, 2176, DirectionLose, 1404, false},
		// 2076 − 500 = 1576 < BMR 1730
		{"male losing floored at BMR", with(male, f(75), ""), 80, 1730, 2076, DirectionLose, 1730, true},
		// 1730 × 1.725 = 2984.25 + 250 = 3234.25 → 3230
		{"male gaining", with(male, f(85), "active"), 80, 3230, 2984, DirectionGain, 1730, false},
		// 1404 × 1.375 = 1930.5
		{"no goal maintains", with(female, nil, "light"), 70, 1930, 1931, DirectionMaintain, 1404, false},
		{"goal within 0.5 kg maintains", with(female, f(70.3), ""), 70, 2180, 2176, DirectionMaintain, 1404, false},
		// BMR 450 + 937.5 − 350 − 161 = 876.5; 1051.8 − 500 < 1200
		{"small older woman floored at 1200", Member{Sex: "female", HeightCm: f(150), BirthDate: birth(1956, 1, 1),
			ActivityLevel: "sedentary", GoalWeightKg: f(40)}, 45, 1200, 1052, DirectionLose, 1200, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := SuggestCalorieTarget(tc.m, tc.kg, day)
			if err != nil {
				t.Fatal(err)
			}
			if got.Calories != tc.calories || got.TDEE != tc.tdee || got.Direction != tc.direction ||
				got.Floor != tc.floor || got.Floored != tc.floored {
				t.Fatalf("got %+v", got)
			}
			if !strings.Contains(got.Reasoning, formatThousands(tc.calories)+" kcal/day") {
				t.Errorf("reasoning lacks the result: %s", got.Reasoning)
			}
		})
	}
	if _, err := SuggestCalorieTarget(Member{}, 70, day); !errors.Is(err, ErrIncompleteProfile) {
		t.Errorf("incomplete profile: %v", err)
	}
}

func TestSuggestCalorieTargetReasoning(t *testing.T) {
	day := on(time.UTC, 2026, 3, 15, 9, 0)
	m := Member{Sex: "female", HeightCm: f(168), BirthDate: birth(1988, 4, 12), ActivityLevel: "moderate", GoalWeightKg: f(65)}
	got, _ := SuggestCalorieTarget(m, 70, day)
	want := "BMR 1,404 kcal (Mifflin-St Jeor: female, 37 y, 168 cm, 70 kg) × 1.55 (moderate activity) = TDEE 2,176 kcal/day. " +
		"Goal 65 kg is below current 70 kg: −500 kcal/day → 1,680 kcal/day."
	if got.Reasoning != want {
		t.Errorf("reasoning\n got %s\nwant %s", got.Reasoning, want)
	}
	m.Unit, m.ActivityLevel, m.Sex, m.GoalWeightKg = LB, "", "male", f(85)
	got, _ = SuggestCalorieTarget(m, 80, day)
	for _, part := range []string{"176.4 lb", "187.4 lb", "not set so assumed", "+250 kcal/day"} {
		if !strings.Contains(got.Reasoning, part) {
			t.Errorf("lb reasoning lacks %q: %s", part, got.Reasoning)
		}
	}
}
