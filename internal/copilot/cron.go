package copilot

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// The words NaturalCron knows.
var (
	clockRe  = regexp.MustCompile(`\b(?:at\s+)?(\d{1,2})(?:[:.h](\d{2}))?\s*(am|pm|a\.m\.|p\.m\.)?(?:\s|$|,)`)
	everyNRe = regexp.MustCompile(`\bevery\s+(\d{1,3})\s*(minutes?|mins?|hours?|hrs?)\b`)
	dayNames = []struct {
		names []string
		n     int
	}{
		{[]string{"sunday", "sundays", "sun"}, 0}, {[]string{"monday", "mondays", "mon"}, 1},
		{[]string{"tuesday", "tuesdays", "tue", "tues"}, 2}, {[]string{"wednesday", "wednesdays", "wed"}, 3},
		{[]string{"thursday", "thursdays", "thu", "thurs"}, 4}, {[]string{"friday", "fridays", "fri"}, 5},
		{[]string{"saturday", "saturdays", "sat"}, 6},
	}
)

// NaturalCron turns a recurring schedule in plain words into the
// five-field cron expression the schedule form takes ("every day at 7pm"
// → "0 19 * * *", "weekdays at 6:30" → "30 6 * * 1-5", "mondays and
// thursdays at 18:00" → "0 18 * * 1,4", "every 15 minutes" → "*/15 * * * *").
// ok is false when the words are not a schedule it understands; it never
// guesses a time that was not said.
func NaturalCron(s string) (cron string, ok bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	s = strings.NewReplacer("noon", "12:00", "midday", "12:00", "midnight", "0:00").Replace(s)
	if m := everyNRe.FindStringSubmatch(s); m != nil {
		n, _ := strconv.Atoi(m[1])
		if strings.HasPrefix(m[2], "h") {
			if n >= 1 && n <= 23 && 24%n == 0 {
				if n == 1 {
					return "0 * * * *", true
				}
				return fmt.Sprintf("0 */%d * * *", n), true
			}
			return "", false
		}
		if n >= 1 && n <= 59 && 60%n == 0 {
			return fmt.Sprintf("*/%d * * * *", n), true
		}
		return "", false
	}
	if regexp.MustCompile(`\b(every|each)\s+hour\b|\bhourly\b`).MatchString(s) {
		return "0 * * * *", true
	}
	days, dayOK := weekdays(s)
	if !dayOK {
		return "", false
	}
	h, m, ok := clock(s)
	if !ok {
		return "", false
	}
	return fmt.Sprintf("%d %d * * %s", m, h, days), true
}

// weekdays reads the days part: "every day"/"daily" → "*", "weekdays" →
// "1-5", "weekends" → "0,6", named days → their numbers.
func weekdays(s string) (string, bool) {
	words := strings.FieldsFunc(s, func(r rune) bool { return !('a' <= r && r <= 'z') })
	var days []int
	daily := false
	for i, w := range words {
		switch w {
		case "daily", "everyday", "night", "nightly", "morning", "evening":
			daily = true
		case "day":
			if i > 0 && (words[i-1] == "every" || words[i-1] == "each" || words[i-1] == "a") {
				daily = true
			}
		case "weekday", "weekdays":
			days = append(days, 1, 2, 3, 4, 5)
		case "weekend", "weekends":
			days = append(days, 0, 6)
		}
		for _, d := range dayNames {
			if slices.Contains(d.names, w) {
				days = append(days, d.n)
			}
		}
	}
	if len(days) == 0 {
		if daily {
			return "*", true
		}
		return "", false
	}
	slices.Sort(days)
	days = slices.Compact(days)
	switch {
	case len(days) == 7:
		return "*", true
	case slices.Equal(days, []int{1, 2, 3, 4, 5}):
		return "1-5", true
	}
	parts := make([]string, len(days))
	for i, d := range days {
		parts[i] = strconv.Itoa(d)
	}
	return strings.Join(parts, ","), true
}

// clock reads the time of day: "7pm", "6:30", "18:00", "7.15 am".
func clock(s string) (h, m int, ok bool) {
	for _, g := range clockRe.FindAllStringSubmatch(s+" ", -1) {
		h, _ = strconv.Atoi(g[1])
		m = 0
		if g[2] != "" {
			m, _ = strconv.Atoi(g[2])
		}
		switch strings.ReplaceAll(g[3], ".", "") {
		case "am":
			if h < 1 || h > 12 {
				continue
			}
			if h == 12 {
				h = 0
			}
		case "pm":
			if h < 1 || h > 12 {
				continue
			}
			if h != 12 {
				h += 12
			}
		}
		if h <= 23 && m <= 59 {
			return h, m, true
		}
	}
	return 0, 0, false
}

// cronShape is the shape of what NaturalCron returns (tests check it).
var cronShape = regexp.MustCompile(`^(\*/\d{1,2}|\d{1,2}) (\*|\*/\d{1,2}|\d{1,2}) \* \* (\*|1-5|[0-6](,[0-6])*)$`)
