package program

import (
	"context"
	"fmt"
	"time"

	"hearth/internal/apperr"
	"hearth/internal/content"
)

// DayStatus says what a date is for a member's program.
type DayStatus string

// Day statuses reported by Today.
const (
	DayNotStarted DayStatus = "not_started" // the start date is in the future
	DayTraining   DayStatus = "training"    // do Item today
	DayRest       DayStatus = "rest"        // a rest day (see RestReason); Item is what comes next
	DayPaused     DayStatus = "paused"
	DayCompleted  DayStatus = "completed"
)

// Rest reasons.
const (
	RestSchedule = "schedule" // the weekday is not in the member's pattern
	RestProgram  = "program"  // the program schedules a rest day
)

// Today describes one date of a member's program.
type Today struct {
	Date         string    `json:"date"`
	Status       DayStatus `json:"status"`
	ProgramID    string    `json:"program_id"`
	ProgramTitle string    `json:"program_title"`
	// Day is the member's position: the next program day to do.
	Day       int `json:"day"`
	TotalDays int `json:"total_days"`
	// Week labels Day as "Week 4, Day 2".
	Week string `json:"week,omitempty"`
	// Pace is how the member follows the program (calendar or own).
	Pace Pace `json:"pace"`
	// ExpectedDay is the program day the schedule puts on Date (for a
	// non-training weekday: the next one due); 0 before the start.
	ExpectedDay int `json:"expected_day"`
	// Behind counts training days scheduled before Date that are not done;
	// Ahead counts training days done beyond what is due by the end of Date.
	Behind       int    `json:"behind"`
	Ahead        int    `json:"ahead"`
	StartsInDays int    `json:"starts_in_days,omitempty"`
	RestReason   string `json:"rest_reason,omitempty"`
	// Item is the content of Day; nil once completed.
	Item *content.Item `json:"item,omitempty"`
	// Note is the program's note for Day.
	Note string `json:"note,omitempty"`
}

// Today reports what now's date (in loc) is in the member's current program.
// A member without a current program (none, or the last one abandoned) gets
// an apperr.NotFound error.
func (s *Service) Today(ctx context.Context, member string, now time.Time, loc *time.Location) (Today, error) {
	if loc == nil {
		loc = s.loc
	}
	st, err := s.Current(ctx, member)
	if err != nil {
		return Today{}, err
	}
	prog, err := s.cat.Program(ctx, st.ProgramID)
	if err != nil {
		return Today{}, fmt.Errorf("program: %s follows %s: %w", member, st.ProgramID, err)
	}
	t, err := compute(st, prog, civil(now, loc))
	if err != nil {
		return t, err
	}
	if t.Status != DayCompleted && t.Day >= 1 && t.Day <= len(prog.Days) {
		d := prog.Days[t.Day-1]
		t.Note = d.Note
		if !d.Rest {
			it, err := s.cat.Get(ctx, d.ContentID)
			if err != nil {
				return t, fmt.Errorf("program: %s day %d content: %w", prog.ID, t.Day, err)
			}
			t.Item = &it
		}
	}
	return t, nil
}

// compute is the pure schedule arithmetic behind Today.
func compute(st State, prog content.Program, date time.Time) (Today, error) {
	total := len(prog.Days)
	t := Today{Date: date.Format(time.DateOnly), ProgramID: prog.ID, ProgramTitle: prog.Title, Day: st.CurrentDay,
		TotalDays: total, Week: content.WeekLabel(st.CurrentDay), Pace: st.Pace}
	if t.Pace == "" {
		t.Pace = PaceCalendar
	}
	switch st.Status {
	case Completed:
		t.Status = DayCompleted
		return t, nil
	case Abandoned:
		return t, apperr.NotFoundf("%s abandoned %s", st.MemberID, prog.Title)
	}
	pat, err := ParsePattern(st.Pattern)
	if err != nil {
		return t, err
	}
	anchor, err := parseDate(st.AnchorDate)
	if err != nil {
		return t, err
	}
	if st.Status == Paused {
		t.Status = DayPaused
		return t, nil
	}
	if date.Before(anchor) {
		t.Status = DayNotStarted
		t.StartsInDays = daysBetween(date, anchor)
		return t, nil
	}
	training := pat.Has(date.Weekday())
	if t.Pace == PaceOwn {
		// At their own pace the next undone day is today's, on every
		// training weekday; nothing is behind or ahead.
		t.ExpectedDay = st.CurrentDay
		if training {
			t.Status = DayTraining
		} else {
			t.Status, t.RestReason = DayRest, RestSchedule
		}
		return t, nil
	}
	t.ExpectedDay = st.AnchorDay + pat.countBetween(anchor, date)
	if training {
		t.ExpectedDay--
	}
	dueThrough := t.ExpectedDay - 1 // last day due by the end of date
	if training {
		dueThrough = t.ExpectedDay
	}
	t.Behind = trainingDays(prog, st.CurrentDay, t.ExpectedDay-1)
	t.Ahead = trainingDays(prog, dueThrough+1, st.CurrentDay-1)
	switch {
	case !training:
		t.Status, t.RestReason = DayRest, RestSchedule
	case t.ExpectedDay <= total && prog.Days[t.ExpectedDay-1].Rest:
		t.Status, t.RestReason = DayRest, RestProgram
	default:
		t.Status = DayTraining
	}
	return t, nil
}

// trainingDays counts non-rest program days in [from, to].
func trainingDays(prog content.Program, from, to int) int {
	from, to = max(from, 1), min(to, len(prog.Days))
	n := 0
	for d := from; d <= to; d++ {
		if !prog.Days[d-1].Rest {
			n++
		}
	}
	return n
}

// nextTrainingDay returns the first non-rest day ≥ from, or 0 if none.
func nextTrainingDay(prog content.Program, from int) int {
	for d := max(from, 1); d <= len(prog.Days); d++ {
		if !prog.Days[d-1].Rest {
			return d
		}
	}
	return 0
}
