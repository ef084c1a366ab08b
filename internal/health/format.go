package health

import (
	"math"
	"strconv"
	"strings"
)

// trimFloat prints v without trailing zeros ("81.4", "80").
func trimFloat(v float64) string {
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// minus is the typographic minus sign used in signed figures.
const minus = "\u2212"

// formatThousands rounds v to a whole number and groups thousands: "1,640".
func formatThousands(v float64) string {
	n := int64(math.Round(v))
	sign := ""
	if n < 0 {
		sign, n = minus, -n
	}
	s := strconv.FormatInt(n, 10)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return sign + b.String()
}

// FormatDelta renders a weight change given in kilograms in the unit, signed,
// with one decimal: "−0.6 kg", "+1.3 lb", "±0.0 kg".
func (u Unit) FormatDelta(deltaKg float64) string {
	u = u.Normalize()
	v := Round1(u.FromKg(deltaKg))
	s := strconv.FormatFloat(math.Abs(v), 'f', 1, 64)
	switch {
	case v > 0:
		s = "+" + s
	case v < 0:
		s = minus + s
	default:
		s = "±" + s
	}
	return s + " " + string(u)
}

// Thousands renders a whole number with thousands separators, as figures
// are written for members: "1,640".
func Thousands(v float64) string { return formatThousands(v) }

// Figure renders a figure with at most one decimal and no trailing zero:
// "96", "81.4".
func Figure(v float64) string { return formatOne(v) }
