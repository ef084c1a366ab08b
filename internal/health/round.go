package health

import "math"

func ptr[T any](v T) *T { return &v }

// roundTo rounds v to the given number of decimals.
func roundTo(v float64, decimals int) float64 {
	p := math.Pow(10, float64(decimals))
	return math.Round(v*p) / p
}

func round2(v float64) float64 { return roundTo(v, 2) }

func round1(v float64) float64 { return roundTo(v, 1) }

func roundPtr(v *float64, decimals int) *float64 {
	if v == nil {
		return nil
	}
	return ptr(roundTo(*v, decimals))
}
