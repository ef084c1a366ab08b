package health

import (
	"fmt"
	"math"
	"sort"
	"time"
)

// Plausibility: one rule set for every way a figure enters Hearth. The API
// and the kiosk refuse an implausible entry until it is confirmed, the
// importer stores it with a warning, and the coach never takes such a
// reading for the member's current weight.
const (
	// MinWeightKg and MaxWeightKg bound any weigh-in (outside is refused,
	// confirmed or not).
	MinWeightKg = 2.0
	MaxWeightKg = 400.0
	// TrendWindow is how far back the readings a new one is compared with
	// reach; with fewer than TrendMinReadings of them only the range applies.
	TrendWindow      = 14 * 24 * time.Hour
	TrendMinReadings = 3
	// MaxTrendDeviation is how far (a share) a weigh-in may lie from the trend.
	MaxTrendDeviation = 0.15
	// MaxPlausibleMealKcal is the most one meal plausibly holds; MaxMealKcal
	// is the hard limit past which nothing is stored.
	MaxPlausibleMealKcal = 5000.0
	MaxMealKcal          = 10000.0
)

// Verdict is what the plausibility rules make of one figure.
type Verdict struct {
	// Plausible is false for a figure that needs the member's confirmation.
	Plausible bool
	// TrendKg is the trend it was compared with (0 when none applied).
	TrendKg float64
	// Message explains an implausible figure in the member's unit, e.g.
	// "6.9 kg is far from your trend of 70.5 kg".
	Message string
}

// WeightBounds is the possible range of a weigh-in in the unit: 2–400 kg,
// converted and rounded for pounds (4.4–882 lb), so the limits a member
// reads are the limits applied.
func WeightBounds(u Unit) (lo, hi float64) {
	u = u.Normalize()
	if u == KG {
		return MinWeightKg, MaxWeightKg
	}
	return math.Round(u.FromKg(MinWeightKg)*10) / 10, math.Round(u.FromKg(MaxWeightKg))
}

// WeightRange is the message for a weight outside WeightBounds, in the
// member's unit ("must be between 4.4 and 882 lb").
func WeightRange(u Unit) string {
	lo, hi := WeightBounds(u)
	return fmt.Sprintf("must be between %s and %s %s", trimFloat(lo), trimFloat(hi), u.Normalize())
}

// InWeightRange reports whether v, a weight in the unit, is a possible human
// weight at all.
func InWeightRange(v float64, u Unit) bool {
	lo, hi := WeightBounds(u)
	return !math.IsNaN(v) && v >= lo && v <= hi
}

// CheckWeight compares a weigh-in of kg at time at with the member's
// smoothed trend of the history before it (readings in history at or after
// at, and the one with id skip, are left out: an edited reading is not
// compared with itself). A reading more than MaxTrendDeviation away from
// that trend is implausible; with fewer than TrendMinReadings readings in
// the TrendWindow before it nothing is.
func CheckWeight(kg float64, at time.Time, skip int64, history []WeightReading, u Unit, loc *time.Location) Verdict {
	var before []WeightReading
	inWindow := 0
	from := at.Add(-TrendWindow)
	for _, r := range history {
		if r.ID != 0 && r.ID == skip {
			continue
		}
		if r.MeasuredAt.Before(at) && InWeightRange(r.WeightKg, KG) {
			before = append(before, r)
			if !r.MeasuredAt.Before(from) {
				inWindow++
			}
		}
	}
	if inWindow < TrendMinReadings {
		return Verdict{Plausible: true}
	}
	// The trend compared with is the one the weight widget shows: the
	// moving average of all the history given (not only the window, whose
	// start would weigh more), rounded as WeightTrend rounds it, so "far
	// from your trend of 71.3 kg" and the widget's "trend 71.3 kg" agree.
	s, _ := buildSeries(before, at, orUTC(loc))
	trend := round2(s.trend[len(s.trend)-1])
	v := Verdict{Plausible: math.Abs(kg-trend) <= trend*MaxTrendDeviation, TrendKg: trend}
	if !v.Plausible {
		v.Message = fmt.Sprintf("%s is far from your trend of %s", u.Format(kg), u.Format(trend))
	}
	return v
}

// CheckMeal says whether one meal's calories are plausible.
func CheckMeal(kcal float64) Verdict {
	if kcal <= MaxPlausibleMealKcal {
		return Verdict{Plausible: true}
	}
	return Verdict{Message: fmt.Sprintf("%s kcal is more than one meal usually holds (over %s kcal)",
		formatThousands(kcal), formatThousands(MaxPlausibleMealKcal))}
}

// PlausibleWeights drops the readings that CheckWeight finds implausible
// against the readings before them, oldest first, so one mistyped weigh-in
// a member saved anyway is never taken for their current weight. The order
// of the rest is kept.
func PlausibleWeights(readings []WeightReading, loc *time.Location) []WeightReading {
	order := make([]int, len(readings))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		ra, rb := readings[order[a]], readings[order[b]]
		if !ra.MeasuredAt.Equal(rb.MeasuredAt) {
			return ra.MeasuredAt.Before(rb.MeasuredAt)
		}
		return ra.ID < rb.ID
	})
	drop := make([]bool, len(readings))
	var kept []WeightReading
	dropped := false
	for _, i := range order {
		r := readings[i]
		if !InWeightRange(r.WeightKg, KG) || !CheckWeight(r.WeightKg, r.MeasuredAt, 0, kept, KG, loc).Plausible {
			drop[i], dropped = true, true
			continue
		}
		kept = append(kept, r)
	}
	if !dropped {
		return readings
	}
	out := make([]WeightReading, 0, len(kept))
	for i, r := range readings {
		if !drop[i] {
			out = append(out, r)
		}
	}
	return out
}
