package kiosk

import (
	"fmt"
	"math"
	"strings"
	"time"

	"hearth/internal/health"
	"hearth/views/kioskview"
)

// Chart geometry in SVG viewBox units; the SVG scales to its box.
const (
	chartW      = 400.0
	chartH      = 170.0
	chartTop    = 12.0
	chartBottom = 24.0 // room for day labels
	chartLeft   = 34.0 // room for weight labels
	chartRight  = 6.0
)

// chartSpan is what a weight chart covers: its first and last day (the
// household calendar, inclusive), today (for the labels: "today", and the
// year on dates not this year's), the longest run of days without a
// weigh-in that its line still joins (a longer one is a gap: the line
// breaks and the gap is shaded, never bridged by a flat line), and its
// size in viewBox units (zero: the dashboard widget's).
type chartSpan struct {
	From, To, Today time.Time
	GapDays         int
	W, H            float64
}

// widgetSpan is the dashboard widget's: the health.ChartDays days ending
// on end (today, or the last weigh-in when that is older: the chart shows
// the real span, dated, not four empty weeks).
func widgetSpan(end, today time.Time) chartSpan {
	return chartSpan{From: end.AddDate(0, 0, -(health.ChartDays - 1)), To: end, Today: today, GapDays: widgetGapDays}
}

// widgetGapDays: weekly weigh-ins are joined; ten days without one is a gap.
const widgetGapDays = 10

// weightChart lays out the points that fall in the span: the raw daily
// values as dots, the trend as a line (broken at gaps), and the goal as a
// dashed line (pinned to the top or bottom edge with an arrow when it lies
// far outside the data, so a distant goal does not flatten the curve).
// Values are shown in the member's unit.
func weightChart(points []health.TrendPoint, goalKg *float64, unit health.Unit, sp chartSpan, loc *time.Location) kioskview.Chart {
	w, h := sp.W, sp.H
	if w == 0 {
		w, h = chartW, chartH
	}
	c := kioskview.Chart{W: w, H: h, Left: chartLeft}
	first, last := dayIndex(sp.From, loc), dayIndex(sp.To, loc)
	var in []health.TrendPoint
	for _, p := range points {
		if d := dayIndex(p.Day, loc); d >= first && d <= last {
			in = append(in, p)
		}
	}
	if len(in) == 0 || last <= first {
		c.Empty = true
		return c
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, p := range in {
		for _, v := range pointValues(p) {
			v = unit.FromKg(v)
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	var goal float64
	goalIn := false
	if goalKg != nil && *goalKg > 0 {
		goal = unit.FromKg(*goalKg)
		near := 2 * math.Max(hi-lo, minSpan(unit))
		if goal >= lo-near && goal <= hi+near {
			goalIn = true
			lo, hi = math.Min(lo, goal), math.Max(hi, goal)
		}
	}
	if span := hi - lo; span < minSpan(unit) {
		mid := (hi + lo) / 2
		lo, hi = mid-minSpan(unit)/2, mid+minSpan(unit)/2
	}
	pad := (hi - lo) * 0.12
	lo, hi = lo-pad, hi+pad
	if goalKg != nil && *goalKg > 0 && !goalIn { // room for the pinned goal line and its label
		if goal < lo {
			lo -= (hi - lo) * 0.2
		} else {
			hi += (hi - lo) * 0.2
		}
	}
	plotH := h - chartTop - chartBottom
	y := func(v float64) float64 { return chartTop + (hi-v)/(hi-lo)*plotH }
	x := func(day int) float64 {
		return chartLeft + float64(day-first)/float64(last-first)*(w-chartLeft-chartRight)
	}
	gap := func(from, to float64) {
		c.Gaps = append(c.Gaps, kioskview.ChartGap{X: chartRound(from), W: chartRound(to - from), Top: chartTop, H: chartRound(plotH)})
	}
	var path strings.Builder
	prev := 0
	for i, p := range in {
		d := dayIndex(p.Day, loc)
		cmd := "L"
		switch {
		case i == 0:
			cmd = "M"
			if d-first > sp.GapDays {
				gap(x(first), x(d))
			}
		case d-prev > sp.GapDays:
			cmd = "M"
			gap(x(prev), x(d))
		}
		fmt.Fprintf(&path, "%s%.1f %.1f ", cmd, x(d), y(unit.FromKg(p.TrendKg)))
		if p.RawKg != nil {
			c.Points = append(c.Points, kioskview.ChartPoint{X: chartRound(x(d)), Y: chartRound(y(unit.FromKg(*p.RawKg)))})
		}
		prev = d
	}
	if last-prev > sp.GapDays {
		gap(x(prev), x(last))
	}
	c.TrendPath = strings.TrimSpace(path.String())
	if goalKg != nil && *goalKg > 0 {
		label := "goal " + trim1(goal) + " " + string(unit.Normalize())
		switch {
		case goalIn:
			c.Goal = &kioskview.ChartLine{Y: chartRound(y(goal)), Label: label}
		case goal < lo:
			c.Goal = &kioskview.ChartLine{Y: chartRound(chartTop + plotH), Label: label + " ↓", Off: "below"}
		default:
			c.Goal = &kioskview.ChartLine{Y: chartRound(chartTop), Label: label + " ↑", Off: "above"}
		}
	}
	step := niceStep((hi - lo) / 3)
	for v := math.Ceil(lo/step) * step; v <= hi; v += step {
		c.YTicks = append(c.YTicks, kioskview.ChartTick{Pos: chartRound(y(v)), Label: trim1(v)})
	}
	dayLabel := func(d int) string {
		if d == dayIndex(sp.Today, loc) {
			return "today"
		}
		return health.ShortDayText(dayTime(d, loc), sp.Today, loc)
	}
	for _, d := range []int{first, first + (last-first)/2, last} {
		c.XTicks = append(c.XTicks, kioskview.ChartTick{Pos: chartRound(x(d)), Label: dayLabel(d)})
	}
	anchorEdges(c.XTicks)
	firstV, lastV := unit.FromKg(in[0].TrendKg), unit.FromKg(in[len(in)-1].TrendKg)
	c.Label = fmt.Sprintf("Weight trend from %s to %s: from %s to %s %s", dayLabel(dayIndex(in[0].Day, loc)),
		dayLabel(dayIndex(in[len(in)-1].Day, loc)), trim1(firstV), trim1(lastV), unit.Normalize())
	return c
}

// anchorEdges anchors a row of x labels so the first starts at its tick,
// the last ends at its tick and those between are centred: none is cut off
// at the chart's edges.
func anchorEdges(ts []kioskview.ChartTick) {
	for i := range ts {
		switch i {
		case 0:
			ts[i].Anchor = "start"
		case len(ts) - 1:
			ts[i].Anchor = "end"
		default:
			ts[i].Anchor = "middle"
		}
	}
}

func pointValues(p health.TrendPoint) []float64 {
	if p.RawKg != nil {
		return []float64{p.TrendKg, *p.RawKg}
	}
	return []float64{p.TrendKg}
}

// minSpan keeps a flat week from turning noise into cliffs: at least 1 kg (2 lb) tall.
func minSpan(u health.Unit) float64 {
	if u == health.LB {
		return 2
	}
	return 1
}

// niceStep rounds a raw tick step to 0.1, 0.2, 0.5, 1, 2, 5, 10…
func niceStep(raw float64) float64 {
	if raw <= 0 {
		return 1
	}
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if raw <= m*mag {
			return m * mag
		}
	}
	return 10 * mag
}

// dayIndex numbers local calendar days (days since 1970-01-01 in loc).
func dayIndex(t time.Time, loc *time.Location) int {
	y, m, d := t.In(loc).Date()
	return int(time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix() / 86400)
}

func dayTime(n int, loc *time.Location) time.Time {
	u := time.Unix(int64(n)*86400, 0).UTC()
	return time.Date(u.Year(), u.Month(), u.Day(), 0, 0, 0, 0, loc)
}

func chartRound(v float64) float64 { return math.Round(v*10) / 10 }

// trim1 formats with at most one decimal: 81.0 → "81", 81.25 → "81.3"
// (health.Figure: the one rounding rule).
func trim1(v float64) string { return health.Figure(v) }
