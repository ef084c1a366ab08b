package program

import (
	"strings"
	"time"

	"hearth/internal/apperr"
)

// Pattern is the set of weekdays a member trains on; the other weekdays are
// rest days that do not move the program schedule.
type Pattern [7]bool // indexed by time.Weekday

var dayNames = [7]string{"sun", "mon", "tue", "wed", "thu", "fri", "sat"}

// weekOrder lists weekdays Monday first, for rendering.
var weekOrder = [7]time.Weekday{time.Monday, time.Tuesday, time.Wednesday, time.Thursday, time.Friday, time.Saturday, time.Sunday}

// ParsePattern reads "daily" (or ""), "weekdays", "weekends", or a list of
// weekdays such as "mon,tue,thu,fri,sat" or "Monday Wednesday Friday".
func ParsePattern(s string) (Pattern, error) {
	var p Pattern
	s = strings.ToLower(strings.TrimSpace(s))
	switch s {
	case "", "daily", "every day", "everyday":
		return Pattern{true, true, true, true, true, true, true}, nil
	case "weekdays":
		return Pattern{false, true, true, true, true, true, false}, nil
	case "weekends":
		return Pattern{true, false, false, false, false, false, true}, nil
	}
	for _, tok := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '/' || r == '+' || r == ';' }) {
		d, ok := weekday(tok)
		if !ok {
			return p, apperr.Invalidf("schedule pattern: %q is not a weekday (use e.g. \"daily\" or \"mon,wed,fri\")", tok)
		}
		p[d] = true
	}
	if p.Count() == 0 {
		return p, apperr.Invalidf("schedule pattern names no training days")
	}
	return p, nil
}

// weekday accepts a weekday name or a prefix of at least three letters.
func weekday(tok string) (time.Weekday, bool) {
	if len(tok) < 3 {
		return 0, false
	}
	for d := range 7 {
		full := strings.ToLower(time.Weekday(d).String())
		if strings.HasPrefix(full, tok) {
			return time.Weekday(d), true
		}
	}
	return 0, false
}

// Count returns the number of training weekdays.
func (p Pattern) Count() int {
	n := 0
	for _, on := range p {
		if on {
			n++
		}
	}
	return n
}

// Has reports whether d is a training weekday.
func (p Pattern) Has(d time.Weekday) bool { return p[d] }

// String renders "daily" or the training weekdays Monday first ("mon,wed,fri").
func (p Pattern) String() string {
	if p.Count() == 7 {
		return "daily"
	}
	var parts []string
	for _, d := range weekOrder {
		if p[d] {
			parts = append(parts, dayNames[d])
		}
	}
	return strings.Join(parts, ",")
}

// RestWeekdays lists the weekdays the pattern leaves out, Monday first.
func (p Pattern) RestWeekdays() []string {
	var out []string
	for _, d := range weekOrder {
		if !p[d] {
			out = append(out, dayNames[d])
		}
	}
	return out
}

// countBetween counts training dates in [from, to] (civil dates, UTC midnight).
func (p Pattern) countBetween(from, to time.Time) int {
	n := daysBetween(from, to) + 1
	if n <= 0 {
		return 0
	}
	count := (n / 7) * p.Count()
	start := from.Weekday()
	for i := range n % 7 {
		if p[(int(start)+i)%7] {
			count++
		}
	}
	return count
}

// civil returns t's calendar date in loc as UTC midnight, so day arithmetic
// ignores DST.
func civil(t time.Time, loc *time.Location) time.Time {
	y, m, d := t.In(loc).Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// daysBetween returns to - from in whole days (civil dates).
func daysBetween(from, to time.Time) int {
	return int(to.Sub(from).Hours() / 24)
}

// parseDate reads a YYYY-MM-DD civil date.
func parseDate(s string) (time.Time, error) {
	t, err := time.Parse(time.DateOnly, strings.TrimSpace(s))
	if err != nil {
		return t, apperr.Invalidf("date %q must be YYYY-MM-DD", s)
	}
	return t, nil
}
