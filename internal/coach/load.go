package coach

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
	"unicode"

	"hearth/internal/content"
	"hearth/internal/health"
)

// Load and rhythm thresholds (README.md, "The coach's judgement").
const (
	// HardRunDays: this many days in a row with a hard session earn a
	// recovery day (most guidance asks for one or two rest days a week).
	HardRunDays = 5
	// hardMinutes: a session this long counts as hard whatever its type.
	hardMinutes = 60
	// LongAbsenceDays: this many days without a workout is an absence:
	// a welcome back and a gentle restart, not "N rest days in a row".
	// Fitness measurably declines after two to four weeks without training.
	LongAbsenceDays = 14
	// restartMaxMinutes caps the first session back.
	restartMaxMinutes = 25
)

// hardWords are words of the workout types that count as hard sessions,
// whatever else the type says ("spin class", "Boxing", "hill sprints"):
// intervals, lifting, running, combat sports, indoor cycling, circuits.
var hardWords = []string{content.KindHIIT, content.KindStrength, "crossfit", "run", "running", "tabata", "bootcamp", "weights",
	"lifting", "powerlifting", "weightlifting", "sprint", "sprints", "intervals", "interval", "circuit", "circuits", "boxing",
	"kickboxing", "mma", "spin", "spinning", "hyrox", "plyometrics", "plyo"}

// isHard reports whether a workout was a hard session.
func isHard(w health.Workout) bool {
	for _, word := range strings.FieldsFunc(strings.ToLower(w.Type), func(r rune) bool {
		return !unicode.IsLetter(r)
	}) {
		if slices.Contains(hardWords, word) {
			return true
		}
	}
	return w.DurationMin >= hardMinutes
}

// hardDaysInARow counts the days in a row, ending today (or yesterday when
// today has none yet), with at least one hard session.
func hardDaysInARow(ws []health.Workout, now time.Time, loc *time.Location) int {
	hard := map[string]bool{}
	for _, w := range ws {
		if isHard(w) && !w.StartedAt.After(now) {
			hard[dateOf(w.StartedAt, loc)] = true
		}
	}
	day := health.LocalDay(now, loc)
	if !hard[dateOf(day, loc)] {
		day = day.AddDate(0, 0, -1)
	}
	n := 0
	for hard[dateOf(day, loc)] {
		n++
		day = day.AddDate(0, 0, -1)
	}
	return n
}

// recoveryDay reports a run of hard days that earns a recovery day.
func (p *planner) recoveryDay() bool { return p.g.Gaps.HardDays >= HardRunDays }

// backFromAbsence reports a member training again after a long absence
// (the first run of those days: they have not trained since).
func (p *planner) backFromAbsence() bool { return p.g.Gaps.LongAbsence }

// restart is a gentle first session back: standalone, not high intensity,
// not HIIT or strength, at most restartMaxMinutes.
func (p *planner) restart() *content.MenuEntry {
	c := p.candidates(func(e content.MenuEntry) bool {
		return e.Program == "" && !isSupport(e.Kind) && e.Kind != content.KindHIIT && e.Kind != content.KindStrength &&
			e.Intensity != content.IntensityHigh && e.DurationMin <= restartMaxMinutes && e.Kind != content.KindStretch
	})
	if len(c) > 0 {
		return &c[0]
	}
	return p.light(0)
}

// loadLine is the briefing's sentence about load and rhythm.
func (p *planner) loadLine() string {
	switch {
	case p.backFromAbsence():
		return p.absenceLine()
	case p.recoveryDay():
		return fmt.Sprintf("That's %d hard days in a row: today is a recovery day, so your body can catch up.", p.g.Gaps.HardDays)
	}
	return ""
}

// Trend-reading thresholds (README.md, "The coach's judgement").
const (
	// PlateauDays: the raw readings of this many days are a plateau when
	// their least-squares slope is under PlateauKgPerWeek and they stay
	// within PlateauBandKg (at least plateauMinReadings of them, spanning
	// plateauMinSpan days).
	PlateauDays      = 14
	PlateauBandKg    = 1.5
	PlateauKgPerWeek = 0.15
	// PlateauTightBandKg: readings of those days that all stay within this
	// are flat whatever their slope: two weeks of weigh-ins within half a
	// kilo is what a person calls flat (a slope of 0.2 kg a week through
	// them is well inside a scale's day-to-day noise).
	PlateauTightBandKg = 0.5
	plateauMinReadings = 4
	plateauMinSpan     = 10
	// AwayKg: a 30-day trend change this large away from the goal is said
	// plainly. Without a trend 30 days back (a member weighing in for less
	// than a month), the least-squares change of the raw readings of the
	// last 30 days says it, once they span awayMinSpan days.
	AwayKg      = 0.5
	awayMinSpan = 14
	// AwayRecentDays, AwayRecentKg: the weigh-ins of the last three weeks
	// moving this much away from the goal say it too, whatever the 30-day
	// change (a rise after a drop: the month's change starts in the drop).
	AwayRecentDays = 21
	AwayRecentKg   = 1.0
)

// plateau reports whether the raw readings of the last PlateauDays are
// flat: their least-squares slope under PlateauKgPerWeek, all within
// PlateauBandKg (a steady slow loss is not a plateau; one noisy day does
// not break one).
func plateau(rs []health.WeightReading, now time.Time) bool {
	f := fitReadings(rs, now, PlateauDays)
	if f.n < plateauMinReadings || f.hi-f.lo > PlateauBandKg || f.span < plateauMinSpan {
		return false
	}
	return f.ok && (math.Abs(f.slope*7) < PlateauKgPerWeek || f.hi-f.lo <= PlateauTightBandKg)
}

// fit is the least-squares line through the raw readings of a window.
type fit struct {
	n           int
	span, slope float64 // days between the first and last reading; kg a day
	lo, hi      float64
	ok          bool // the slope exists (two readings on different days)
}

// fitReadings fits the readings of the last days days up to now.
func fitReadings(rs []health.WeightReading, now time.Time, days int) fit {
	from := now.AddDate(0, 0, -days)
	var xs, ys []float64
	f := fit{lo: math.Inf(1), hi: math.Inf(-1)}
	for _, r := range rs {
		if r.MeasuredAt.Before(from) || r.MeasuredAt.After(now) {
			continue
		}
		xs = append(xs, r.MeasuredAt.Sub(from).Hours()/24)
		ys = append(ys, r.WeightKg)
		f.lo, f.hi = math.Min(f.lo, r.WeightKg), math.Max(f.hi, r.WeightKg)
	}
	if f.n = len(xs); f.n == 0 {
		return f
	}
	f.span = slices.Max(xs) - slices.Min(xs)
	var mx, my float64
	for i := range xs {
		mx, my = mx+xs[i], my+ys[i]
	}
	mx, my = mx/float64(len(xs)), my/float64(len(xs))
	var sxy, sxx float64
	for i := range xs {
		sxy += (xs[i] - mx) * (ys[i] - my)
		sxx += (xs[i] - mx) * (xs[i] - mx)
	}
	if sxx > 0 {
		f.slope, f.ok = sxy/sxx, true
	}
	return f
}

// movingAway reports a trend moving away from the goal weight: the 30-day
// trend change, or without one the fitted change of the readings of the
// last 30 days (at least plateauMinReadings, spanning awayMinSpan days);
// or the fitted change of the readings of the last AwayRecentDays, by
// AwayRecentKg.
func movingAway(w WeightView, u health.Unit, rs []health.WeightReading, now time.Time) bool {
	if w.Goal.Goal == nil || w.Current == nil || *w.Goal.Goal == *w.Current {
		return false
	}
	sign := 1.0 // away is up
	if *w.Goal.Goal > *w.Current {
		sign = -1
	}
	switch f := fitReadings(rs, now, 30); {
	case w.Change30d != nil:
		if sign*u.ToKg(*w.Change30d) >= AwayKg {
			return true
		}
	case f.ok && f.n >= plateauMinReadings && f.span >= awayMinSpan:
		if sign*f.slope*f.span >= AwayKg {
			return true
		}
	}
	f := fitReadings(rs, now, AwayRecentDays)
	return f.ok && f.n >= plateauMinReadings && f.span >= awayMinSpan && sign*f.slope*f.span >= AwayRecentKg
}

// dateText renders a date as "Mon 16 Feb", with the year when it is not
// today's ("Fri 22 Jan 2027").
func (g *Gathered) dateText(day string) string { return shortDate(day, g.civil) }
