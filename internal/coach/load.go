package coach

import (
	"fmt"
	"slices"
	"strings"
	"time"

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
