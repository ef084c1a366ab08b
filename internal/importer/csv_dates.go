package importer

import (
	"strings"
	"time"
)

// zonedLayouts carry their own offset.
var zonedLayouts = []string{time.RFC3339Nano, "2006-01-02T15:04:05Z0700", "2006-01-02T15:04Z07:00", appleTimeLayout}

// localLayouts are read in the household time zone.
var localLayouts = []string{"2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02 15:04:05", "2006-01-02 15:04"}

// A record's time lies within these years: a date outside them ("0000-01-01",
// a typo'd year 20224) is a mistake, and the stored keys and the
// dashboard's dates assume a four-digit year (the fuzzer found year -1:
// 0000-01-01 00:00 an hour east of UTC).
const (
	minRecordYear = 1900
	maxRecordYear = 2200
)

// recordTime is t when it is a plausible record time.
func recordTime(t time.Time) (time.Time, bool) {
	if y := t.UTC().Year(); y < minRecordYear || y > maxRecordYear {
		return time.Time{}, false
	}
	return t.UTC(), true
}

// parseCSVTime reads the date/time forms CSV files use: RFC 3339 / ISO 8601
// with an offset or Z, the same without one, "YYYY-MM-DD H:MM[:SS]" (both
// in loc; an hour may have one digit), and a bare "YYYY-MM-DD", which means
// noon in loc so the entry lands on that day whatever zone it is later
// shown in.
func parseCSVTime(s string, loc *time.Location) (time.Time, bool) {
	s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), " Uhr")) // old German Withings: "2014-02-13 6:04 Uhr"
	if len(s) < len(time.DateOnly) {
		return time.Time{}, false
	}
	if len(s) == len(time.DateOnly) {
		d, err := time.ParseInLocation(time.DateOnly, s, loc)
		if err != nil {
			return time.Time{}, false
		}
		return recordTime(time.Date(d.Year(), d.Month(), d.Day(), 12, 0, 0, 0, loc))
	}
	for _, l := range zonedLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return recordTime(t)
		}
	}
	for _, l := range localLayouts {
		if t, err := time.ParseInLocation(l, s, loc); err == nil {
			return recordTime(t)
		}
	}
	return time.Time{}, false
}
