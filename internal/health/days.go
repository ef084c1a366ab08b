package health

import "time"

// Every "day" in this package is a calendar day in the household time zone.
// Day arithmetic goes through civil day numbers (days since 1970-01-01 of the
// local date), never through 24-hour durations, so days of 23 or 25 hours
// around DST changes are handled like any other day.

// LocalDay returns local midnight of the calendar day containing t in loc
// (UTC when loc is nil).
func LocalDay(t time.Time, loc *time.Location) time.Time {
	return dayTime(dayNum(t, loc), orUTC(loc))
}

// WeekStart returns local midnight of the Monday that starts t's week.
func WeekStart(t time.Time, loc *time.Location) time.Time {
	loc = orUTC(loc)
	d := dayNum(t, loc)
	back := (int(dayTime(d, loc).Weekday()) + 6) % 7
	return dayTime(d-back, loc)
}

// DaysAgo returns how many calendar days before now's day t's day is
// (0 = same day, negative when t is on a later day).
func DaysAgo(t, now time.Time, loc *time.Location) int {
	return dayNum(now, loc) - dayNum(t, loc)
}

func orUTC(loc *time.Location) *time.Location {
	if loc == nil {
		return time.UTC
	}
	return loc
}

// dayNum is t's calendar day in loc as a count of days since 1970-01-01.
func dayNum(t time.Time, loc *time.Location) int {
	y, m, d := t.In(orUTC(loc)).Date()
	return int(time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix() / 86400)
}

// dayTime converts a day number to local midnight in loc.
func dayTime(n int, loc *time.Location) time.Time {
	u := time.Unix(int64(n)*86400, 0).UTC()
	return time.Date(u.Year(), u.Month(), u.Day(), 0, 0, 0, 0, orUTC(loc))
}

// dayEnd is the last instant (nanosecond) of local day n.
func dayEnd(n int, loc *time.Location) time.Time {
	return dayTime(n+1, loc).Add(-time.Nanosecond)
}
