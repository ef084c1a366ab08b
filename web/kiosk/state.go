package kiosk

import (
	"fmt"
	"math"
	"time"

	"hearth/internal/dashboard/board"
	"hearth/internal/health"
	"hearth/internal/history"
	"hearth/internal/household"
	"hearth/internal/importer"
	"hearth/views"
	"hearth/views/kioskview"
)

// How many recent records a render loads when the server has no dashboard
// store to load its board (board.Loader reads by its windows): enough for
// the 30-day chart, the goal pace fit (28 days), the logging streak and
// "this week vs usual".
const (
	loadWeights  = 240
	loadMeals    = 600
	loadWorkouts = 80
	loadScans    = 4
)

// weightWidget shows the board's weight figures: the current weight is the
// newest plausible reading, and a newer one the rule set aside is said to
// be questioned, never shown as current.
func weightWidget(b board.Board) kioskview.WeightWidget {
	m, now, loc := b.Member, b.Now, b.Loc
	t := b.Weight.Trend
	u := b.Unit
	w := kioskview.WeightWidget{Unit: string(u), History: historyURL(m.ID, "", "weight")}
	last, stale := b.Weight.Last(now, loc)
	switch {
	case last == nil:
		return w
	case stale:
		return staleWeightWidget(b, last)
	}
	for _, r := range b.Weight.Readings { // newest first
		if r.MeasuredAt.After(now) {
			continue
		}
		if !r.MeasuredAt.After(b.Weight.Current.MeasuredAt) || !b.Weight.Questioned[r.ID] {
			break
		}
		if w.Questioned != "" {
			continue // the newest one is said
		}
		w.Questioned = fmt.Sprintf("%s (%s) questioned: far from your trend, not counted until you confirm it",
			b.WeightText(r.WeightKg), views.When(r.MeasuredAt, now, loc))
	}
	w.HasData = true
	w.Current = b.WeightNumber(b.Weight.Current.WeightKg)
	if t.Change7dKg != nil {
		w.Change7d = b.Change7dText() + " in 7 days"
		switch v := health.Round1(u.FromKg(*t.Change7dKg)); {
		case v < 0:
			w.Direction = "down"
		case v > 0:
			w.Direction = "up"
		default:
			w.Direction = "flat"
		}
	}
	if t.TrendKg != nil {
		w.Trend = "trend " + b.TrendText()
	}
	if m.GoalWeightKg != nil {
		w.Goal = "goal " + u.Format(*m.GoalWeightKg)
		switch t.Goal.Status {
		case health.ETAOnTrack:
			if eta := b.ETAText(); eta != "" {
				w.ETA = "on pace for " + eta
			}
		case health.ETAReached:
			w.ETA = "goal reached"
		}
	}
	if t.LastWeighIn != nil {
		w.LastWeighIn = "Last weigh-in " + views.When(*t.LastWeighIn, now, loc)
	}
	w.Chart = weightChart(t.Points, m.GoalWeightKg, u, widgetSpan(now, now), loc)
	for _, r := range b.Weight.Readings { // newest first
		if len(w.Recent) == recentWeights {
			break
		}
		if r.MeasuredAt.After(now) {
			continue
		}
		w.Recent = append(w.Recent, kioskview.EntryRow{When: views.When(r.MeasuredAt, now, loc), Text: b.WeightText(r.WeightKg),
			Edit: entryURL(m.ID, household.EntryWeight, r.ID), Questioned: b.Weight.Questioned[r.ID], Source: readingSource(r.Source)})
	}
	return w
}

// readingSource names where a reading came from for its row: an import or
// a device ("Home Assistant"), nothing for what was typed in Hearth (or
// the demo's).
func readingSource(source string) string {
	switch source {
	case "", "manual", "demo":
		return ""
	}
	return history.SourceName(source, "")
}

// recentWeights is how many weigh-ins the weight widget lists.
const recentWeights = 3

// entryURL is the path of an entry's correction sheet.
func entryURL(member string, kind household.EntryKind, id int64) string {
	return fmt.Sprintf("/m/%s/entry/%s/%d", member, kind, id)
}

func nutritionWidget(b board.Board) kioskview.NutritionWidget {
	m, now, loc := b.Member, b.Now, b.Loc
	day := b.Nutrition
	n := kioskview.NutritionWidget{HasData: day.Meals > 0, Streak: b.Streak, History: historyURL(m.ID, "", "nutrition")}
	vs := day.VsTargets
	anyTarget := vs.Calories.Target != nil || vs.Protein.Target != nil || vs.Carbs.Target != nil || vs.Fat.Target != nil
	if n.HasData || anyTarget {
		n.Bars = []kioskview.MacroBar{
			macroBar("Calories", vs.Calories, "kcal", 110),
			macroBar("Protein", vs.Protein, "g", 0),
			macroBar("Carbs", vs.Carbs, "g", 120),
			macroBar("Fat", vs.Fat, "g", 120),
		}
	}
	for _, x := range b.Meals { // newest first
		if health.DaysAgo(x.EatenAt, now, loc) == 0 && !x.EatenAt.After(now) && len(n.Meals) < 4 {
			n.Meals = append(n.Meals, kioskview.MealRow{Time: x.EatenAt.In(loc).Format("15:04"), Name: x.Name,
				Calories: fmt.Sprintf("%.0f kcal", x.Calories), Edit: entryURL(m.ID, household.EntryMeal, x.ID)})
		}
	}
	return n
}

// staleWeightWidget shows a newest weigh-in older than board.StaleDays as
// what it is: "last weighed 14 Mar 2024", its chart over the weeks before
// it (dated), no week's change or trend as if current, and the way back:
// a weigh-in restarts the trend.
func staleWeightWidget(b board.Board, last *health.WeightReading) kioskview.WeightWidget {
	m, now, loc, u := b.Member, b.Now, b.Loc, b.Unit
	src := b.Weight
	if src.Current == nil && src.Earlier != nil {
		src = *src.Earlier
	}
	w := kioskview.WeightWidget{Unit: string(u), HasData: true, Stale: true, Current: b.WeightNumber(last.WeightKg), History: historyURL(m.ID, history.All, "weight"),
		LastWeighIn: "Last weighed " + health.ShortDayText(last.MeasuredAt, now, loc)}
	if m.GoalWeightKg != nil {
		w.Goal = "goal " + u.Format(*m.GoalWeightKg)
	}
	w.Chart = weightChart(health.WeightSeries(src.Plausible, now, loc), m.GoalWeightKg, u, widgetSpan(last.MeasuredAt.In(loc), now), loc)
	return w
}

// macroBar fills to the target; overAt > 0 flags the bar past that percentage.
func macroBar(label string, p health.MacroProgress, unit string, overAt float64) kioskview.MacroBar {
	b := kioskview.MacroBar{Label: label, Value: fmt.Sprintf("%.0f %s", p.Consumed, unit)}
	if p.Target != nil && p.Percent != nil {
		b.Target = fmt.Sprintf("of %.0f", *p.Target)
		b.Pct = int(math.Round(min(*p.Percent, 100)))
		b.Over = overAt > 0 && *p.Percent > overAt
	}
	return b
}

func bodyWidget(b board.Board) kioskview.BodyWidget {
	m, now, loc, r := b.Member, b.Now, b.Loc, b.Weight
	u := m.Unit.Normalize()
	// The newest reading wins: a scan, an imported body-composition reading,
	// or a smart scale's body fat on a weigh-in (r.weights is newest first).
	var scale *health.WeightReading
	for i, w := range r.Readings {
		if w.BodyFatPct != nil && !w.MeasuredAt.After(now) {
			scale = &r.Readings[i]
			break
		}
	}
	c, ok := health.BodyComposition(b.Scans, now, loc)
	if ok && (scale == nil || !scale.MeasuredAt.After(c.Latest.ScannedAt)) {
		b := kioskview.BodyWidget{HasData: true, BodyFat: pctOrDash(c.Latest.BodyFatPct), Lean: kgOrDash(u, c.Latest.LeanMassKg),
			Measured: "Scanned " + health.ShortDayText(c.Latest.ScannedAt, now, loc)}
		if src := c.Latest.Source; src == importer.SourceApple || src == importer.SourceHomeAssistant { // a smart-scale reading, not a scan
			b.Measured = "Measured " + views.When(c.Latest.ScannedAt, now, loc)
		}
		if c.Latest.ID != 0 {
			b.Edit = entryURL(m.ID, household.EntryScan, c.Latest.ID)
		}
		if c.Previous != nil && c.BodyFatChangePct != nil {
			b.Changes = fmt.Sprintf("%s %% body fat", signed(*c.BodyFatChangePct))
			if c.LeanChangeKg != nil {
				b.Changes += ", " + u.FormatDelta(*c.LeanChangeKg) + " lean"
			}
			b.Changes += " since " + health.ShortDayText(c.Previous.ScannedAt, now, loc)
		}
		return b
	}
	if scale != nil {
		return kioskview.BodyWidget{HasData: true, BodyFat: pctOrDash(scale.BodyFatPct), Lean: kgOrDash(u, scale.LeanMassKg),
			Measured: "From the scale, " + views.When(scale.MeasuredAt, now, loc)}
	}
	return kioskview.BodyWidget{}
}

func pctOrDash(p *float64) string {
	if p == nil {
		return "–"
	}
	return health.Fixed1(*p) + " %"
}

func kgOrDash(u health.Unit, kg *float64) string {
	if kg == nil {
		return "–"
	}
	return u.Format(*kg)
}

func signed(v float64) string {
	switch v = health.Round1(v); {
	case v > 0:
		return "+" + health.Fixed1(v)
	case v < 0:
		return "\u2212" + health.Fixed1(-v)
	}
	return "±0.0"
}

func workoutsWidget(b board.Board) kioskview.WorkoutsWidget {
	m, now, loc := b.Member, b.Now, b.Loc
	w := kioskview.WorkoutsWidget{History: historyURL(m.ID, "", "workouts")}
	for _, x := range health.RecentWorkouts(b.Workouts, 4) {
		detail := fmt.Sprintf("%.0f min", x.DurationMin)
		if x.DistanceKm != nil {
			detail += " · " + distance(m.Unit.Normalize(), *x.DistanceKm)
		}
		if x.AvgHR != nil {
			detail += fmt.Sprintf(" · %d bpm", *x.AvgHR)
		}
		title := x.Title
		if title == "" {
			title = x.Type
		}
		w.Rows = append(w.Rows, kioskview.WorkoutRow{When: dayWord(x.StartedAt, now, loc), Title: title, Detail: detail,
			Edit: entryURL(m.ID, household.EntryWorkout, x.ID)})
	}
	st := b.Training
	if len(w.Rows) > 0 {
		w.ThisWeek = fmt.Sprintf("%d this week", st.ThisWeekCount)
		if st.UsualPerWeek != nil {
			w.ThisWeek += fmt.Sprintf(" · usually %s", trim1(*st.UsualPerWeek))
		}
	}
	return w
}

// distance renders km in the member's unit system: miles for a member who
// weighs in pounds.
func distance(u health.Unit, km float64) string {
	if u == health.LB {
		return health.Fixed1(km/1.609344) + " mi"
	}
	return health.Fixed1(km) + " km"
}

func dayWord(t, now time.Time, loc *time.Location) string {
	switch health.DaysAgo(t, now, loc) {
	case 0:
		return "Today"
	case 1:
		return "Yesterday"
	}
	return health.DayText(t, now, loc)
}
