package health

import (
	"math"
	"testing"
	"time"
	_ "time/tzdata" // the tests need Europe/Berlin on any machine
)

func berlin(t *testing.T) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatalf("time zone: %v", err) // time/tzdata is linked in: never missing
	}
	return loc
}

// on returns y-m-d h:mi in loc.
func on(loc *time.Location, y int, m time.Month, d, h, mi int) time.Time {
	return time.Date(y, m, d, h, mi, 0, 0, loc)
}

func f(v float64) *float64 { return &v }

func i(v int) *int { return &v }

func eqF(a, b *float64) bool {
	if a == nil || b == nil {
		return a == b
	}
	return math.Abs(*a-*b) < 1e-9
}

func eqI(a, b *int) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func fs(p *float64) string {
	if p == nil {
		return "nil"
	}
	return trimFloat(*p)
}

func is(p *int) string {
	if p == nil {
		return "nil"
	}
	return trimFloat(float64(*p))
}

func w(at time.Time, kg float64) WeightReading { return WeightReading{MeasuredAt: at, WeightKg: kg} }
