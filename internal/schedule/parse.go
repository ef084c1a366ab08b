package schedule

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/robfig/cron/v3"

	"hearth/internal/apperr"
)

// Limits on schedule input.
const (
	MaxScheduleLen     = 200
	MaxIntervalMinutes = 366 * 24 * 60 // a year
)

// cronParser reads standard 5-field expressions and the @daily-style
// descriptors; seconds fields and @every are not accepted.
var cronParser = cron.NewParser(cron.Minute | cron.Hour | cron.Dom | cron.Month | cron.Dow | cron.Descriptor)

// onceLayouts are accepted for once tasks; the ones without an offset are
// read in the household zone (what an HTML datetime-local input sends).
var onceLayouts = []string{
	time.RFC3339Nano,
	"2006-01-02T15:04:05",
	"2006-01-02T15:04",
	"2006-01-02 15:04:05",
	"2006-01-02 15:04",
}

// Spec is a parsed schedule; Normalized is what gets stored.
type Spec struct {
	Kind       Kind
	Normalized string
	at         time.Time
	every      time.Duration
	cron       cron.Schedule
	loc        *time.Location
}

// Every is the interval of an interval or heartbeat schedule.
func (s Spec) Every() time.Duration { return s.every }

// Next returns the first slot strictly after t, or the zero time when there
// is none (a once task whose instant is not after t, a cron that never
// matches). For intervals the cadence is t + every: pass the previous slot.
func (s Spec) Next(t time.Time) time.Time {
	switch s.Kind {
	case KindOnce:
		if s.at.After(t) {
			return s.at
		}
		return time.Time{}
	case KindInterval, KindHeartbeat:
		return t.Add(s.every)
	case KindRecurring:
		return s.nextRecurring(t) // with the clock-change policy (clock.go)
	}
	return time.Time{}
}

// ParseSchedule reads a schedule of the given kind. Instants without an
// offset and cron expressions are in loc. Errors are apperr.Invalid naming
// the problem.
func ParseSchedule(kind Kind, schedule string, loc *time.Location) (Spec, error) {
	if loc == nil {
		loc = time.Local
	}
	raw := strings.TrimSpace(schedule)
	spec := Spec{Kind: kind, loc: loc}
	if raw == "" {
		return spec, invalidField("schedule", "schedule is required")
	}
	if len(raw) > MaxScheduleLen {
		return spec, invalidField("schedule", fmt.Sprintf("schedule is longer than %d characters", MaxScheduleLen))
	}
	switch kind {
	case KindOnce:
		at, err := parseInstant(raw, loc)
		if err != nil {
			return spec, err
		}
		spec.at = at
		spec.Normalized = at.In(loc).Format(time.RFC3339)
	case KindInterval, KindHeartbeat:
		n, err := strconv.Atoi(raw)
		if err != nil {
			return spec, invalidField("schedule", fmt.Sprintf("interval %q is not a whole number of minutes", raw))
		}
		if n < 1 {
			return spec, invalidField("schedule", fmt.Sprintf("interval must be at least 1 minute, got %d", n))
		}
		if n > MaxIntervalMinutes {
			return spec, invalidField("schedule", fmt.Sprintf("interval must be at most %d minutes, got %d", MaxIntervalMinutes, n))
		}
		spec.every = time.Duration(n) * time.Minute
		spec.Normalized = strconv.Itoa(n)
	case KindRecurring:
		c, norm, err := parseCron(raw)
		if err != nil {
			return spec, err
		}
		spec.cron, spec.Normalized = c, norm
	case "":
		return spec, invalidField("type", "type is required: once, recurring, interval or heartbeat")
	default:
		return spec, invalidField("type", fmt.Sprintf("unknown type %q: want once, recurring, interval or heartbeat", string(kind)))
	}
	return spec, nil
}

func parseInstant(raw string, loc *time.Location) (time.Time, error) {
	for i, layout := range onceLayouts {
		var (
			t   time.Time
			err error
		)
		if i == 0 {
			t, err = time.Parse(layout, raw)
		} else {
			t, err = time.ParseInLocation(layout, raw, loc)
		}
		if err == nil {
			if y := t.Year(); y < 2000 || y > 9999 {
				return time.Time{}, invalidField("schedule", fmt.Sprintf("time %q is not between the years 2000 and 9999", raw))
			}
			return t.Truncate(time.Second), nil
		}
	}
	return time.Time{}, invalidField("schedule", fmt.Sprintf("time %q is not an RFC 3339 instant (e.g. 2026-03-01T09:00:00+01:00)", raw))
}

func parseCron(raw string) (sched cron.Schedule, norm string, err error) {
	norm = strings.Join(strings.Fields(raw), " ")
	upper := strings.ToUpper(norm)
	if strings.HasPrefix(upper, "TZ=") || strings.HasPrefix(upper, "CRON_TZ=") {
		return nil, "", invalidField("schedule", "cron expression must not set a time zone: schedules use the household's")
	}
	if strings.HasPrefix(norm, "@every") {
		return nil, "", invalidField("schedule", "@every is not a cron expression: use an interval task")
	}
	if !strings.HasPrefix(norm, "@") {
		if n := len(strings.Fields(norm)); n != 5 {
			return nil, "", invalidField("schedule", fmt.Sprintf("cron expression %q has %d fields, want 5 (minute hour day-of-month month day-of-week)", norm, n))
		}
	}
	defer func() { // the parser has panicked on odd input in the past; never let that reach a request
		if r := recover(); r != nil {
			sched, norm, err = nil, "", invalidField("schedule", fmt.Sprintf("bad cron expression %q", raw))
		}
	}()
	sched, perr := cronParser.Parse(norm)
	if perr != nil {
		return nil, "", invalidField("schedule", fmt.Sprintf("bad cron expression %q: %v", norm, perr))
	}
	return sched, norm, nil
}

func invalidField(field, msg string) *apperr.Error {
	return &apperr.Error{Code: apperr.Invalid, Message: msg, Fields: map[string]string{field: msg}}
}

// span is the outcome of walking a schedule from a past slot up to now.
type span struct {
	total  int         // slots at or before now, starting at the first
	recent []time.Time // the most recent of them (at most maxRecorded), oldest first
	first  time.Time   // the first slot of the span
	next   time.Time   // the first slot after now (zero: none)
}

// maxRecorded caps how many missed or paused-over slots get their own ledger
// row; the oldest recorded row says how many more there were.
const maxRecorded = 20

// maxWalk bounds the walk over a cron schedule (about two years of minutes).
const maxWalk = 1_100_000

// walk enumerates the slots of spec from first (a slot ≤ now) up to now, and
// the next slot after now.
func walk(spec Spec, first, now time.Time) span {
	sp := span{first: first}
	if first.IsZero() || first.After(now) {
		sp.next = first
		return sp
	}
	switch spec.Kind {
	case KindInterval, KindHeartbeat:
		k := int(now.Sub(first) / spec.every) // slots after first that are ≤ now
		sp.total = k + 1
		for i := max(0, k+1-maxRecorded); i <= k; i++ {
			sp.recent = append(sp.recent, first.Add(time.Duration(i)*spec.every))
		}
		sp.next = first.Add(time.Duration(k+1) * spec.every)
		return sp
	}
	slot := first
	for i := 0; !slot.IsZero() && !slot.After(now) && i < maxWalk; i++ {
		sp.total++
		sp.recent = append(sp.recent, slot)
		if len(sp.recent) > maxRecorded {
			sp.recent = sp.recent[1:]
		}
		slot = spec.Next(slot)
	}
	if !slot.IsZero() && !slot.After(now) { // walk cap hit: jump
		slot = spec.Next(now)
	}
	sp.next = slot
	return sp
}
