package program

import (
	"testing"
	"time"
)

// TestCountBetweenMatchesNaive checks the week arithmetic against a day-by-day count.
func TestCountBetweenMatchesNaive(t *testing.T) {
	patterns := []Pattern{
		{true, true, true, true, true, true, true},
		{false, true, false, true, false, true, false},
		{true, false, false, false, false, false, false},
		{false, true, true, false, true, true, true},
	}
	base := time.Date(2026, 2, 20, 0, 0, 0, 0, time.UTC)
	for _, p := range patterns {
		for startOff := range 8 {
			from := base.AddDate(0, 0, startOff)
			for span := -2; span < 40; span++ {
				to := from.AddDate(0, 0, span)
				naive := 0
				for d := from; !d.After(to); d = d.AddDate(0, 0, 1) {
					if p.Has(d.Weekday()) {
						naive++
					}
				}
				if got := p.countBetween(from, to); got != naive {
					t.Fatalf("%s from %s to %s: got %d, want %d", p, from.Format(time.DateOnly), to.Format(time.DateOnly), got, naive)
				}
			}
		}
	}
}
