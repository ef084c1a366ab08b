package health

import (
	"math"
	"sort"
	"time"
)

// TrendAlpha is the per-day smoothing factor of the weight trend, an
// exponentially weighted moving average over daily values (the mean of a
// day's readings): trend += a·(day value − trend). With a gap of g days since
// the previous weigh-in a = 1 − (1 − TrendAlpha)^g, so a reading after a long
// break weighs as much as g daily readings would have, and a stale trend is
// not trusted. 0.1 is the classic "Hacker's Diet" value: daily water-weight
// noise of ±1 kg moves the trend by about 0.1 kg.
const TrendAlpha = 0.1

// ChartDays is how many days of points WeightTrend returns for the chart.
const ChartDays = 30

// TrendPoint is one day with a weigh-in: the day's value (the mean of its
// readings) and the trend as of that day. RawKg is a pointer for the JSON's
// sake (callers that thin a long series to one point a week leave it nil).
type TrendPoint struct {
	Day     time.Time `json:"day"`
	RawKg   *float64  `json:"raw_kg,omitempty"`
	TrendKg float64   `json:"trend_kg"`
}

// Trend is a member's weight situation as of now. Weights are kilograms,
// rounded to 0.01; nil fields mean "not enough data".
type Trend struct {
	Unit             Unit         `json:"unit"`
	Readings         int          `json:"readings"`
	CurrentKg        *float64     `json:"current_kg,omitempty"`
	BodyFatPct       *float64     `json:"body_fat_pct,omitempty"`
	LeanMassKg       *float64     `json:"lean_mass_kg,omitempty"`
	LastWeighIn      *time.Time   `json:"last_weigh_in,omitempty"`
	DaysSinceWeighIn *int         `json:"days_since_weigh_in,omitempty"`
	TrendKg          *float64     `json:"trend_kg,omitempty"`
	Change7dKg       *float64     `json:"change_7d_kg,omitempty"`
	Change30dKg      *float64     `json:"change_30d_kg,omitempty"`
	Points           []TrendPoint `json:"points,omitempty"`
	Goal             Progress     `json:"goal"`
}

// series is the smoothed daily weight series: parallel slices over the days
// that have readings, oldest first.
type series struct {
	days  []int
	raw   []float64
	trend []float64
}

// buildSeries sorts the readings up to now, averages them per local day and
// smooths the daily values. It returns the sorted readings too.
func buildSeries(readings []WeightReading, now time.Time, loc *time.Location) (series, []WeightReading) {
	rs := make([]WeightReading, 0, len(readings))
	for _, r := range readings {
		if r.WeightKg > 0 && !r.MeasuredAt.After(now) {
			rs = append(rs, r)
		}
	}
	sort.SliceStable(rs, func(i, j int) bool {
		if !rs[i].MeasuredAt.Equal(rs[j].MeasuredAt) {
			return rs[i].MeasuredAt.Before(rs[j].MeasuredAt)
		}
		return rs[i].ID < rs[j].ID
	})
	var s series
	sum, n := 0.0, 0
	flush := func() {
		if n > 0 {
			s.raw = append(s.raw, sum/float64(n))
		}
	}
	for _, r := range rs {
		d := dayNum(r.MeasuredAt, loc)
		if len(s.days) == 0 || s.days[len(s.days)-1] != d {
			flush()
			s.days = append(s.days, d)
			sum, n = 0, 0
		}
		sum += r.WeightKg
		n++
	}
	flush()
	s.trend = make([]float64, len(s.raw))
	for i, v := range s.raw {
		if i == 0 {
			s.trend[i] = v
			continue
		}
		a := 1 - math.Pow(1-TrendAlpha, float64(s.days[i]-s.days[i-1]))
		s.trend[i] = s.trend[i-1] + a*(v-s.trend[i-1])
	}
	return s, rs
}

// at returns the trend as of day: the value after the last weigh-in on or
// before day; ok is false before the first weigh-in.
func (s series) at(day int) (trend float64, ok bool) {
	i := sort.SearchInts(s.days, day+1) - 1
	if i < 0 {
		return 0, false
	}
	return s.trend[i], true
}

// observedSince reports whether some weigh-in falls on a day after day.
func (s series) observedSince(day int) bool {
	return len(s.days) > 0 && s.days[len(s.days)-1] > day
}

// WeightTrend summarises a member's readings (any order; readings after now
// are ignored) as of now: the latest reading, the smoothed trend with its 7-
// and 30-day change, chart points for the last ChartDays days, and progress
// toward the member's goal weight with an ETA at the current pace. A change
// is nil when no weigh-in falls inside its window or the trend did not exist
// yet at its start.
func WeightTrend(readings []WeightReading, m Member, now time.Time, loc *time.Location) Trend {
	loc = orUTC(loc)
	s, rs := buildSeries(readings, now, loc)
	t := Trend{Unit: m.Unit.Normalize(), Readings: len(rs)}
	today := dayNum(now, loc)
	t.Goal = progressFrom(s, m.GoalWeightKg, nil, today, loc)
	if len(rs) == 0 {
		return t
	}
	last := rs[len(rs)-1]
	at := last.MeasuredAt
	t.CurrentKg, t.BodyFatPct, t.LeanMassKg = ptr(round2(last.WeightKg)), roundPtr(last.BodyFatPct, 1), roundPtr(last.LeanMassKg, 2)
	t.LastWeighIn = &at
	t.DaysSinceWeighIn = ptr(today - dayNum(at, loc))
	cur, _ := s.at(today)
	t.TrendKg = ptr(round2(cur))
	for _, w := range []struct {
		days int
		out  **float64
	}{{7, &t.Change7dKg}, {30, &t.Change30dKg}} {
		if old, ok := s.at(today - w.days); ok && s.observedSince(today-w.days) {
			*w.out = ptr(round2(cur - old))
		}
	}
	t.Points = s.points(today-ChartDays+1, today, loc)
	return t
}

// points are the days with a weigh-in from day from to day to. Days without
// one have no point: a chart joins the points it is given, and draws a gap
// where they are far apart, rather than carrying the last trend forward as
// if it had been measured (issue 35's flat line across four weeks).
func (s series) points(from, to int, loc *time.Location) []TrendPoint {
	i := sort.SearchInts(s.days, from)
	var out []TrendPoint
	for ; i < len(s.days) && s.days[i] <= to; i++ {
		out = append(out, TrendPoint{Day: dayTime(s.days[i], loc), RawKg: ptr(round2(s.raw[i])), TrendKg: round2(s.trend[i])})
	}
	return out
}

// WeightSeries is every day with a weigh-in up to now (readings in any
// order; after now ignored), oldest first, with the trend as of each day:
// the history view's weight line over months or years.
func WeightSeries(readings []WeightReading, now time.Time, loc *time.Location) []TrendPoint {
	loc = orUTC(loc)
	s, _ := buildSeries(readings, now, loc)
	if len(s.days) == 0 {
		return nil
	}
	return s.points(s.days[0], s.days[len(s.days)-1], loc)
}
