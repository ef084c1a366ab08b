package coach

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"hearth/internal/agent"
	"hearth/internal/health"
	"hearth/internal/history"
)

// HistoryView is get_history_summary's result: every record the member
// has, however old and wherever it came from (imports included), in
// aggregates. The other read tools look at recent windows; this is what
// lies behind them.
type HistoryView struct {
	WeighIns  HistorySpan `json:"weigh_ins"`
	Meals     HistorySpan `json:"meals"`
	Workouts  HistorySpan `json:"workouts"`
	BodyScans HistorySpan `json:"body_scans"`
	// WorkoutTypes are the most frequent workout types; Mostly the one
	// that makes up at least half of the workouts ("" when none does).
	WorkoutTypes []HistoryType `json:"workout_types,omitempty"`
	Mostly       string        `json:"mostly,omitempty"`
	// Trend is the long-term weight trend, first month to last.
	Trend *HistoryTrend `json:"weight_trend,omitempty"`
	Text  string        `json:"text"`
}

// HistorySpan is one kind of record: how many, the first and last days,
// and where they came from (most records first).
type HistorySpan struct {
	Count   int             `json:"count"`
	First   string          `json:"first,omitempty"`
	Last    string          `json:"last,omitempty"`
	Sources []HistorySource `json:"sources,omitempty"`
}

// HistorySource is where some of a span's records came from: an app whose
// export was imported (Strong, Apple Health, MyFitnessPal, Withings…) or
// Hearth itself.
type HistorySource struct {
	Name     string `json:"name"`
	Imported bool   `json:"imported"`
	Count    int    `json:"count"`
	First    string `json:"first"`
	Last     string `json:"last"`
}

// HistoryType is a workout type's count and share (whole percent).
type HistoryType struct {
	Type    string `json:"type"`
	Count   int    `json:"count"`
	Percent int    `json:"percent"`
}

// HistoryTrend is the weight by monthly average, in the member's unit
// rounded to 0.1, from the first month of weigh-ins to the last
// (YYYY-MM).
type HistoryTrend struct {
	Unit      health.Unit `json:"unit"`
	FromMonth string      `json:"from_month"`
	From      float64     `json:"from"`
	ToMonth   string      `json:"to_month"`
	To        float64     `json:"to"`
	Change    float64     `json:"change"`
	Months    int         `json:"months"`
}

func (t *Tools) historySummary() agent.Tool {
	return memberTool(t.c, "get_history_summary",
		"The member's whole record, imported history included: for weigh-ins, meals, workouts and body scans the count, "+
			"first and last dates and where they came from (Apple Health, Strong, MyFitnessPal, Withings, Hearth), the "+
			"workout type mix and the long-term weight trend (first vs last monthly average). The other tools see recent weeks only.",
		func(ctx context.Context, m health.Member, _ time.Time, _ noArgs) (HistoryView, error) {
			return t.c.historyView(ctx, m)
		})
}

func (c *core) historyView(ctx context.Context, m health.Member) (HistoryView, error) {
	s, err := history.Summarize(ctx, c.hist, m.ID)
	if err != nil {
		return HistoryView{}, fmt.Errorf("coach: %w", err)
	}
	return historyViewOf(s, c.memberUnit(m.Unit), c.loc), nil
}

// historyViewOf is the summary in the member's unit and the household's days.
func historyViewOf(s history.Summary, u health.Unit, loc *time.Location) HistoryView {
	u = u.Normalize()
	span := func(sp history.Kind) HistorySpan {
		out := HistorySpan{Count: sp.Count}
		if sp.Count == 0 {
			return out
		}
		out.First, out.Last = dateOf(sp.First, loc), dateOf(sp.Last, loc)
		for _, src := range sp.Sources {
			out.Sources = append(out.Sources, HistorySource{Name: src.Name, Imported: src.Imported, Count: src.Count,
				First: dateOf(src.First, loc), Last: dateOf(src.Last, loc)})
		}
		return out
	}
	v := HistoryView{WeighIns: span(s.Weights), Meals: span(s.Meals), Workouts: span(s.Workouts), BodyScans: span(s.Scans),
		Mostly: s.Mostly()}
	for _, t := range s.WorkoutTypes {
		v.WorkoutTypes = append(v.WorkoutTypes, HistoryType{Type: t.Type, Count: t.Count, Percent: int(math.Round(t.Share * 100))})
	}
	if t := s.Trend; t != nil {
		from, to := round1(u.FromKg(t.FromKg)), round1(u.FromKg(t.ToKg))
		v.Trend = &HistoryTrend{Unit: u, FromMonth: t.FromMonth.Format("2006-01"), From: from,
			ToMonth: t.ToMonth.Format("2006-01"), To: to, Change: round1(to - from), Months: t.Months}
	}
	v.Text = v.text()
	return v
}

// text is the view in one line for prompts; workout types are the
// member's (or an export's) words, quoted as data.
func (v HistoryView) text() string {
	var parts []string
	for _, k := range []struct {
		what string
		sp   HistorySpan
	}{{"weigh-ins", v.WeighIns}, {"meals", v.Meals}, {"workouts", v.Workouts}, {"body scans", v.BodyScans}} {
		if k.sp.Count == 0 {
			parts = append(parts, "no "+k.what)
			continue
		}
		var srcs []string
		for _, s := range k.sp.Sources {
			how := "logged in"
			if s.Imported {
				how = "imported from"
			}
			srcs = append(srcs, fmt.Sprintf("%d %s %s", s.Count, how, s.Name))
		}
		parts = append(parts, fmt.Sprintf("%d %s from %s to %s (%s)", k.sp.Count, k.what, k.sp.First, k.sp.Last, strings.Join(srcs, ", ")))
	}
	if len(v.WorkoutTypes) > 0 {
		var ts []string
		for _, t := range v.WorkoutTypes {
			ts = append(ts, fmt.Sprintf("%s %d%%", agent.Quote(t.Type), t.Percent))
		}
		parts = append(parts, "workout types: "+strings.Join(ts, ", "))
	}
	if t := v.Trend; t != nil {
		parts = append(parts, fmt.Sprintf("weight by monthly average: %s %s in %s to %s %s in %s (%s months with weigh-ins)",
			num(t.From), t.Unit, t.FromMonth, num(t.To), t.Unit, t.ToMonth, num(float64(t.Months))))
	}
	return strings.Join(parts, "; ")
}

// Any reports whether the member has any record at all.
func (v HistoryView) Any() bool {
	return v.WeighIns.Count+v.Meals.Count+v.Workouts.Count+v.BodyScans.Count > 0
}
