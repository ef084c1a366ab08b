package coach

import (
	"context"
	"math"
	"sort"
	"time"

	"hearth/internal/agent"
	"hearth/internal/dashboard/board"
	"hearth/internal/health"
	"hearth/internal/store"
)

// Look-back windows for loading records: the dashboard board's, so the
// coach's figures and the kiosk's are computed from the same records (a
// moving average over another window is another trend).
const (
	weightWindowDays  = board.WeightDays
	mealWindowDays    = board.MealDays
	workoutWindowDays = 63
	completionDays    = 7
)

func (t *Tools) weightTrend() agent.Tool {
	return memberTool(t.c, "get_weight_trend",
		"The member's weight: latest reading, smoothed trend, 7- and 30-day change, days since the last weigh-in, and progress toward the goal weight, in the member's unit.",
		func(ctx context.Context, m health.Member, now time.Time, _ noArgs) (WeightView, error) {
			return t.c.weightView(ctx, m, now)
		})
}

func (c *core) weightView(ctx context.Context, m health.Member, now time.Time) (WeightView, error) {
	rs, err := c.rec.Weights(ctx, m.ID, store.Range{From: now.AddDate(0, 0, -weightWindowDays)})
	if err != nil {
		return WeightView{}, err
	}
	// The dashboard board's weight figures: a weigh-in far from the trend
	// that a member saved anyway (a typo) is never taken for their current
	// weight, and the texts are the ones the kiosk shows.
	m.Unit = c.memberUnit(m.Unit)
	b := board.Board{Member: m, Unit: m.Unit.Normalize(), Now: now, Loc: c.loc, Weight: board.WeightOf(m, rs, now, c.loc)}
	kept, tr := b.Weight.Plausible, b.Weight.Trend
	u := tr.Unit
	v := WeightView{Unit: u, Readings: tr.Readings, Current: inUnit(u, tr.CurrentKg), Trend: inUnit(u, tr.TrendKg),
		Change7d: inUnit(u, tr.Change7dKg), Change30d: inUnit(u, tr.Change30dKg), BodyFatPct: tr.BodyFatPct,
		DaysSinceWeighIn: tr.DaysSinceWeighIn, Goal: goalView(tr.Goal, u, c.loc), Text: tr.Text()}
	v.Goal.ETAText = b.ETAText()
	if tr.LastWeighIn != nil {
		v.LastWeighIn = dateOf(*tr.LastWeighIn, c.loc)
	}
	v.CurrentText, v.Change7dText = b.CurrentText(), b.Change7dText()
	if tr.CurrentKg != nil && m.HeightCm != nil && *m.HeightCm > 0 {
		h := *m.HeightCm / 100
		bmi := math.Round(*tr.CurrentKg/(h*h)*10) / 10
		v.BMI = &bmi
	}
	v.Questioned = questioned(b.Weight.Readings, kept, now, u, c.loc)
	v.Plateau = plateau(kept, now)
	v.MovingAway = movingAway(v, u, kept, now)
	return v, nil
}

// questioned are the readings of the last QuestionedDays that the
// plausibility rules set aside (in rs, not in kept), newest first. One a
// later kept weigh-in confirmed (within health.SuddenChangeKg of it: the
// member weighed again and the change held) is no longer asked about.
func questioned(rs, kept []health.WeightReading, now time.Time, u health.Unit, loc *time.Location) []QuestionedReading {
	if len(rs) == len(kept) {
		return nil
	}
	in := make(map[int64]bool, len(kept))
	for _, r := range kept {
		in[r.ID] = true
	}
	var out []QuestionedReading
	from := now.AddDate(0, 0, -QuestionedDays)
	for _, r := range rs {
		if in[r.ID] || r.MeasuredAt.Before(from) || confirmedLater(r, kept) {
			continue
		}
		q := QuestionedReading{ID: r.ID, Date: dateOf(r.MeasuredAt, loc),
			Value: health.Round1(u.FromKg(r.WeightKg)), Text: u.Format(r.WeightKg)}
		// Sudden: a jump a body could make, set aside for its speed; a
		// typo (6.9 for 69) is far from everything and asked about as such.
		if prev, ok := keptBefore(r, kept); ok && health.SuddenChange(r.WeightKg, r.MeasuredAt, prev) &&
			math.Abs(r.WeightKg-prev.WeightKg) <= prev.WeightKg*health.MaxTrendDeviation {
			q.Sudden, q.ChangeText = true, u.FormatDelta(r.WeightKg-prev.WeightKg)
		}
		out = append(out, q)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Date > out[j].Date })
	return out
}

// confirmedLater reports a kept weigh-in after r within
// health.SuddenChangeKg of it.
func confirmedLater(r health.WeightReading, kept []health.WeightReading) bool {
	for _, k := range kept {
		if k.MeasuredAt.After(r.MeasuredAt) && math.Abs(k.WeightKg-r.WeightKg) <= health.SuddenChangeKg {
			return true
		}
	}
	return false
}

// keptBefore is the newest kept weigh-in before r.
func keptBefore(r health.WeightReading, kept []health.WeightReading) (health.WeightReading, bool) {
	var prev health.WeightReading
	ok := false
	for _, k := range kept {
		if k.MeasuredAt.Before(r.MeasuredAt) && (!ok || k.MeasuredAt.After(prev.MeasuredAt)) {
			prev, ok = k, true
		}
	}
	return prev, ok
}

func goalView(p health.Progress, u health.Unit, loc *time.Location) GoalView {
	g := GoalView{Status: p.Status, Goal: inUnit(u, p.GoalKg), Current: inUnit(u, p.CurrentKg), ToGo: inUnit(u, p.ToGoKg),
		Percent: p.Percent, PacePerWeek: inUnit(u, p.PaceKgPerWeek), DaysToGoal: p.DaysToGoal, Text: p.Text(u)}
	if p.ETA != nil {
		g.ETA = dateOf(*p.ETA, loc)
	}
	return g
}

func (t *Tools) todayNutrition() agent.Tool {
	return memberTool(t.c, "get_today_nutrition",
		"Calories and macros logged on one day (default today) against the member's targets, with the meal-logging streak.",
		func(ctx context.Context, m health.Member, now time.Time, a dateArgs) (NutritionDayView, error) {
			day, err := t.c.day(a.Date, now)
			if err != nil {
				return NutritionDayView{}, err
			}
			return t.c.nutritionDay(ctx, m, day)
		})
}

// nutritionDay summarises the local day of asOf, as it stood at asOf.
func (c *core) nutritionDay(ctx context.Context, m health.Member, asOf time.Time) (NutritionDayView, error) {
	meals, err := c.rec.Meals(ctx, m.ID, store.Range{From: asOf.AddDate(0, 0, -mealWindowDays), To: asOf.Add(time.Nanosecond)})
	if err != nil {
		return NutritionDayView{}, err
	}
	d := health.NutritionDay(meals, m.Targets, asOf, c.loc)
	return NutritionDayView{Date: dateOf(d.Day, c.loc), Meals: d.Meals, Totals: d.Totals, VsTargets: d.VsTargets,
		LoggingStreak: health.LoggingStreak(meals, asOf, c.loc), Text: d.Text()}, nil
}

// historyArgs are get_nutrition_history's arguments.
type historyArgs struct {
	Days *int `json:"days" desc:"How many days back (1-90); null = 7." schema:"minimum=1,maximum=90"`
}

func (t *Tools) nutritionHistory() agent.Tool {
	return memberTool(t.c, "get_nutrition_history",
		"Nutrition over the last complete days (today excluded): per-day calories and protein, days missing a log, and daily averages against targets.",
		func(ctx context.Context, m health.Member, now time.Time, a historyArgs) (NutritionHistoryView, error) {
			return t.c.nutritionHistory(ctx, m, orInt(a.Days, 7), now)
		})
}

func (c *core) nutritionHistory(ctx context.Context, m health.Member, n int, now time.Time) (NutritionHistoryView, error) {
	meals, err := c.rec.Meals(ctx, m.ID, store.Range{From: now.AddDate(0, 0, -n-2)})
	if err != nil {
		return NutritionHistoryView{}, err
	}
	p := health.NutritionHistory(meals, m.Targets, n, now, c.loc)
	v := NutritionHistoryView{From: dateOf(p.From, c.loc), Through: dateOf(p.Through, c.loc), DaysLogged: p.DaysLogged,
		DaysMissing: p.DaysMissing, Average: p.Average, Text: p.Text(), Days: make([]DayLine, 0, len(p.Days))}
	for _, d := range p.Days {
		v.Days = append(v.Days, DayLine{Date: dateOf(d.Day, c.loc), Meals: d.Meals, Calories: d.Totals.Calories, ProteinG: d.Totals.ProteinG})
	}
	for _, d := range p.MissingDays {
		v.MissingDays = append(v.MissingDays, dateOf(d, c.loc))
	}
	// The newest meal before today, however old: "no meals for 35 days",
	// not only "none this week".
	last, err := c.rec.Meals(ctx, m.ID, store.Range{To: health.LocalDay(now, c.loc), Desc: true, Limit: 1})
	if err != nil {
		return NutritionHistoryView{}, err
	}
	if len(last) > 0 {
		v.LastLogged = dateOf(last[0].EatenAt, c.loc)
	}
	return v, nil
}

func (t *Tools) healthSummary() agent.Tool {
	return memberTool(t.c, "get_health_summary",
		"A few labelled lines summarising one day (default today): weight, nutrition, logging streak, training rhythm, workouts, body composition, steps and sleep.",
		func(ctx context.Context, m health.Member, now time.Time, a dateArgs) (any, error) {
			day, err := t.c.day(a.Date, now)
			if err != nil {
				return nil, err
			}
			rg := store.Range{From: day.AddDate(0, 0, -weightWindowDays)}
			var r health.Records
			if r.Weights, err = t.c.rec.Weights(ctx, m.ID, rg); err != nil {
				return nil, err
			}
			if r.Meals, err = t.c.rec.Meals(ctx, m.ID, store.Range{From: day.AddDate(0, 0, -mealWindowDays)}); err != nil {
				return nil, err
			}
			if r.Workouts, err = t.c.rec.Workouts(ctx, m.ID, store.Range{From: day.AddDate(0, 0, -workoutWindowDays)}); err != nil {
				return nil, err
			}
			if r.Scans, err = t.c.rec.BodyScans(ctx, m.ID, store.Range{}); err != nil {
				return nil, err
			}
			s := health.DaySummary(m, r, day, now, t.c.loc)
			out := map[string]any{"date": dateOf(s.Day, t.c.loc), "logging_streak": s.LoggingStreak, "text": s.Text(t.c.loc)}
			if err := t.c.dailyFigures(ctx, out, m.ID, s.Day); err != nil {
				return nil, err
			}
			return out, nil
		})
}

// MealLine is one logged meal.
type MealLine struct {
	Date     string  `json:"date"`
	Time     string  `json:"time"`
	Name     string  `json:"name"`
	Calories float64 `json:"calories"`
	ProteinG float64 `json:"protein_g"`
}

// mealsArgs are get_recent_meals's arguments.
type mealsArgs struct {
	Days  *int `json:"days" desc:"How many days back (1-14); null = 3." schema:"minimum=1,maximum=14"`
	Limit *int `json:"limit" desc:"At most this many meals (1-50); null = 15." schema:"minimum=1,maximum=50"`
}

func (t *Tools) recentMeals() agent.Tool {
	return memberTool(t.c, "get_recent_meals",
		"The member's most recent meals (newest first) with calories and protein, and the foods they log most often; useful for concrete meal suggestions.",
		func(ctx context.Context, m health.Member, now time.Time, a mealsArgs) (any, error) {
			from := health.LocalDay(now, t.c.loc).AddDate(0, 0, 1-orInt(a.Days, 3))
			meals, err := t.c.rec.Meals(ctx, m.ID, store.Range{From: from, To: now.Add(time.Nanosecond), Desc: true})
			if err != nil {
				return nil, err
			}
			lines := []MealLine{}
			counts := map[string]int{}
			var order []string
			for _, ml := range meals {
				if counts[ml.Name] == 0 {
					order = append(order, ml.Name)
				}
				counts[ml.Name]++
				if len(lines) < orInt(a.Limit, 15) {
					at := ml.EatenAt.In(t.c.loc)
					lines = append(lines, MealLine{Date: at.Format(time.DateOnly), Time: at.Format("15:04"), Name: ml.Name,
						Calories: round1(ml.Calories), ProteinG: round1(ml.ProteinG)})
				}
			}
			frequent := []string{}
			for _, n := range order {
				if counts[n] > 1 && len(frequent) < 5 {
					frequent = append(frequent, n)
				}
			}
			return map[string]any{"meals": lines, "frequent": frequent}, nil
		})
}

func (t *Tools) bodyComposition() agent.Tool {
	return memberTool(t.c, "get_body_composition",
		"The latest body-composition scan (body fat %, lean mass in the member's unit) and the change since the previous scan.",
		func(ctx context.Context, m health.Member, now time.Time, _ noArgs) (BodyView, error) {
			return t.c.bodyView(ctx, m, now)
		})
}

func (c *core) bodyView(ctx context.Context, m health.Member, now time.Time) (BodyView, error) {
	scans, err := c.rec.BodyScans(ctx, m.ID, store.Range{})
	if err != nil {
		return BodyView{}, err
	}
	comp, ok := health.BodyComposition(scans, now, c.loc)
	if !ok {
		return BodyView{Text: "no body-composition scan yet"}, nil
	}
	var fat *float64
	if comp.Latest.BodyFatPct != nil {
		v := round1(*comp.Latest.BodyFatPct)
		fat = &v
	}
	return BodyView{HasScan: true, Date: dateOf(comp.Latest.ScannedAt, c.loc), DaysAgo: comp.DaysAgo,
		BodyFatPct: fat, LeanMass: inUnit(m.Unit, comp.Latest.LeanMassKg), BodyFatChange: comp.BodyFatChangePct,
		LeanChange: inUnit(m.Unit, comp.LeanChangeKg), Text: comp.Text(m.Unit)}, nil
}
