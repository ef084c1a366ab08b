package coach

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"time"
)

// The heuristic coach's sentences about the history behind the recent
// windows: what a member brought (years of imports), the long-term weight
// trend when no weigh-in is recent, and how long ago the last workout was.

// plainType is a workout type the briefing may name as it is ("strength",
// "indoor cycling"): words only, short. Any other (an export's odd type)
// is left unnamed.
var plainType = regexp.MustCompile(`^[a-z][a-z -]{0,23}$`)

// historyLine acknowledges the member's records, kind by kind: "Your
// history is here: 312 workouts from Strong since 2021, mostly strength;
// 141 weigh-ins from Apple Health since 2016."
func (p *planner) historyLine() string {
	h := p.g.History
	var parts []string
	for _, k := range []struct {
		one, many string
		sp        HistorySpan
	}{{"workout", "workouts", h.Workouts}, {"weigh-in", "weigh-ins", h.WeighIns}, {"meal", "meals", h.Meals},
		{"body scan", "body scans", h.BodyScans}} {
		if k.sp.Count == 0 {
			continue
		}
		what := k.many
		if k.sp.Count == 1 {
			what = k.one
		}
		part := fmt.Sprintf("%s %s%s since %s", kcal(float64(k.sp.Count)), what, sourcesText(k.sp.Sources), p.g.sinceText(k.sp.First))
		if k.many == "workouts" && plainType.MatchString(h.Mostly) {
			part += ", mostly " + h.Mostly
		}
		parts = append(parts, part)
	}
	return "Your history is here: " + strings.Join(parts, "; ") + "."
}

// sourcesText names where records came from: " from Strong", " from Apple
// Health and Withings"; "" when they were all logged in Hearth.
func sourcesText(srcs []HistorySource) string {
	var names []string
	for _, s := range srcs {
		if s.Imported {
			names = append(names, s.Name)
		}
	}
	switch n := len(names); {
	case n == 0:
		return ""
	case n == 1:
		return " from " + names[0]
	case n > 3:
		names = append(names[:3], "more")
	}
	return " from " + strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// sinceText is a first day as "2021" when it lies in an earlier year, else
// the day as the kiosk writes it.
func (g *Gathered) sinceText(day string) string {
	t, err := time.Parse(time.DateOnly, day)
	if err != nil {
		return day
	}
	if t.Year() < g.civil.Year() {
		return fmt.Sprint(t.Year())
	}
	return g.dateText(day)
}

// longTrendLine gives the weight over the member's whole history when no
// weigh-in is recent enough for a current trend: "Your weigh-ins went from
// 92.1 kg in Jan 2016 to 84.3 kg in Mar 2024 (monthly averages); the last
// was Thu 14 Mar 2024."
func (p *planner) longTrendLine() string {
	g := p.g
	last := "Your last weigh-in was " + g.dateText(g.Gaps.LastWeighIn) + "."
	t := g.History.Trend
	if t == nil {
		return last
	}
	from, to := monthText(t.FromMonth), monthText(t.ToMonth)
	if math.Abs(t.Change) < 0.5 {
		return fmt.Sprintf("Your weigh-ins stayed around %s %s from %s to %s; the last was %s.", num(t.From), t.Unit, from, to,
			g.dateText(g.Gaps.LastWeighIn))
	}
	return fmt.Sprintf("Your weigh-ins went from %s %s in %s to %s %s in %s (monthly averages); the last was %s.",
		num(t.From), t.Unit, from, num(t.To), t.Unit, to, g.dateText(g.Gaps.LastWeighIn))
}

// monthText renders YYYY-MM as "Mar 2024".
func monthText(month string) string {
	t, err := time.Parse("2006-01", month)
	if err != nil {
		return month
	}
	return t.Format("Jan 2006")
}

// absenceLine is the briefing's sentence after LongAbsenceDays or more
// without a workout. A last workout the recent window does not hold (an
// imported history) is named by its day; a member new to Hearth is not
// welcomed back.
func (p *planner) absenceLine() string {
	g := p.g
	days := 0
	if d := g.Gaps.DaysSinceWorkout; d != nil {
		days = *d
	}
	when := ""
	if g.Training.Stats.LastWorkout == "" && g.Gaps.LastWorkout != "" {
		when = ", on " + g.dateText(g.Gaps.LastWorkout)
	}
	since := fmt.Sprintf("%d days since your last workout%s", days, when)
	if days > longAgoDays && when != "" { // "997 days" says less than the date
		since = "a long while since your last workout" + when
	}
	if g.Gaps.Onboarding {
		return fmt.Sprintf("It's been %s, so we'll start gently.", since)
	}
	return fmt.Sprintf("Welcome back, %s! It's been %s, so we'll restart gently.", g.Member.Name, since)
}

// longAgoDays: a gap longer than this is named by its date alone ("since
// Thu 7 Mar 2024"), not counted in days.
const longAgoDays = 180
