package coach

import (
	"time"

	"hearth/internal/content"
	"hearth/internal/program"
)

// dayPlan is what a date is in a program run: the same arithmetic as
// program.Service.Today (anchorDay falls on anchor; each later training
// weekday is the next program day, program rest days included), used to
// show a program change before the run's transaction commits it.
type dayPlan struct {
	status     program.DayStatus
	restReason string
	expected   int
	behind     int
	ahead      int
	startsIn   int
}

// planDay computes date's place in the schedule (all dates civil, UTC midnight).
func planDay(days []content.Day, pat program.Pattern, anchor time.Time, anchorDay, current int, date time.Time) dayPlan {
	if date.Before(anchor) {
		return dayPlan{status: program.DayNotStarted, startsIn: daysApart(date, anchor)}
	}
	training := pat.Has(date.Weekday())
	p := dayPlan{expected: anchorDay + trainingDates(pat, anchor, date)}
	if training {
		p.expected--
	}
	dueThrough := p.expected - 1
	if training {
		dueThrough = p.expected
	}
	p.behind = countTraining(days, current, p.expected-1)
	p.ahead = countTraining(days, dueThrough+1, current-1)
	switch {
	case !training:
		p.status, p.restReason = program.DayRest, program.RestSchedule
	case p.expected <= len(days) && days[p.expected-1].Rest:
		p.status, p.restReason = program.DayRest, program.RestProgram
	default:
		p.status = program.DayTraining
	}
	return p
}

// trainingDates counts the pattern's dates in [from, to].
func trainingDates(pat program.Pattern, from, to time.Time) int {
	n := 0
	for d := from; !d.After(to); d = d.AddDate(0, 0, 1) {
		if pat.Has(d.Weekday()) {
			n++
		}
	}
	return n
}

// countTraining counts non-rest program days in [from, to].
func countTraining(days []content.Day, from, to int) int {
	from, to = max(from, 1), min(to, len(days))
	n := 0
	for d := from; d <= to; d++ {
		if !days[d-1].Rest {
			n++
		}
	}
	return n
}

// nextTraining returns the first non-rest day ≥ from, or 0 if none.
func nextTraining(days []content.Day, from int) int {
	for d := max(from, 1); d <= len(days); d++ {
		if !days[d-1].Rest {
			return d
		}
	}
	return 0
}
