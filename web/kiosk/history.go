package kiosk

import (
	"fmt"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"hearth/internal/dashboard"
	"hearth/internal/health"
	"hearth/internal/history"
	"hearth/views"
	"hearth/views/kioskview"
	"hearth/web/httpkit"
)

// historyPages serve a member's history: weight, nutrition and workouts
// over 1, 3 or 12 months or everything (imported years included). The
// route is guarded like corrections: private figures need the member
// unlocked on this screen.
type historyPages struct {
	household  Household
	dashboards Dashboards
	opt        Options
}

func (h *historyPages) pageHistory(c echo.Context) error {
	ctx := c.Request().Context()
	m, err := h.household.Member(ctx, c.Param("member"))
	if err != nil {
		return err
	}
	span := history.ParseSpan(c.QueryParam("span"))
	s, err := h.dashboards.Records(ctx, m.ID, span, time.Now())
	if err != nil {
		return err
	}
	p := historyModel(s)
	p.Page = kioskPage(c, h.opt, m.Name+"'s history", "", m.ID, true)
	return httpkit.Render(c, http.StatusOK, kioskview.HistoryView(p))
}

// historyURL is a member's history page on span, at a section ("" = top).
func historyURL(member string, span history.Span, section string) string {
	u := "/m/" + url.PathEscape(member) + "/history"
	if span != "" && span != history.Default {
		u += "?span=" + string(span)
	}
	if section != "" {
		u += "#" + section
	}
	return u
}

// History chart geometry (viewBox units): wider than the widget's.
const (
	historyW = 800.0
	historyH = 240.0
)

// historyModel lays a series out as the history page shows it.
func historyModel(s history.Series) kioskview.HistoryPage {
	m, u := s.Member, s.Member.Unit.Normalize()
	p := kioskview.HistoryPage{MemberID: m.ID, Name: m.Name, Color: m.Color, Back: "/m/" + url.PathEscape(m.ID)}
	for _, sp := range history.Spans {
		p.Tabs = append(p.Tabs, kioskview.HistoryTab{Label: sp.Label(), URL: historyURL(m.ID, sp, ""), Current: sp == s.Span})
	}
	if !s.Since.IsZero() {
		p.Since = "Records since " + health.ShortDayText(s.Since, s.Now, s.Loc)
	}
	if s.Empty() {
		p.Empty = true
		switch {
		case s.Since.IsZero():
			p.EmptyText = "Nothing logged yet. Weigh-ins, meals and workouts you log or import show here."
		case s.Span != history.All:
			p.EmptyText = fmt.Sprintf("Nothing logged in the last %s.", strings.TrimPrefix(s.Span.Label(), "1 "))
			p.AllURL = historyURL(m.ID, history.All, "")
		}
	}
	p.Weight = historyWeight(s, u)
	p.Nutrition = historyNutrition(s)
	p.Workouts = historyWorkouts(s)
	return p
}

func historyWeight(s history.Series, u health.Unit) kioskview.HistoryWeight {
	var w kioskview.HistoryWeight
	if s.WeighIns == 0 {
		return w
	}
	gap := 10
	switch {
	case s.WeightGrain == history.Monthly:
		gap = 62
	case s.WeightGrain == history.Weekly || s.Span == history.Year:
		gap = 21
	case s.Span == history.Quarter:
		gap = 14
	}
	sp := chartSpan{From: s.From, To: s.To, Today: s.Now, GapDays: gap, W: historyW, H: historyH}
	w.Chart = weightChart(s.Weight, s.Member.GoalWeightKg, u, sp, s.Loc)
	if n := len(s.Weight); n > 0 {
		a, b := s.Weight[0].TrendKg, s.Weight[n-1].TrendKg
		w.Summary = fmt.Sprintf("Trend %s → %s (%s)", u.Format(a), u.Format(b), u.FormatDelta(b-a))
	}
	w.Count = views.Plural(s.WeighIns, "weigh-in")
	w.Last = "last " + health.ShortDayText(s.Last.MeasuredAt, s.Now, s.Loc)
	if s.WeightGrain != history.Daily {
		w.Grain = "one point per " + string(s.WeightGrain)
	}
	return w
}

func historyNutrition(s history.Series) kioskview.HistoryBars {
	n := kioskview.HistoryBars{Title: "Calories per day", Noun: string(s.Grain)}
	if s.Grain != history.Daily {
		n.Title = "Calories per day, averaged per " + string(s.Grain)
	}
	if s.Meals == 0 {
		return n
	}
	t := s.Member.Targets
	var bars []barValue
	for _, b := range s.Buckets {
		kcal, protein := b.PerLoggedDay()
		bars = append(bars, barValue{start: b.Start, v: kcal, has: b.DaysLogged > 0})
		if b.DaysLogged == 0 {
			continue
		}
		row := kioskview.HistoryRow{When: bucketLabel(s, b.Start), Logged: loggedText(s, b),
			Kcal: dashboard.KcalText(kcal) + vsTarget(kcal, t.Calories), Protein: fmt.Sprintf("%.0f g protein", protein) + vsTarget(protein, t.ProteinG)}
		row.Over = t.Calories != nil && kcal > *t.Calories*1.1
		n.Rows = append(n.Rows, row)
	}
	slices.Reverse(n.Rows)
	n.Chart = barChart(s, bars, t.Calories, "kcal")
	n.Summary = fmt.Sprintf("%s on %s", views.Plural(s.Meals, "meal"), views.Plural(loggedDays(s), "day"))
	if t.Calories != nil {
		n.Summary += " · target " + dashboard.KcalText(*t.Calories)
	}
	return n
}

func historyWorkouts(s history.Series) kioskview.HistoryBars {
	w := kioskview.HistoryBars{Title: "Workouts per week", Noun: "week"}
	if s.Workouts == 0 {
		return w
	}
	weeks := s.Buckets
	if s.Grain == history.Daily { // per week, not per day
		weeks = byWeek(s)
	}
	var bars []barValue
	for _, b := range weeks {
		bars = append(bars, barValue{start: b.Start, v: b.WorkoutsPerWeek(), has: true})
		if b.Workouts > 0 {
			w.Rows = append(w.Rows, kioskview.HistoryRow{When: bucketLabel(s, b.Start),
				Kcal: views.Plural(b.Workouts, "workout") + fmt.Sprintf(", %.0f min", b.WorkoutMin)})
		}
	}
	slices.Reverse(w.Rows)
	if s.Grain == history.Monthly {
		w.Title, w.Noun = "Workouts per week, averaged per month", "month"
	}
	w.Chart = barChart(s, bars, nil, "per week")
	var mix []string
	for i, t := range s.Types {
		if i == 4 {
			break
		}
		mix = append(mix, fmt.Sprintf("%s %d%%", t.Type, int(math.Round(float64(t.N)*100/float64(s.Workouts)))))
	}
	w.Summary = views.Plural(s.Workouts, "workout") + ": " + strings.Join(mix, ", ")
	return w
}

// byWeek merges daily buckets into Monday-to-Sunday weeks.
func byWeek(s history.Series) []history.Bucket {
	var out []history.Bucket
	for _, b := range s.Buckets {
		start := health.WeekStart(b.Start, s.Loc)
		if len(out) == 0 || !out[len(out)-1].Start.Equal(start) {
			out = append(out, history.Bucket{Start: start})
		}
		w := &out[len(out)-1]
		w.Days += b.Days
		w.Workouts += b.Workouts
		w.WorkoutMin += b.WorkoutMin
	}
	return out
}

func loggedDays(s history.Series) int {
	n := 0
	for _, b := range s.Buckets {
		n += b.DaysLogged
	}
	return n
}

func loggedText(s history.Series, b history.Bucket) string {
	if s.Grain == history.Daily {
		return views.Plural(b.Meals, "meal")
	}
	return fmt.Sprintf("%d of %d days logged", b.DaysLogged, b.Days)
}

func vsTarget(v float64, target *float64) string {
	if target == nil || *target <= 0 {
		return ""
	}
	return fmt.Sprintf(" (%d%%)", int(math.Round(v*100 / *target)))
}

// bucketLabel names a bucket: "Mon 3 Nov", "week of 3 Nov 2025", "Nov 2025".
func bucketLabel(s history.Series, start time.Time) string {
	switch s.Grain {
	case history.Weekly:
		return "week of " + health.ShortDayText(start, s.Now, s.Loc)
	case history.Monthly:
		return start.Format("Jan 2006")
	}
	return health.DayText(start, s.Now, s.Loc)
}

// barValue is one bucket's bar (has: the bucket has data; a bucket
// without leaves a gap, not a zero bar).
type barValue struct {
	start time.Time
	v     float64
	has   bool
}

// barChart lays out one bar per bucket over the span, with an optional
// target line.
func barChart(s history.Series, bars []barValue, target *float64, unit string) kioskview.BarChart {
	c := kioskview.BarChart{W: historyW, H: historyH, Left: chartLeft}
	hi := 0.0
	for _, b := range bars {
		hi = math.Max(hi, b.v)
	}
	if target != nil {
		hi = math.Max(hi, *target)
	}
	if len(bars) == 0 || hi <= 0 {
		c.Empty = true
		return c
	}
	hi *= 1.1
	plotH := historyH - chartTop - chartBottom
	slot := (historyW - chartLeft - chartRight) / float64(len(bars))
	y := func(v float64) float64 { return chartTop + (hi-v)/hi*plotH }
	for i, b := range bars {
		if !b.has || b.v <= 0 {
			continue
		}
		x := chartLeft + float64(i)*slot
		c.Bars = append(c.Bars, kioskview.Bar{X: chartRound(x + slot*0.1), W: chartRound(math.Max(slot*0.8, 0.5)), Y: chartRound(y(b.v)),
			H: chartRound(chartTop + plotH - y(b.v)), Title: bucketLabel(s, b.start) + ": " + trim1(b.v) + " " + unit,
			Over: target != nil && b.v > *target*1.1})
	}
	if target != nil {
		c.Target = &kioskview.ChartLine{Y: chartRound(y(*target)), Label: "target " + health.Thousands(*target)}
	}
	step := niceStep(hi / 3)
	for v := 0.0; v <= hi; v += step {
		c.YTicks = append(c.YTicks, kioskview.ChartTick{Pos: chartRound(y(v)), Label: health.Thousands(v)})
	}
	for _, at := range []int{0, len(bars) / 2, len(bars) - 1} {
		t := kioskview.ChartTick{Pos: chartRound(chartLeft + (float64(at)+0.5)*slot), Label: health.ShortDayText(bars[at].start, s.Now, s.Loc)}
		if s.Grain == history.Monthly {
			t.Label = bars[at].start.Format("Jan 2006")
		}
		c.XTicks = append(c.XTicks, t)
	}
	anchorEdges(c.XTicks)
	c.Label = fmt.Sprintf("%d bars from %s to %s", len(c.Bars), c.XTicks[0].Label, c.XTicks[2].Label)
	return c
}
