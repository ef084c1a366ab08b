package coach

import (
	"context"
	"encoding/json"
	"time"

	"hearth/internal/agent"
	"hearth/internal/health"
	"hearth/internal/store"
)

// Look-back windows for loading records.
const (
	weightWindowDays  = 180
	mealWindowDays    = 60
	workoutWindowDays = 63
	completionDays    = 7
)

func (t *Tools) weightTrend() agent.Tool {
	return agent.Tool{
		Name:        "get_weight_trend",
		Description: "The member's weight: latest reading, smoothed trend, 7- and 30-day change, days since the last weigh-in, and progress toward the goal weight, in the member's unit.",
		Parameters:  noParams(),
		Execute: func(ctx context.Context, scope agent.Scope, _ json.RawMessage) (any, error) {
			m, err := t.c.member(ctx, scope)
			if err != nil {
				return nil, err
			}
			return t.c.weightView(ctx, m, t.c.clock(scope))
		},
	}
}

func (c *core) weightView(ctx context.Context, m health.Member, now time.Time) (WeightView, error) {
	rs, err := c.rec.Weights(ctx, m.ID, store.Range{From: now.AddDate(0, 0, -weightWindowDays)})
	if err != nil {
		return WeightView{}, err
	}
	tr := health.WeightTrend(rs, m, now, c.loc)
	u := tr.Unit
	v := WeightView{Unit: u, Readings: tr.Readings, Current: inUnit(u, tr.CurrentKg), Trend: inUnit(u, tr.TrendKg),
		Change7d: inUnit(u, tr.Change7dKg), Change30d: inUnit(u, tr.Change30dKg), BodyFatPct: tr.BodyFatPct,
		DaysSinceWeighIn: tr.DaysSinceWeighIn, Goal: goalView(tr.Goal, u, c.loc), Text: tr.Text()}
	if tr.LastWeighIn != nil {
		v.LastWeighIn = dateOf(*tr.LastWeighIn, c.loc)
	}
	if tr.CurrentKg != nil {
		v.CurrentText = u.Format(*tr.CurrentKg)
	}
	if tr.Change7dKg != nil {
		v.Change7dText = u.FormatDelta(*tr.Change7dKg)
	}
	return v, nil
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
	return agent.Tool{
		Name:        "get_today_nutrition",
		Description: "Calories and macros logged on one day (default today) against the member's targets, with the meal-logging streak.",
		Parameters:  object(map[string]any{"date": dateParam("The day")}),
		Execute: func(ctx context.Context, scope agent.Scope, args json.RawMessage) (any, error) {
			var a struct{ Date *string }
			if err := decodeArgs(args, &a); err != nil {
				return nil, err
			}
			m, err := t.c.member(ctx, scope)
			if err != nil {
				return nil, err
			}
			day, err := t.c.day(a.Date, t.c.clock(scope))
			if err != nil {
				return nil, err
			}
			return t.c.nutritionDay(ctx, m, day)
		},
	}
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

func (t *Tools) nutritionHistory() agent.Tool {
	return agent.Tool{
		Name:        "get_nutrition_history",
		Description: "Nutrition over the last complete days (today excluded): per-day calories and protein, days missing a log, and daily averages against targets.",
		Parameters:  object(map[string]any{"days": daysParam(7, 90)}),
		Execute: func(ctx context.Context, scope agent.Scope, args json.RawMessage) (any, error) {
			var a struct{ Days *int }
			if err := decodeArgs(args, &a); err != nil {
				return nil, err
			}
			m, err := t.c.member(ctx, scope)
			if err != nil {
				return nil, err
			}
			return t.c.nutritionHistory(ctx, m, orInt(a.Days, 7), t.c.clock(scope))
		},
	}
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
	return v, nil
}

func (t *Tools) healthSummary() agent.Tool {
	return agent.Tool{
		Name:        "get_health_summary",
		Description: "A few labelled lines summarising one day (default today): weight, nutrition, logging streak, training rhythm, workouts, body composition.",
		Parameters:  object(map[string]any{"date": dateParam("The day")}),
		Execute: func(ctx context.Context, scope agent.Scope, args json.RawMessage) (any, error) {
			var a struct{ Date *string }
			if err := decodeArgs(args, &a); err != nil {
				return nil, err
			}
			m, err := t.c.member(ctx, scope)
			if err != nil {
				return nil, err
			}
			now := t.c.clock(scope)
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
			return map[string]any{"date": dateOf(s.Day, t.c.loc), "logging_streak": s.LoggingStreak, "text": s.Text(t.c.loc)}, nil
		},
	}
}

// MealLine is one logged meal.
type MealLine struct {
	Date     string  `json:"date"`
	Time     string  `json:"time"`
	Name     string  `json:"name"`
	Calories float64 `json:"calories"`
	ProteinG float64 `json:"protein_g"`
}

func (t *Tools) recentMeals() agent.Tool {
	return agent.Tool{
		Name:        "get_recent_meals",
		Description: "The member's most recent meals (newest first) with calories and protein, and the foods they log most often; useful for concrete meal suggestions.",
		Parameters: object(map[string]any{
			"days":  daysParam(3, 14),
			"limit": nullable("integer", "At most this many meals (1-50); null = 15.", map[string]any{"minimum": 1, "maximum": 50}),
		}),
		Execute: func(ctx context.Context, scope agent.Scope, args json.RawMessage) (any, error) {
			var a struct{ Days, Limit *int }
			if err := decodeArgs(args, &a); err != nil {
				return nil, err
			}
			m, err := t.c.member(ctx, scope)
			if err != nil {
				return nil, err
			}
			now := t.c.clock(scope)
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
		},
	}
}

func (t *Tools) bodyComposition() agent.Tool {
	return agent.Tool{
		Name:        "get_body_composition",
		Description: "The latest body-composition scan (body fat %, lean mass in the member's unit) and the change since the previous scan.",
		Parameters:  noParams(),
		Execute: func(ctx context.Context, scope agent.Scope, _ json.RawMessage) (any, error) {
			m, err := t.c.member(ctx, scope)
			if err != nil {
				return nil, err
			}
			return t.c.bodyView(ctx, m, t.c.clock(scope))
		},
	}
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
