package adminview

import (
	"strconv"
)

func itoa(n int) string     { return strconv.Itoa(n) }
func itoa64(n int64) string { return strconv.FormatInt(n, 10) }

// lastOutcome is ": ran", ": failed"… after a task's last run time.
func lastOutcome(t TaskRow) string {
	if t.LastOutcome == "" {
		return ""
	}
	return ": " + t.LastOutcome
}
