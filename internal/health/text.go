package health

import (
	"fmt"
	"math"
	"strings"
	"time"
)

// The Text methods render compact one-line English summaries for the coach's
// tools and briefing, with weights in the member's unit.

// dateText is how summaries print a calendar day.
const dateText = "Mon 2 Jan 2006"

func daysAgoText(n int) string {
	switch n {
	case 0:
		return "today"
	case 1:
		return "yesterday"
	}
	return fmt.Sprintf("%d days ago", n)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, many)
}

// Text renders the trend, e.g. "81.4 kg, −0.6 kg this week (trend 81.9 kg);
// goal 78 kg: 3.9 kg to lose, ETA Sun 3 May 2026 (in 52 days) at −0.5 kg/week".
func (t Trend) Text() string {
	if t.CurrentKg == nil {
		if t.Goal.Status == ETANoGoal {
			return "no weigh-ins yet"
		}
		return "no weigh-ins yet; " + t.Goal.Text(t.Unit)
	}
	u := t.Unit
	var b strings.Builder
	b.WriteString(u.Format(*t.CurrentKg))
	if t.Change7dKg != nil {
		fmt.Fprintf(&b, ", %s this week", u.FormatDelta(*t.Change7dKg))
	}
	fmt.Fprintf(&b, " (trend %s)", u.Format(*t.TrendKg))
	if t.DaysSinceWeighIn != nil && *t.DaysSinceWeighIn >= 2 {
		fmt.Fprintf(&b, "; last weigh-in %s", daysAgoText(*t.DaysSinceWeighIn))
	}
	if t.Goal.Status != ETANoGoal {
		b.WriteString("; " + t.Goal.Text(u))
	}
	return b.String()
}

// Text renders goal progress in unit u, e.g. "goal 78 kg: 3.9 kg to lose, no
// ETA (trend is flat)".
func (p Progress) Text(u Unit) string {
	u = u.Normalize()
	if p.GoalKg == nil {
		return p.Note
	}
	goal := "goal " + u.Format(*p.GoalKg)
	switch {
	case p.Status == ETAReached:
		return goal + " reached"
	case p.ToGoKg == nil:
		return goal + ", " + p.Note
	}
	dir := "to lose"
	if *p.ToGoKg > 0 {
		dir = "to gain"
	}
	s := fmt.Sprintf("%s: %s %s", goal, u.Format(math.Abs(*p.ToGoKg)), dir)
	if p.Status == ETAOnTrack {
		return fmt.Sprintf("%s, ETA %s (in %s) at %s/week", s, p.ETA.Format(dateText),
			plural(*p.DaysToGoal, "day", "days"), u.FormatDelta(*p.PaceKgPerWeek))
	}
	return fmt.Sprintf("%s, no ETA (%s)", s, p.Note)
}

// Text renders a budget, e.g. "1,640 of 2,000 kcal (82%), protein 92 of 140 g,
// carbs 180 g, fat 55 of 70 g".
func (b MacroBudget) Text() string {
	kcal := formatThousands(b.Calories.Consumed) + " kcal"
	if b.Calories.Target != nil {
		kcal = fmt.Sprintf("%s of %s kcal (%s%%)", formatThousands(b.Calories.Consumed),
			formatThousands(*b.Calories.Target), trimFloat(math.Round(*b.Calories.Percent)))
	}
	parts := []string{kcal}
	for _, g := range []struct {
		name string
		p    MacroProgress
	}{{"protein", b.Protein}, {"carbs", b.Carbs}, {"fat", b.Fat}} {
		if g.p.Target != nil {
			parts = append(parts, fmt.Sprintf("%s %s of %s g", g.name, formatThousands(g.p.Consumed), formatThousands(*g.p.Target)))
		} else {
			parts = append(parts, fmt.Sprintf("%s %s g", g.name, formatThousands(g.p.Consumed)))
		}
	}
	return strings.Join(parts, ", ")
}

// Text renders the day, e.g. "1,640 of 2,000 kcal (82%), …; 3 meals".
func (d DayNutrition) Text() string {
	if d.Meals == 0 {
		return "nothing logged"
	}
	return d.VsTargets.Text() + "; " + plural(d.Meals, "meal", "meals")
}

// Text renders the period, e.g. "7 days to Sat 14 Mar 2026: 5 logged
// (missing Tue 10 Mar, Thu 12 Mar), daily average 1,710 of 1,700 kcal (101%), …".
func (p NutritionPeriod) Text() string {
	n := len(p.Days)
	s := fmt.Sprintf("%s to %s: %d logged", plural(n, "day", "days"), p.Through.Format(dateText), p.DaysLogged)
	if p.DaysMissing > 0 {
		var miss []string
		for _, d := range p.MissingDays {
			miss = append(miss, CivilDayText(d, p.Through))
		}
		if len(miss) > 7 {
			miss = append([]string{"…"}, miss[len(miss)-7:]...)
		}
		s += " (missing " + strings.Join(miss, ", ") + ")"
	}
	if p.DaysLogged == 0 {
		return s
	}
	return s + ", daily average " + p.Average.Text()
}

// Text renders the workout with its local date, e.g. "Mon 9 Mar: strength,
// Upper body, 45 min, avg HR 132".
func (w WorkoutSummary) Text(loc *time.Location) string {
	s := fmt.Sprintf("%s: %s", FullDayText(w.StartedAt.In(orUTC(loc))), w.Type)
	if w.Title != "" {
		s += ", " + w.Title
	}
	s += fmt.Sprintf(", %s min", trimFloat(math.Round(w.DurationMin)))
	if w.AvgHR != nil {
		s += fmt.Sprintf(", avg HR %d", *w.AvgHR)
	}
	return s
}

// Text renders the rhythm, e.g. "2 workouts this week (95 min), usually 3.5 a
// week; last workout 2 days ago".
func (s TrainingStats) Text() string {
	if s.LastWorkout == nil {
		return "no workouts logged yet"
	}
	out := fmt.Sprintf("%s this week (%s min)", plural(s.ThisWeekCount, "workout", "workouts"), trimFloat(math.Round(s.ThisWeekMinutes)))
	if s.UsualPerWeek != nil {
		out += fmt.Sprintf(", usually %s a week", trimFloat(round1(*s.UsualPerWeek)))
	}
	return out + "; last workout " + daysAgoText(*s.DaysSinceLast)
}

// Text renders the latest scan, e.g. "30.4% body fat, lean mass 47 kg
// (−1.6 points, −0.4 kg since the previous scan), 7 days ago". A reading
// with only one figure names only that one.
func (c Composition) Text(u Unit) string {
	u = u.Normalize()
	var parts, changes []string
	if c.Latest.BodyFatPct != nil {
		parts = append(parts, trimFloat(round1(*c.Latest.BodyFatPct))+"% body fat")
	}
	if c.Latest.LeanMassKg != nil {
		parts = append(parts, "lean mass "+u.Format(*c.Latest.LeanMassKg))
	}
	s := strings.Join(parts, ", ")
	if c.BodyFatChangePct != nil {
		sign := "+"
		if *c.BodyFatChangePct < 0 {
			sign = minus
		} else if *c.BodyFatChangePct == 0 {
			sign = "±"
		}
		changes = append(changes, sign+Fixed1(math.Abs(*c.BodyFatChangePct))+" points")
	}
	if c.LeanChangeKg != nil {
		changes = append(changes, u.FormatDelta(*c.LeanChangeKg))
	}
	if len(changes) > 0 {
		s += " (" + strings.Join(changes, ", ") + " since the previous scan)"
	}
	return s + ", " + daysAgoText(c.DaysAgo)
}

// Text renders the whole day as a few labelled lines.
func (s Summary) Text(loc *time.Location) string {
	lines := []string{
		"Weight: " + s.Weight.Text(),
		fmt.Sprintf("Nutrition %s: %s; logging streak %s", FullDayText(s.Day), s.Nutrition.Text(), plural(s.LoggingStreak, "day", "days")),
		"Training: " + s.Training.Text(),
	}
	for _, w := range s.WorkoutsToday {
		lines = append(lines, "Workout: "+w.Text(loc))
	}
	if s.BodyComposition != nil {
		lines = append(lines, "Body composition: "+s.BodyComposition.Text(s.Unit))
	}
	return strings.Join(lines, "\n")
}
