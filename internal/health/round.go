package health

import (
	"math"
	"strconv"
	"strings"
)

func ptr[T any](v T) *T { return &v }

// roundTo rounds v to the given number of decimals (stored precision:
// kilograms to 0.01; what is shown rounds with Round1).
func roundTo(v float64, decimals int) float64 {
	p := math.Pow(10, float64(decimals))
	return math.Round(v*p) / p
}

func round2(v float64) float64 { return roundTo(v, 2) }

func round1(v float64) float64 { return Round1(v) }

func roundPtr(v *float64, decimals int) *float64 {
	if v == nil {
		return nil
	}
	if decimals == 1 {
		return ptr(Round1(*v))
	}
	return ptr(roundTo(*v, decimals))
}

// Round1 is the one rounding rule for a figure shown with one decimal: half
// away from zero on the number's shortest decimal form, so 83.85 is 83.9
// wherever it shows. Multiplying first (math.Round(v*10)/10) and fmt's
// "%.1f" each round the binary value instead and disagree with each other
// on one x.x5 value in two (fmt wrote 83.8 where the headline wrote 83.9).
// TestOneRoundingRule holds every display path to it.
func Round1(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return v
	}
	s := strconv.FormatFloat(math.Abs(v), 'f', -1, 64)
	i := strings.IndexByte(s, '.')
	if i < 0 || len(s)-i-1 <= 1 {
		return v // at most one decimal already
	}
	// The decimal point moved one place right, in the text: exact.
	shifted, err := strconv.ParseFloat(s[:i]+s[i+1:i+2]+"."+s[i+2:], 64)
	if err != nil {
		return math.Round(v*10) / 10
	}
	r := math.Round(shifted) / 10
	if v < 0 {
		r = -r
	}
	return r
}

// Fixed1 renders v rounded by Round1 with exactly one decimal ("84.0").
func Fixed1(v float64) string {
	s := strconv.FormatFloat(Round1(v), 'f', 1, 64)
	if s == "-0.0" {
		s = "0.0"
	}
	return s
}
