package health

import (
	"math"
	"time"
)

// ETAStatus says whether a goal ETA could be given and, if not, why.
type ETAStatus string

// Goal ETA statuses.
const (
	ETAOnTrack        ETAStatus = "on_track"         // moving toward the goal; ETA set
	ETAReached        ETAStatus = "reached"          // within GoalToleranceKg of the goal, or past it
	ETANoGoal         ETAStatus = "no_goal"          // no goal weight set
	ETANoData         ETAStatus = "no_data"          // no weigh-ins
	ETATooFewReadings ETAStatus = "too_few_readings" // not enough recent weigh-ins to fit a pace
	ETANotConverging  ETAStatus = "not_converging"   // flat, moving away, or more than MaxETADays away
)

// Goal ETA parameters. The pace is a least-squares line through the trend
// values of the weigh-in days of the last FitWindowDays days; it needs at
// least MinFitPoints such days spanning at least MinFitSpanDays calendar days.
const (
	GoalToleranceKg  = 0.5
	FitWindowDays    = 28
	MinFitSpanDays   = 14
	MinFitPoints     = 4
	MinPaceKgPerWeek = 0.05
	MaxETADays       = 730
)

// Progress is how far a member is toward a goal weight (kilograms rounded to
// 0.01, percent to 0.1). ToGoKg is goal − current trend: negative means
// weight still to lose. Percent is the share of start→goal covered, clamped
// to 0-100. ETA is the local day the trend reaches the goal at the current pace.
type Progress struct {
	Status        ETAStatus  `json:"status"`
	Note          string     `json:"note"`
	GoalKg        *float64   `json:"goal_kg,omitempty"`
	StartKg       *float64   `json:"start_kg,omitempty"`
	CurrentKg     *float64   `json:"current_kg,omitempty"`
	ToGoKg        *float64   `json:"to_go_kg,omitempty"`
	Percent       *float64   `json:"percent,omitempty"`
	PaceKgPerWeek *float64   `json:"pace_kg_per_week,omitempty"`
	ETA           *time.Time `json:"eta,omitempty"`
	DaysToGoal    *int       `json:"days_to_goal,omitempty"`
}

// GoalProgress measures the readings' trend (as of now, see WeightTrend)
// against goalKg. startKg is where the member started; nil means the first
// day's value among the readings. Passing the goal (e.g. below a goal weight
// that was reached by losing) counts as reached.
func GoalProgress(readings []WeightReading, goalKg float64, startKg *float64, now time.Time, loc *time.Location) Progress {
	loc = orUTC(loc)
	s, _ := buildSeries(readings, now, loc)
	return progressFrom(s, &goalKg, startKg, dayNum(now, loc), loc)
}

func progressFrom(s series, goal, start *float64, today int, loc *time.Location) Progress {
	if goal == nil || *goal <= 0 {
		return Progress{Status: ETANoGoal, Note: "no goal weight set"}
	}
	p := Progress{GoalKg: ptr(round2(*goal))}
	if len(s.days) == 0 {
		p.Status, p.Note = ETANoData, "no weigh-ins yet"
		return p
	}
	cur, _ := s.at(today)
	st := s.raw[0]
	if start != nil && *start > 0 {
		st = *start
	}
	need, total := *goal-cur, *goal-st
	p.StartKg, p.CurrentKg, p.ToGoKg = ptr(round2(st)), ptr(round2(cur)), ptr(round2(need))

	reached := math.Abs(need) <= GoalToleranceKg ||
		(math.Abs(total) > GoalToleranceKg && math.Signbit(need) != math.Signbit(total))
	pct := 0.0
	switch {
	case reached:
		pct = 100
	case math.Abs(total) > GoalToleranceKg:
		pct = min(100, max(0, (cur-st)/total*100))
	}
	p.Percent = ptr(round1(pct))

	slope, fitted := s.fit(today)
	if fitted {
		p.PaceKgPerWeek = ptr(round2(slope * 7))
	}
	switch {
	case reached:
		p.Status, p.Note = ETAReached, "goal reached"
	case !fitted:
		p.Status, p.Note = ETATooFewReadings, "needs weigh-ins on at least 4 days spanning 2 weeks within the last 4 weeks"
	case math.Abs(slope*7) < MinPaceKgPerWeek:
		p.Status, p.Note = ETANotConverging, "trend is flat"
	case math.Signbit(slope) != math.Signbit(need):
		p.Status, p.Note = ETANotConverging, "trend is moving away from the goal"
	default:
		days := int(math.Round(need / slope))
		if days > MaxETADays {
			p.Status, p.Note = ETANotConverging, "at the current pace the goal is more than two years away"
			break
		}
		days = max(days, 1)
		p.Status, p.Note = ETAOnTrack, "on track at the current pace"
		p.DaysToGoal, p.ETA = ptr(days), ptr(dayTime(today+days, loc))
	}
	return p
}

// fit returns the least-squares slope (kg/day) of the trend over the weigh-in
// days in the fit window ending today; ok is false with too few points.
func (s series) fit(today int) (slope float64, ok bool) {
	var xs, ys []float64
	for i, d := range s.days {
		if d > today-FitWindowDays && d <= today {
			xs = append(xs, float64(d-today))
			ys = append(ys, s.trend[i])
		}
	}
	if len(xs) < MinFitPoints || xs[len(xs)-1]-xs[0]+1 < MinFitSpanDays {
		return 0, false
	}
	return linearSlope(xs, ys), true
}

// linearSlope is the ordinary least-squares slope of ys over xs (len ≥ 2,
// not all xs equal).
func linearSlope(xs, ys []float64) float64 {
	n := float64(len(xs))
	var mx, my float64
	for i := range xs {
		mx += xs[i]
		my += ys[i]
	}
	mx, my = mx/n, my/n
	var sxy, sxx float64
	for i := range xs {
		sxy += (xs[i] - mx) * (ys[i] - my)
		sxx += (xs[i] - mx) * (xs[i] - mx)
	}
	return sxy / sxx
}
