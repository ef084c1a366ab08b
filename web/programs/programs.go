// Package programs is the program controls a member's dashboard and the
// admin's member page share: the card that shows where the member is in
// their program, and the operations its forms post (pause, resume,
// switch, restart, pace, skip to a day, do something else instead).
package programs

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"hearth/internal/apperr"
	"hearth/internal/content"
	"hearth/internal/health"
	"hearth/internal/program"
	"hearth/views"
)

// Programs is the program service as the kiosk and the admin member page
// use it: what the member follows and the guarded operations that change
// it (*program.Service).
type Programs interface {
	Current(ctx context.Context, member string) (program.State, error)
	Today(ctx context.Context, member string, now time.Time, loc *time.Location) (program.Today, error)
	Do(ctx context.Context, op program.Op) (program.State, error)
	DeclareOp(ctx context.Context, member, programID, startDate, pattern string) (program.Op, error)
	PauseOp(member, note string) program.Op
	ResumeOp(member string) program.Op
	SetDayOp(member string, day int) program.Op
	SubstituteOp(ctx context.Context, member string, day int, original, actual, reason string) (program.Op, error)
	PaceOp(member string, pace program.Pace) (program.Op, error)
	RestartOp(ctx context.Context, member string) (program.Op, error)
}

var _ Programs = (*program.Service)(nil)

// ProgramCatalog lists the catalog's programs and items for the controls.
type ProgramCatalog interface {
	Programs(ctx context.Context) ([]content.ProgramInfo, error)
	List(ctx context.Context, f content.Filter) ([]content.Item, error)
}

// substituteChoices is how many catalog items "do something else today" offers.
const substituteChoices = 12

// Members finds a member (a missing one is apperr.NotFound).
type Members interface {
	Member(ctx context.Context, id string) (health.Member, error)
}

// Controls builds the program card and applies its operations.
type Controls struct {
	programs Programs
	catalog  ProgramCatalog
	members  Members
	loc      *time.Location
}

// New returns the controls; with no program service or no catalog that
// lists programs, Card is nil (the controls are hidden) and Apply refuses.
func New(ps Programs, catalog any, members Members, loc *time.Location) *Controls {
	c := &Controls{programs: ps, members: members, loc: loc}
	c.catalog, _ = catalog.(ProgramCatalog)
	return c
}

// Card is the member's program with its controls, posting to action; nil
// when programs are not available.
func (pc *Controls) Card(ctx context.Context, member, action string, kiosk bool) (*views.ProgramCard, error) {
	ps, cat := pc.programs, pc.catalog
	if ps == nil || cat == nil {
		return nil, nil
	}
	p := &views.ProgramCard{MemberID: member, Action: action, Kiosk: kiosk}
	infos, err := cat.Programs(ctx)
	if err != nil {
		return nil, err
	}
	st, err := ps.Current(ctx, member)
	switch {
	case apperr.Is(err, apperr.NotFound):
	case err != nil:
		return nil, err
	default:
		p.Has, p.Title, p.Status, p.Pace, p.Day = true, st.ProgramTitle, string(st.Status), string(st.Pace), st.CurrentDay
		if p.Pace == "" {
			p.Pace = string(program.PaceCalendar)
		}
		td, err := ps.Today(ctx, member, time.Now(), pc.loc)
		if err != nil {
			return nil, err
		}
		p.Line = Line(td)
		if td.Behind > 0 {
			p.Behind = views.Plural(td.Behind, "session") + " behind the calendar"
		}
		for _, sub := range st.Substitutions {
			if sub.Day == st.CurrentDay {
				p.Substituted = sub.Actual
			}
		}
		for d := 1; d <= st.TotalDays; d++ {
			p.Days = append(p.Days, views.Option{Value: strconv.Itoa(d), Label: fmt.Sprintf("Day %d (%s)", d, content.WeekLabel(d))})
		}
		items, err := cat.List(ctx, content.Filter{MaxDuration: 45, Limit: substituteChoices})
		if err != nil {
			return nil, err
		}
		for _, it := range items {
			if td.Item == nil || it.ID != td.Item.ID {
				p.SubstituteWith = append(p.SubstituteWith, views.Option{Value: it.ID, Label: fmt.Sprintf("%s (%d min)", it.Title, it.DurationMin)})
			}
		}
	}
	for _, info := range infos {
		if !p.Has || info.ID != st.ProgramID {
			p.Programs = append(p.Programs, views.Option{Value: info.ID, Label: info.Title})
		}
	}
	return p, nil
}

// Line says where the member is in their program today.
func Line(td program.Today) string {
	pos := fmt.Sprintf("%s of %d", td.Week, td.TotalDays)
	switch td.Status {
	case program.DayCompleted:
		return "finished"
	case program.DayPaused:
		return "at " + pos
	case program.DayNotStarted:
		return fmt.Sprintf("starts in %s", views.Plural(td.StartsInDays, "day"))
	case program.DayRest:
		line := "rest day; next " + pos
		if td.Item != nil {
			line += ": " + td.Item.Title
		}
		return line
	}
	line := pos
	if td.Item != nil {
		line += fmt.Sprintf(" · today: %s (%d min)", td.Item.Title, td.Item.DurationMin)
	}
	return line
}

// Apply applies the control a form posted (op and its field) for member,
// and says what it did; via names the screen in the program's history.
func (pc *Controls) Apply(c echo.Context, member, via string) (string, error) {
	ctx := c.Request().Context()
	ps := pc.programs
	if ps == nil {
		return "", apperr.NotFoundf("programs are not available")
	}
	if _, err := pc.members.Member(ctx, member); err != nil {
		return "", err
	}
	var op program.Op
	var err error
	msg := ""
	switch c.FormValue("op") {
	case "pause":
		op, msg = ps.PauseOp(member, "paused from "+via), "Program paused. Resume it whenever you're ready."
	case "resume":
		op, msg = ps.ResumeOp(member), "Program resumed: today is where you left off."
	case "restart":
		op, err = ps.RestartOp(ctx, member)
		msg = "Program restarted from day 1."
	case "pace-own":
		op, err = ps.PaceOp(member, program.PaceOwn)
		msg = "At your own pace: today is always your next session."
	case "pace-calendar":
		op, err = ps.PaceOp(member, program.PaceCalendar)
		msg = "Following the calendar from today."
	case "switch":
		id := strings.TrimSpace(c.FormValue("program"))
		if id == "" {
			return "", apperr.FieldErrors(map[string]string{"program": "choose a program"})
		}
		pattern := "daily"
		if st, cerr := ps.Current(ctx, member); cerr == nil && st.Status != program.Completed {
			pattern = st.Pattern
		}
		op, err = ps.DeclareOp(ctx, member, id, time.Now().In(pc.loc).Format(time.DateOnly), pattern)
		msg = "New program started: day 1 is today."
	case "day":
		day, perr := strconv.Atoi(c.FormValue("day"))
		if perr != nil {
			return "", apperr.FieldErrors(map[string]string{"day": "must be a day number"})
		}
		op, msg = ps.SetDayOp(member, day), fmt.Sprintf("Moved to day %d: it's due today.", day)
	case "substitute":
		actual := strings.TrimSpace(c.FormValue("actual_text"))
		if actual == "" {
			actual = strings.TrimSpace(c.FormValue("actual"))
		}
		td, terr := ps.Today(ctx, member, time.Now(), pc.loc)
		if terr != nil {
			return "", terr
		}
		op, err = ps.SubstituteOp(ctx, member, td.Day, "", actual, "chosen from "+via)
		msg = "Noted: something else instead of today's session."
	default:
		return "", apperr.FieldErrors(map[string]string{"op": "must be pause, resume, restart, pace-own, pace-calendar, switch, day or substitute"})
	}
	if err != nil {
		return "", err
	}
	if _, err := ps.Do(ctx, op); err != nil {
		return "", err
	}
	return msg, nil
}

// Day is the member's program session for today (on a rest day the next
// one) and its day, "Week 2, Day 4"; "" when they follow none.
func (pc *Controls) Day(ctx context.Context, member string) (item, day string) {
	if pc.programs == nil || member == "" {
		return "", ""
	}
	td, err := pc.programs.Today(ctx, member, time.Now(), pc.loc)
	if err != nil || td.Item == nil {
		return "", ""
	}
	return td.Item.ID, td.Week
}

// Session is what the member's program holds on the date of at (in the
// household's zone), for the night clock: "Plank Ladder · 18 min", "rest
// day", or "" (no program, paused, finished, not started, or unreadable).
func (pc *Controls) Session(ctx context.Context, member string, at time.Time) string {
	if pc == nil || pc.programs == nil || member == "" {
		return ""
	}
	td, err := pc.programs.Today(ctx, member, at, pc.loc)
	if err != nil {
		return ""
	}
	switch {
	case td.Status == program.DayRest:
		return "rest day"
	case td.Status == program.DayTraining && td.Item != nil:
		return fmt.Sprintf("%s · %d min", td.Item.Title, td.Item.DurationMin)
	}
	return ""
}
