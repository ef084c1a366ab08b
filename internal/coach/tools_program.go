package coach

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"hearth/internal/agent"
	"hearth/internal/apperr"
	"hearth/internal/content"
	"hearth/internal/program"
	"hearth/internal/store"
)

// ProgramView is get_program_state's result: the member's program and what
// today is in it. Day is the next program day to do.
type ProgramView struct {
	HasProgram    bool                   `json:"has_program"`
	ProgramID     string                 `json:"program_id,omitempty"`
	Title         string                 `json:"title,omitempty"`
	Status        string                 `json:"status,omitempty"` // active | paused | completed
	StartDate     string                 `json:"start_date,omitempty"`
	Pattern       string                 `json:"pattern,omitempty"`
	Pace          string                 `json:"pace,omitempty"` // calendar | own (the next undone day, never behind)
	RestWeekdays  []string               `json:"rest_weekdays,omitempty"`
	Day           int                    `json:"day,omitempty"`
	TotalDays     int                    `json:"total_days,omitempty"`
	Week          string                 `json:"week,omitempty"`
	Today         string                 `json:"today,omitempty"` // training | rest | not_started | paused | completed
	RestReason    string                 `json:"rest_reason,omitempty"`
	ExpectedDay   int                    `json:"expected_day,omitempty"`
	Behind        int                    `json:"behind"`
	Ahead         int                    `json:"ahead"`
	StartsInDays  int                    `json:"starts_in_days,omitempty"`
	Item          *content.MenuEntry     `json:"item,omitempty"`
	Note          string                 `json:"note,omitempty"`
	Upcoming      []content.MenuEntry    `json:"upcoming,omitempty"`
	Substitutions []program.Substitution `json:"substitutions,omitempty"`
	Text          string                 `json:"text"`

	stateID    int64
	daySince   time.Time // when the member reached Day (program.State.DaySince)
	anchorDate string
	anchorDay  int
	days       []content.Day
}

func (t *Tools) programState() agent.Tool {
	return scopedTool("get_program_state",
		"The member's workout program: which program, status, position (next day to do), schedule pattern, what today is (training, rest, not started), how far behind or ahead, and the next sessions.",
		func(ctx context.Context, scope agent.Scope, _ noArgs) (ProgramView, error) {
			return t.c.programView(ctx, scope.MemberID, t.c.clock(scope))
		})
}

func (c *core) programView(ctx context.Context, member string, now time.Time) (ProgramView, error) {
	st, err := c.prog.Current(ctx, member)
	if apperr.Is(err, apperr.NotFound) {
		v := ProgramView{}
		v.Text = v.text()
		return v, nil
	}
	if err != nil {
		return ProgramView{}, err
	}
	td, err := c.prog.Today(ctx, member, now, c.loc)
	if err != nil {
		return ProgramView{}, err
	}
	v := ProgramView{HasProgram: true, ProgramID: st.ProgramID, Title: td.ProgramTitle, Status: string(st.Status),
		StartDate: st.StartDate, Pattern: st.Pattern, Pace: string(td.Pace), RestWeekdays: st.RestWeekdays, Day: td.Day, TotalDays: td.TotalDays,
		Week: td.Week, Today: string(td.Status), RestReason: td.RestReason, ExpectedDay: td.ExpectedDay, Behind: td.Behind,
		Ahead: td.Ahead, StartsInDays: td.StartsInDays, Note: td.Note, stateID: st.ID, daySince: st.DaySince,
		anchorDate: st.AnchorDate, anchorDay: st.AnchorDay}
	if td.Item != nil {
		e := content.MenuOf([]content.Item{*td.Item})[0]
		v.Item = &e
	}
	if n := len(st.Substitutions); n > 0 {
		v.Substitutions = st.Substitutions[max(0, n-3):]
	}
	if prog, err := c.cat.Program(ctx, st.ProgramID); err == nil {
		v.days = prog.Days
		if v.Upcoming, err = c.upcoming(ctx, prog.Days, v.Day); err != nil {
			return v, err
		}
	} else if !apperr.Is(err, apperr.NotFound) {
		return v, err
	}
	followPerson(&v)
	v.Text = v.text()
	return v, nil
}

// upcoming resolves the training sessions after day.
func (c *core) upcoming(ctx context.Context, days []content.Day, day int) ([]content.MenuEntry, error) {
	var ids []string
	for d := day + 1; d <= len(days) && len(ids) < upcomingSessions; d++ {
		if !days[d-1].Rest && days[d-1].ContentID != "" {
			ids = append(ids, days[d-1].ContentID)
		}
	}
	found, err := c.cat.Lookup(ctx, ids)
	if err != nil {
		return nil, err
	}
	var out []content.MenuEntry
	for _, id := range ids {
		if it, ok := found[id]; ok {
			out = append(out, content.MenuOf([]content.Item{it})[0])
		}
	}
	return out, nil
}

// text renders the program situation in one line.
func (v ProgramView) text() string {
	if !v.HasProgram {
		return "no current program (ad-hoc workouts)"
	}
	pos := fmt.Sprintf("Day %d of %d (%s)", v.Day, v.TotalDays, v.Week)
	switch v.Today {
	case string(program.DayCompleted):
		return fmt.Sprintf("%s completed (started %s)", v.Title, v.StartDate)
	case string(program.DayPaused):
		return fmt.Sprintf("%s is paused at %s", v.Title, pos)
	case string(program.DayNotStarted):
		return fmt.Sprintf("%s starts on %s (in %d days), training %s", v.Title, v.StartDate, v.StartsInDays, v.Pattern)
	}
	var b strings.Builder
	if v.Today == string(program.DayRest) {
		why := "a program rest day"
		if v.RestReason == program.RestSchedule {
			why = "not a training weekday (" + v.Pattern + ")"
		}
		fmt.Fprintf(&b, "%s: rest day today, %s; next is %s", v.Title, why, pos)
	} else {
		fmt.Fprintf(&b, "%s: today is %s", v.Title, pos)
	}
	if v.Item != nil {
		fmt.Fprintf(&b, ", %s (%d min)", v.Item.Title, v.Item.DurationMin)
	}
	if v.Pace == string(program.PaceOwn) {
		b.WriteString("; at their own pace (today is always the next undone day)")
	}
	if v.Behind > 0 {
		fmt.Fprintf(&b, "; %d sessions behind schedule", v.Behind)
	}
	if v.Ahead > 0 {
		fmt.Fprintf(&b, "; %d sessions ahead of schedule", v.Ahead)
	}
	return b.String()
}

// programArgs are update_program_state's arguments.
type programArgs struct {
	Action    string  `json:"action" enum:"declare|advance|substitute|pause|resume|complete"`
	ProgramID *string `json:"program_id" desc:"declare: the catalog program id." schema:"maxLength=200"`
	StartDate *string `json:"start_date" desc:"declare: YYYY-MM-DD, today, tomorrow or a weekday (\"monday\"); null = today." schema:"maxLength=200"`
	Pattern   *string `json:"pattern" desc:"declare: training weekdays, \"daily\" or e.g. \"mon,wed,fri\"; null = daily." schema:"maxLength=200"`
	Day       *int    `json:"day" desc:"substitute: the program day; null = the current day." schema:"minimum=1,maximum=1000"`
	Original  *string `json:"original" desc:"substitute: the program's content id for the day; null = from the program." schema:"maxLength=200"`
	Actual    *string `json:"actual" desc:"substitute: a catalog id or a short description of what they did." schema:"maxLength=200"`
	Reason    *string `json:"reason" desc:"substitute: why." schema:"maxLength=200"`
	Note      *string `json:"note" desc:"pause: why." schema:"maxLength=200"`
}

// stagedResult is what a write tool answers: the change waits for the run.
type stagedResult[V any] struct {
	Staged bool   `json:"staged"`
	Note   string `json:"note"`
	Now    V      `json:"current"`
}

// stagedNote tells the model when its write happens.
const stagedNote = "staged: applied when your output is accepted; a run that falls back applies nothing"

func (t *Tools) updateProgram() agent.Tool {
	return scopedTool("update_program_state",
		"Change the member's program: declare (program_id, start_date, pattern) when they say they start one; "+
			"advance after they did today's session; substitute (day, actual, reason) when they did something else; "+
			"pause (note), resume, complete. The change is checked now and applied when your output is accepted.",
		func(ctx context.Context, scope agent.Scope, a programArgs) (stagedResult[ProgramView], error) {
			op, err := t.c.programOp(ctx, scope, a)
			if err == nil {
				err = t.c.prog.Check(ctx, op)
			}
			if err != nil {
				return stagedResult[ProgramView]{}, t.c.refusal(a.Action, err)
			}
			if err := scope.Stage(func(ctx context.Context, tx *store.Tx) error { return t.c.prog.DoTx(ctx, tx, op) }); err != nil {
				return stagedResult[ProgramView]{}, err
			}
			v, err := t.c.programView(ctx, scope.MemberID, t.c.clock(scope))
			return stagedResult[ProgramView]{Staged: true, Note: stagedNote, Now: v}, err
		})
}

// programOp turns the tool's arguments into a program operation.
func (c *core) programOp(ctx context.Context, scope agent.Scope, a programArgs) (program.Op, error) {
	m := scope.MemberID
	switch a.Action {
	case "declare":
		if deref(a.ProgramID) == "" {
			return program.Op{}, apperr.Invalidf("declare needs program_id")
		}
		d, err := resolveDay(deref(a.StartDate), civilDate(c.clock(scope), c.loc))
		if err != nil {
			return program.Op{}, err
		}
		return c.prog.DeclareOp(ctx, m, deref(a.ProgramID), d.Format(time.DateOnly), deref(a.Pattern))
	case "advance":
		return c.prog.AdvanceOp(m), nil
	case "substitute":
		d := 0
		if a.Day != nil {
			d = *a.Day
		} else {
			st, err := c.prog.Current(ctx, m)
			if err != nil {
				return program.Op{}, err
			}
			d = st.CurrentDay
		}
		return c.prog.SubstituteOp(ctx, m, d, deref(a.Original), deref(a.Actual), deref(a.Reason))
	case "pause":
		return c.prog.PauseOp(m, deref(a.Note)), nil
	case "resume":
		return c.prog.ResumeOp(m), nil
	case "complete":
		return c.prog.CompleteOp(m), nil
	}
	return program.Op{}, apperr.Invalidf("unknown action %q", a.Action)
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return strings.TrimSpace(*s)
}

// refusal turns a service error into the message the model sees: the
// user-safe message of coded errors, nothing internal.
func (c *core) refusal(action string, err error) error {
	var ae *apperr.Error
	if errors.As(err, &ae) && ae.Code != apperr.Internal {
		return fmt.Errorf("%s refused: %s", action, ae.Message)
	}
	c.log.Warn("coach: tool failed", "action", action, "err", err)
	return fmt.Errorf("%s failed: internal error", action)
}
