package adminview

import (
	"strconv"

	"hearth/views"
)

func itoa(n int) string     { return strconv.Itoa(n) }
func itoa64(n int64) string { return strconv.FormatInt(n, 10) }

func postForm(url string) string { return views.PostForm(url) }
func getForm(url string) string  { return views.GetForm(url) }

// lastOutcome is ": ran", ": failed"… after a task's last run time.
func lastOutcome(t TaskRow) string {
	if t.LastOutcome == "" {
		return ""
	}
	return ": " + t.LastOutcome
}
