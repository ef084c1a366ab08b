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
	// SuddenChangeKg: a weigh-in more than this from the previous one
	// within SuddenChangeWindow ("3 kg overnight") is questioned however
	// close to the trend it is: a day-to-day swing of about 1 kg is
	// common, more than twice that is more likely the scale, clothes or a
	// typo than the body. A reading past the window (weighing again the
	// next day) is compared with the trend only, so a real change counts
	// from its second day.
	SuddenChangeKg     = 2.5
	SuddenChangeWindow = 36 * time.Hour
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
	// Sudden: implausible as a sudden change from the weigh-in before
	// (SuddenChangeKg), not as far from the trend.
	Sudden bool
}

// WeightBounds is the possible range of a weigh-in in the unit: 2–400 kg,
// converted and rounded for pounds (4.4–882 lb), so the limits a member
// reads are the limits applied.
func WeightBounds(u Unit) (lo, hi float64) {
	u = u.Normalize()
	if u == KG {
		return MinWeightKg, MaxWeightKg
	}
	return Round1(u.FromKg(MinWeightKg)), math.Round(u.FromKg(MaxWeightKg))
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
		return suddenChange(kg, at, before, u)
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
		return v
	}
	if j := suddenChange(kg, at, before, u); !j.Plausible {
		j.TrendKg = trend
		return j
	}
	return v
}

// suddenChange judges kg at at against the newest of before (by time, then
// id): more than SuddenChangeKg from it within SuddenChangeWindow is
// implausible.
func suddenChange(kg float64, at time.Time, before []WeightReading, u Unit) Verdict {
	var prev *WeightReading
	for i, r := range before {
		if prev == nil || r.MeasuredAt.After(prev.MeasuredAt) || r.MeasuredAt.Equal(prev.MeasuredAt) && r.ID > prev.ID {
			prev = &before[i]
		}
	}
	if prev == nil || !SuddenChange(kg, at, *prev) {
		return Verdict{Plausible: true}
	}
	dir := "above"
	if kg < prev.WeightKg {
		dir = "below"
	}
	return Verdict{Sudden: true, Message: fmt.Sprintf("%s is %s %s your last weigh-in of %s", u.Format(kg), u.Format(math.Abs(kg-prev.WeightKg)), dir,
		u.Format(prev.WeightKg))}
}

// SuddenChange reports a weigh-in of kg at at more than SuddenChangeKg
// from prev, taken within SuddenChangeWindow before it.
func SuddenChange(kg float64, at time.Time, prev WeightReading) bool {
	return at.Sub(prev.MeasuredAt) <= SuddenChangeWindow && math.Abs(kg-prev.WeightKg) > SuddenChangeKg
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
//
// It gives CheckWeight's verdicts without calling it once per reading: the
// trend of the kept readings is carried forward day by day (the same
// moving average of daily means buildSeries computes), so a page build
// costs O(n log n) however many readings a member has on one day
// (TestPlausibleWeightsMatchesCheckWeight holds the two together).
func PlausibleWeights(readings []WeightReading, loc *time.Location) []WeightReading {
	loc = orUTC(loc)
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
	var t runningTrend
	var last *WeightReading // the newest kept reading (the sudden-change rule's previous weigh-in)
	var keptAt []time.Time  // kept readings' times, oldest first
	lo := 0                 // keptAt[lo:] are within the window of the reading at hand
	drop := make([]bool, len(readings))
	dropped := false
	for g := 0; g < len(order); {
		// A group of readings at one instant is judged against the kept
		// readings strictly before it (CheckWeight's "before at").
		at := readings[order[g]].MeasuredAt
		end := g
		for end < len(order) && readings[order[end]].MeasuredAt.Equal(at) {
			end++
		}
		from := at.Add(-TrendWindow)
		for lo < len(keptAt) && keptAt[lo].Before(from) {
			lo++
		}
		inWindow := len(keptAt) - lo
		trend := round2(t.value())
		var keep []int
		for _, i := range order[g:end] {
			kg := readings[i].WeightKg
			ok := InWeightRange(kg, KG) && (inWindow < TrendMinReadings || math.Abs(kg-trend) <= trend*MaxTrendDeviation) &&
				(last == nil || !SuddenChange(kg, at, *last))
			if !ok {
				drop[i], dropped = true, true
				continue
			}
			keep = append(keep, i)
		}
		for _, i := range keep {
			t.add(readings[i].WeightKg, dayNum(at, loc))
			keptAt = append(keptAt, at)
			last = &readings[i]
		}
		g = end
	}
	if !dropped {
		return readings
	}
	out := make([]WeightReading, 0, len(readings))
	for i, r := range readings {
		if !drop[i] {
			out = append(out, r)
		}
	}
	return out
}

// runningTrend is buildSeries' trend carried forward one reading at a
// time, oldest first: the moving average through the last finished day,
// and the running mean of the day in progress.
type runningTrend struct {
	final    float64 // the trend as of finalDay
	finalDay int
	hasFinal bool
	day      int // the day in progress
	sum      float64
	n        int
}

// value is the trend as of the newest day with a reading (0: none yet).
func (t *runningTrend) value() float64 {
	if t.n == 0 {
		return t.final
	}
	mean := t.sum / float64(t.n)
	if !t.hasFinal {
		return mean
	}
	a := 1 - math.Pow(1-TrendAlpha, float64(t.day-t.finalDay))
	return t.final + a*(mean-t.final)
}

// add takes in a reading of kg on day (days never go back).
func (t *runningTrend) add(kg float64, day int) {
	if t.n > 0 && day != t.day {
		t.final, t.finalDay, t.hasFinal = t.value(), t.day, true
		t.sum, t.n = 0, 0
	}
	t.day = day
	t.sum += kg
	t.n++
}
