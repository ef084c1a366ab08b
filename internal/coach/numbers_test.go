package coach

import (
	"strings"
	"testing"
)

func TestCheckNumbers(t *testing.T) {
	facts, err := collectNumbers(map[string]any{
		"weight": 81.43, "text": "1,640 of 2,000 kcal (82%), protein 92.4 of 140 g", "delta": -0.6,
		"day": "2026-05-03", "nested": []any{map[string]any{"pace": 0.25}},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		text string
		bad  []string
	}{
		{"Weight 81.4 kg, −0.6 kg this week.", nil},
		{"You weigh 81 kg.", nil}, // rounding a fact to fewer decimals
		{"1,640 kcal and 92.4 g protein; target 2,000 and 140 g, 82%.", nil},
		{"Two rest days, 3 workouts, day 7.", nil}, // small whole numbers are free
		{"ETA 3 May 2026 at 0.25 kg/week.", nil},
		{"You burned 2,345 kcal and walked 12.5 km.", []string{"2,345", "12.5"}},
		{"Weight 81.5 kg.", []string{"81.5"}},
		{"Protein 92.45 g.", []string{"92.45"}},
		{"11 sessions.", []string{"11"}},
	} {
		errs := checkNumbers("/coach/briefing", c.text, facts)
		var got []string
		for _, e := range errs {
			for _, b := range c.bad {
				if strings.Contains(e.Message, "number "+b+" ") {
					got = append(got, b)
				}
			}
		}
		if len(errs) != len(c.bad) || len(got) != len(c.bad) {
			t.Errorf("%q: errors %v, want the numbers %v", c.text, errs, c.bad)
		}
	}
}
