package health

import "time"

// Every date Hearth shows a person is written by the functions here, so one
// rule holds everywhere: a date carries its year whenever the year is not
// the current one ("Mon 5 Oct 2025" in 2026, "Mon 5 Oct" in 2025). Imported
// history reaches back years; a date without its year reads as this year's.
// TestDatesCarryTheirYear (dates_layout_test.go) fails on any other Go file
// that formats a day and month without a year.

// Layouts with and without the year.
const (
	dayLayout       = "Mon 2 Jan"
	dayYearLayout   = "Mon 2 Jan 2006"
	shortLayout     = "2 Jan"
	shortYearLayout = "2 Jan 2006"
)

// DayText renders t's calendar day in loc relative to now: "Mon 5 Oct", or
// "Mon 5 Oct 2025" when that day is not in now's year (both in loc).
func DayText(t, now time.Time, loc *time.Location) string {
	return dateIn(t, now, loc, dayLayout, dayYearLayout)
}

// ShortDayText is DayText without the weekday: "5 Oct", "5 Oct 2025".
func ShortDayText(t, now time.Time, loc *time.Location) string {
	return dateIn(t, now, loc, shortLayout, shortYearLayout)
}

// CivilDayText is DayText for a day already on the household calendar
// (a civil date whose location is irrelevant): compares calendar years.
func CivilDayText(day, today time.Time) string {
	if day.Year() != today.Year() {
		return day.Format(dayYearLayout)
	}
	return day.Format(dayLayout)
}

// FullDayText is t's calendar day with its year always ("Mon 5 Oct 2026"):
// how the coach's facts and tool results write a day, so a model never has
// to guess the year.
func FullDayText(t time.Time) string { return t.Format(dayYearLayout) }

func dateIn(t, now time.Time, loc *time.Location, short, long string) string {
	loc = orUTC(loc)
	t = t.In(loc)
	if t.Year() != now.In(loc).Year() {
		return t.Format(long)
	}
	return t.Format(short)
}
