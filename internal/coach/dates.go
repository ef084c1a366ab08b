package coach

import (
	"strings"
	"time"

	"hearth/internal/apperr"
)

// civilDate is a calendar date as UTC midnight (day arithmetic ignores DST).
func civilDate(t time.Time, loc *time.Location) time.Time {
	y, m, d := t.In(loc).Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// daysApart returns b − a in whole days (civil dates).
func daysApart(a, b time.Time) int { return int(b.Sub(a).Hours() / 24) }

// resolveDay reads a start date relative to base (a civil date): "today",
// "tomorrow", a weekday name ("monday", "next mon": the first such day on or
// after base, "next" skips base itself) or YYYY-MM-DD.
func resolveDay(s string, base time.Time) (time.Time, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	switch s {
	case "", "today", "now":
		return base, nil
	case "tomorrow":
		return base.AddDate(0, 0, 1), nil
	}
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return t, nil
	}
	next := false
	if rest, ok := strings.CutPrefix(s, "next "); ok {
		s, next = strings.TrimSpace(rest), true
	}
	if wd, ok := weekdayNamed(s); ok {
		d := base
		if next {
			d = d.AddDate(0, 0, 1)
		}
		for d.Weekday() != wd {
			d = d.AddDate(0, 0, 1)
		}
		return d, nil
	}
	return base, apperr.Invalidf("start date %q: use YYYY-MM-DD, today, tomorrow or a weekday", s)
}

// weekdayNamed accepts a weekday name or its first three letters.
func weekdayNamed(s string) (time.Weekday, bool) {
	s = strings.TrimSuffix(strings.TrimSpace(s), "s") // "mondays"
	if len(s) < 3 {
		return 0, false
	}
	for d := time.Sunday; d <= time.Saturday; d++ {
		name := strings.ToLower(d.String())
		if s == name[:3] || strings.TrimSuffix(name, "s") == s || name == s {
			return d, true
		}
	}
	return 0, false
}
