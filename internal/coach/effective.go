package coach

import (
	"context"
	"fmt"
	"time"

	"hearth/internal/content"
	"hearth/internal/program"
)

// maxAutoAdvance bounds how many finished sessions one run moves past.
const maxAutoAdvance = 7

// completionUpdate detects that the member finished the current program
// day (a done tap or a logged workout with its content id, after since:
// when they reached that day, see completedSince; a pattern, pace or pause
// change in between does not hide it) and returns the advance (or
// completion) it calls for.
func completionUpdate(v ProgramView, done []Completion, since time.Time) (Update, bool) {
	if !v.HasProgram || v.Status != string(program.Active) || v.Day < 1 || v.Day > len(v.days) {
		return Update{}, false
	}
	used := make([]bool, len(done))
	day, finished := v.Day, false
	var titles []string
	for range maxAutoAdvance {
		id := v.days[day-1].ContentID
		i := -1
		for j, c := range done {
			if !used[j] && c.ContentID == id && c.At.After(since) {
				i = j
				break
			}
		}
		if i < 0 || id == "" {
			break
		}
		used[i] = true
		titles = append(titles, fmt.Sprintf("day %d", day))
		next := nextTraining(v.days, day+1)
		if next == 0 {
			finished = true
			break
		}
		day = next
	}
	switch {
	case finished:
		return Update{Kind: UpdateComplete, ProgramID: v.ProgramID, Title: v.Title, FromDay: v.Day, Day: day,
			Note: fmt.Sprintf("Finished the last session of %s: program completed.", v.Title)}, true
	case day != v.Day:
		return Update{Kind: UpdateAdvance, ProgramID: v.ProgramID, Title: v.Title, FromDay: v.Day, Day: day,
			Note: fmt.Sprintf("Finished %s of %s; next is day %d.", joinAnd(titles), v.Title, day)}, true
	}
	return Update{}, false
}

// applyProgram returns the program view as it will be once the program
// updates among us are applied (act applies them in its transaction), and
// us with declarations completed (first day, canonical pattern) and
// updates that cannot apply dropped.
func (c *core) applyProgram(ctx context.Context, v ProgramView, us []Update, today time.Time, done []Completion) (ProgramView, []Update, error) {
	changed := false
	kept := us[:0:0]
	for _, u := range us {
		ok := true
		switch u.Kind {
		case UpdateDeclare:
			prog, err := c.cat.Program(ctx, u.ProgramID)
			if err != nil {
				return v, nil, err
			}
			pat, perr := program.ParsePattern(u.Pattern)
			first := nextTraining(prog.Days, 1)
			anchor := 1
			if n := donePrefix(prog.Days, done); n > 0 {
				// Sessions already done with the program's content count.
				if next := nextTraining(prog.Days, n+1); next > 0 {
					first, anchor, u.AnchorDay = next, next, next
				}
			}
			if ok = perr == nil && first > 0; ok {
				u.Pattern, u.Day = pat.String(), first
				v = ProgramView{HasProgram: true, ProgramID: prog.ID, Title: prog.Title, Status: string(program.Active),
					StartDate: u.StartDate, Pattern: pat.String(), RestWeekdays: pat.RestWeekdays(), Day: first,
					TotalDays: len(prog.Days), days: prog.Days, anchorDate: u.StartDate, anchorDay: anchor}
			}
		case UpdatePause:
			if ok = v.Status == string(program.Active); ok {
				v.Status = string(program.Paused)
			}
		case UpdateResume:
			if ok = v.Status == string(program.Paused); ok {
				v.Status = string(program.Active)
				if anchor, err := time.Parse(time.DateOnly, v.anchorDate); err != nil || !today.Before(anchor) {
					v.anchorDate, v.anchorDay = today.Format(time.DateOnly), v.Day
				}
				u.Anchor, u.Day = v.anchorDate, v.anchorDay
			}
		case UpdateSetDay:
			next := 0
			if u.Day >= 1 && u.Day <= len(v.days) {
				next = nextTraining(v.days, u.Day)
			}
			if ok = next > 0 && (v.Status == string(program.Active) || v.Status == string(program.Paused)); ok {
				u.Day, v.Day = next, next
				v.anchorDate, v.anchorDay = today.Format(time.DateOnly), next
				u.Anchor = v.anchorDate
			}
		case UpdatePace:
			if ok = v.Status == string(program.Active) || v.Status == string(program.Paused); ok {
				v.Pace = u.Pace
				v.anchorDate, v.anchorDay = today.Format(time.DateOnly), v.Day
				u.Anchor = v.anchorDate
			}
		case UpdateAdvance:
			v.Day = u.Day
		case UpdateComplete:
			v.Status, v.Day = string(program.Completed), u.Day
		default:
			kept = append(kept, u)
			continue
		}
		if ok {
			kept = append(kept, u)
			changed = true
		}
	}
	if !changed {
		return v, kept, nil
	}
	err := c.refresh(ctx, &v, today)
	return v, kept, err
}

// refresh recomputes the view's schedule fields, item and text for today.
func (c *core) refresh(ctx context.Context, v *ProgramView, today time.Time) error {
	v.Week, v.Item, v.Note, v.Upcoming = content.WeekLabel(v.Day), nil, "", nil
	v.Behind, v.Ahead, v.ExpectedDay, v.StartsInDays, v.RestReason = 0, 0, 0, 0, ""
	switch v.Status {
	case string(program.Completed):
		v.Today = string(program.DayCompleted)
		v.Text = v.text()
		return nil
	case string(program.Paused):
		v.Today = string(program.DayPaused)
	default:
		pat, err := program.ParsePattern(v.Pattern)
		if err != nil {
			return err
		}
		anchor, err := time.Parse(time.DateOnly, v.anchorDate)
		if err != nil {
			return err
		}
		p := planDay(v.days, pat, anchor, v.anchorDay, v.Day, today)
		v.Today, v.RestReason, v.ExpectedDay = string(p.status), p.restReason, p.expected
		v.Behind, v.Ahead, v.StartsInDays = p.behind, p.ahead, p.startsIn
		if v.Pace == string(program.PaceOwn) && p.status != program.DayNotStarted {
			// At the member's own pace today is the next undone day.
			v.Today, v.RestReason, v.ExpectedDay, v.Behind, v.Ahead = string(program.DayTraining), "", v.Day, 0, 0
			if !pat.Has(today.Weekday()) {
				v.Today, v.RestReason = string(program.DayRest), program.RestSchedule
			}
		}
	}
	if v.Day >= 1 && v.Day <= len(v.days) {
		d := v.days[v.Day-1]
		v.Note = d.Note
		if !d.Rest {
			found, err := c.cat.Lookup(ctx, []string{d.ContentID})
			if err != nil {
				return err
			}
			if it, ok := found[d.ContentID]; ok {
				e := menuEntryOf(it)
				v.Item = &e
			}
		}
	}
	followPerson(v)
	up, err := c.upcoming(ctx, v.days, v.Day)
	v.Upcoming = up
	v.Text = v.text()
	return err
}

// followPerson makes today the member's next undone training day when they
// are behind the calendar and the calendar says rest: a member who never
// did Day 1 is offered Day 1, not the rest day of Day 7 (issue 23).
// Weekdays outside their pattern stay rest days.
func followPerson(v *ProgramView) {
	if v.Today != string(program.DayRest) || v.RestReason != program.RestProgram || v.Behind <= 0 || v.Item == nil ||
		v.Day < 1 || v.Day > len(v.days) || v.days[v.Day-1].Rest {
		return
	}
	v.Today, v.RestReason = string(program.DayTraining), ""
}

// joinAnd joins words as "a, b and c".
func joinAnd(xs []string) string {
	switch len(xs) {
	case 0:
		return ""
	case 1:
		return xs[0]
	}
	out := xs[0]
	for _, x := range xs[1 : len(xs)-1] {
		out += ", " + x
	}
	return out + " and " + xs[len(xs)-1]
}

// donePrefix is the last of the program's first training days that the
// member already finished (the content ids of done), in order: sessions
// done with a program's content before declaring it count. 0 when Day 1's
// session is not among them.
func donePrefix(days []content.Day, done []Completion) int {
	ids := map[string]bool{}
	for _, c := range done {
		ids[c.ContentID] = true
	}
	last := 0
	for d, day := range days {
		if day.Rest {
			continue
		}
		if !ids[day.ContentID] {
			break
		}
		last = d + 1
	}
	return last
}
