package coach

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"hearth/internal/content"
	"hearth/internal/dashboard/board"
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

// hardTypes are the workout types that count as hard sessions.
var hardTypes = []string{content.KindHIIT, content.KindStrength, "crossfit", "run", "running", "tabata", "bootcamp", "weights"}

// isHard reports whether a workout was a hard session.
func isHard(w health.Workout) bool {
	return slices.Contains(hardTypes, strings.ToLower(strings.TrimSpace(w.Type))) || w.DurationMin >= hardMinutes
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
		return fmt.Sprintf("Welcome back, %s! It's been %d days since your last workout, so we'll restart gently.", p.g.Member.Name,
			*p.g.Training.Stats.DaysSinceLast)
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
	PlateauDays        = 14
	PlateauBandKg      = 1.5
	PlateauKgPerWeek   = 0.15
	plateauMinReadings = 4
	plateauMinSpan     = 10
	// AwayKg: a 30-day trend change this large away from the goal is said
	// plainly.
	AwayKg = 0.5
)

// plateau reports whether the raw readings of the last PlateauDays are
// flat: their least-squares slope under PlateauKgPerWeek, all within
// PlateauBandKg (a steady slow loss is not a plateau; one noisy day does
// not break one).
func plateau(rs []health.WeightReading, now time.Time) bool {
	from := now.AddDate(0, 0, -PlateauDays)
	var xs, ys []float64
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, r := range rs {
		if r.MeasuredAt.Before(from) || r.MeasuredAt.After(now) {
			continue
		}
		xs = append(xs, r.MeasuredAt.Sub(from).Hours()/24)
		ys = append(ys, r.WeightKg)
		lo, hi = math.Min(lo, r.WeightKg), math.Max(hi, r.WeightKg)
	}
	if len(xs) < plateauMinReadings || hi-lo > PlateauBandKg || slices.Max(xs)-slices.Min(xs) < plateauMinSpan {
		return false
	}
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
	return sxx > 0 && math.Abs(sxy/sxx*7) < PlateauKgPerWeek
}

// movingAway reports a 30-day trend moving away from the goal weight.
func movingAway(w WeightView, u health.Unit) bool {
	if w.Goal.Goal == nil || w.Current == nil || w.Change30d == nil {
		return false
	}
	ch := u.ToKg(*w.Change30d)
	if *w.Goal.Goal < *w.Current {
		return ch >= AwayKg
	}
	return *w.Goal.Goal > *w.Current && ch <= -AwayKg
}

// dateText renders a date as "Mon 16 Feb", with the year when it is more
// than yearAfterDays from today or in the past year ("Fri 22 Jan 2027").
func (g *Gathered) dateText(day string) string {
	t, err := time.Parse(time.DateOnly, day)
	if err != nil {
		return day
	}
	return board.DateText(t, g.civil) // as the kiosk writes dates
}
