package program

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"hearth/internal/apperr"
	"hearth/internal/content"
	"hearth/internal/store"
)

// Op is one program change for a member, decided against the state current
// when it is applied: Service.Do applies it in its own transaction, DoTx in
// the caller's (an agent run's commit applies the coach's staged program
// changes that way), Check tries it and rolls back. The constructors
// validate what they can without the state (catalog, dates, pattern).
type Op struct {
	member string
	apply  func(ctx context.Context, tx *store.Tx, now time.Time) error
}

// errNotApplied means a guard did not match the state the op just read.
var errNotApplied = errors.New("the program state changed while it was being updated")

// Do applies op in its own transaction and returns the state as stored.
func (s *Service) Do(ctx context.Context, op Op) (State, error) {
	var st State
	err := s.db.Tx(ctx, func(tx *store.Tx) error {
		if err := op.apply(ctx, tx, s.db.Now().UTC()); err != nil {
			return err
		}
		s.changed(tx, op.member)
		var err error
		st, err = reload(ctx, tx, op.member)
		return err
	})
	if err != nil {
		return State{}, err
	}
	return s.fill(ctx, st)
}

// DoTx applies op inside tx, the caller's transaction.
func (s *Service) DoTx(ctx context.Context, tx *store.Tx, op Op) error {
	if err := op.apply(ctx, tx, s.db.Now().UTC()); err != nil {
		return err
	}
	s.changed(tx, op.member)
	return nil
}

// errRollback ends Check's transaction after a successful try.
var errRollback = errors.New("program: check only")

// Check tries op and rolls it back: nil when it would apply now, else the
// reason it would not (an apperr for the member to read).
func (s *Service) Check(ctx context.Context, op Op) error {
	err := s.db.Tx(ctx, func(tx *store.Tx) error {
		if err := op.apply(ctx, tx, s.db.Now().UTC()); err != nil {
			return err
		}
		return errRollback
	})
	if errors.Is(err, errRollback) {
		return nil
	}
	return err
}

// change is an op on the member's current state: fn validates the state and
// applies one Tx function of this package, guarded by what it read.
func (s *Service) change(member string, fn func(ctx context.Context, tx *store.Tx, st State, prog content.Program, now time.Time) (bool, error)) Op {
	return Op{member: member, apply: func(ctx context.Context, tx *store.Tx, now time.Time) error {
		cur, found, err := latest(ctx, tx, member)
		if err != nil {
			return err
		}
		if !found || cur.Status == Abandoned {
			return apperr.NotFoundf("%s has no current program", member)
		}
		prog, err := s.cat.Program(ctx, cur.ProgramID)
		if err != nil {
			return fmt.Errorf("program: %s: %w", cur.ProgramID, err)
		}
		applied, err := fn(ctx, tx, cur, prog, now)
		if err != nil {
			return err
		}
		if !applied { // fn read the state in this transaction: a bug
			return fmt.Errorf("program: state %d of %s: %w", cur.ID, member, errNotApplied)
		}
		return nil
	}}
}

// DeclareOp starts programID for member on startDate (YYYY-MM-DD, may be in
// the future) training on pattern (see ParsePattern); a current program is
// abandoned and replaced, the same program, start and pattern again change
// nothing. An unknown member is NotFound; an unknown program, bad date or
// pattern Invalid.
func (s *Service) DeclareOp(ctx context.Context, member, programID, startDate, pattern string) (Op, error) {
	if _, err := s.db.Member(ctx, member); err != nil {
		return Op{}, err
	}
	prog, err := s.cat.Program(ctx, programID)
	if apperr.Is(err, apperr.NotFound) {
		return Op{}, apperr.Invalidf("there is no program %q in the catalog", programID)
	}
	if err != nil {
		return Op{}, fmt.Errorf("program: declare %s: %w", programID, err)
	}
	pat, err := ParsePattern(pattern)
	if err != nil {
		return Op{}, err
	}
	start, err := parseDate(startDate)
	if err != nil {
		return Op{}, err
	}
	if off := daysBetween(s.today(), start); off > maxStartOffset || off < -maxStartOffset {
		return Op{}, apperr.Invalidf("start date %s is more than a year away from today", start.Format(time.DateOnly))
	}
	first := nextTrainingDay(prog, 1)
	if first == 0 {
		return Op{}, apperr.Invalidf("program %q has no training days", programID)
	}
	d := Declaration{ProgramID: prog.ID, Title: prog.Title, StartDate: start.Format(time.DateOnly),
		Pattern: pat.String(), FirstDay: first}
	return Op{member: member, apply: func(ctx context.Context, tx *store.Tx, now time.Time) error {
		_, _, err := DeclareTx(ctx, tx, now, member, d)
		return err
	}}, nil
}

// AdvanceOp marks the current day done and moves to the next training day,
// passing program rest days; finishing the last training day completes the
// program. Only an active program advances.
func (s *Service) AdvanceOp(member string) Op {
	return s.change(member, func(ctx context.Context, tx *store.Tx, st State, prog content.Program, now time.Time) (bool, error) {
		if err := requireStatus(&st, prog, "advance", Active); err != nil {
			return false, err
		}
		next := nextTrainingDay(prog, st.CurrentDay+1)
		if next == 0 {
			last := min(max(st.CurrentDay, 1), max(len(prog.Days), 1))
			return FinishTx(ctx, tx, now, st.ID, st.CurrentDay, last)
		}
		return AdvanceTx(ctx, tx, now, st.ID, st.CurrentDay, next)
	})
}

// SetDayOp moves the member to program day (the next one to do, today),
// re-anchoring the schedule so day is due today. A rest day moves on to the
// following training day.
func (s *Service) SetDayOp(member string, day int) Op {
	return s.change(member, func(ctx context.Context, tx *store.Tx, st State, prog content.Program, now time.Time) (bool, error) {
		if err := requireStatus(&st, prog, "set the day", Active, Paused); err != nil {
			return false, err
		}
		if day < 1 || day > len(prog.Days) {
			return false, apperr.Invalidf("%s has days 1 to %d, not %d", prog.Title, len(prog.Days), day)
		}
		next := nextTrainingDay(prog, day)
		if next == 0 {
			return false, apperr.Invalidf("%s has only rest days from day %d on; complete the program instead", prog.Title, day)
		}
		return SetDayTx(ctx, tx, now, st.ID, st.CurrentDay, next, s.today().Format(time.DateOnly))
	})
}

// SetPatternOp changes the weekdays the member trains on (see
// ParsePattern) from today: the schedule is re-anchored so the current day
// is due today (or on the start date while that is still ahead).
func (s *Service) SetPatternOp(member, pattern string) (Op, error) {
	pat, err := ParsePattern(pattern)
	if err != nil {
		return Op{}, err
	}
	return s.change(member, func(ctx context.Context, tx *store.Tx, st State, prog content.Program, now time.Time) (bool, error) {
		if err := requireStatus(&st, prog, "change the pattern", Active, Paused); err != nil {
			return false, err
		}
		anchor := s.today()
		if start, err := parseDate(st.StartDate); err == nil && anchor.Before(start) {
			anchor = start
		}
		return SetPatternTx(ctx, tx, now, st.ID, st.CurrentDay, pat.String(), anchor.Format(time.DateOnly))
	}), nil
}

// PauseOp pauses an active program, keeping its position; note says why.
func (s *Service) PauseOp(member, note string) Op {
	return s.change(member, func(ctx context.Context, tx *store.Tx, st State, prog content.Program, now time.Time) (bool, error) {
		if err := requireStatus(&st, prog, "pause", Active); err != nil {
			return false, err
		}
		return PauseTx(ctx, tx, now, st.ID, note)
	})
}

// ResumeOp re-activates a paused program where it stopped: the schedule is
// re-anchored so the current day is due today (or on the start date if that
// is still ahead), and the pause does not count as falling behind.
func (s *Service) ResumeOp(member string) Op {
	return s.change(member, func(ctx context.Context, tx *store.Tx, st State, prog content.Program, now time.Time) (bool, error) {
		if st.Status != Paused {
			return false, apperr.Invalidf("cannot resume: %s is %s, not paused", prog.Title, st.Status)
		}
		anchorDate, anchorDay := st.AnchorDate, st.AnchorDay
		today := s.today()
		if anchor, err := parseDate(st.AnchorDate); err != nil || !today.Before(anchor) {
			anchorDate, anchorDay = today.Format(time.DateOnly), st.CurrentDay
		}
		return ResumeTx(ctx, tx, now, st.ID, anchorDate, anchorDay)
	})
}

// CompleteOp marks an active or paused program completed.
func (s *Service) CompleteOp(member string) Op {
	return s.change(member, func(ctx context.Context, tx *store.Tx, st State, prog content.Program, now time.Time) (bool, error) {
		if err := requireStatus(&st, prog, "complete", Active, Paused); err != nil {
			return false, err
		}
		return endTx(ctx, tx, now, st.ID, Completed, "")
	})
}

// AbandonOp stops an active or paused program; the member then has no
// current program (it stays in History). note says why.
func (s *Service) AbandonOp(member, note string) Op {
	return s.change(member, func(ctx context.Context, tx *store.Tx, st State, prog content.Program, now time.Time) (bool, error) {
		if err := requireStatus(&st, prog, "abandon", Active, Paused); err != nil {
			return false, err
		}
		return endTx(ctx, tx, now, st.ID, Abandoned, note)
	})
}

// SubstituteOp records that on program day the member did actual (a catalog id, which must exist, or a short
// description such as "30-min bike ride") instead of original. An empty
// original is filled from the program; a non-empty one must match it. It
// does not advance the program.
func (s *Service) SubstituteOp(ctx context.Context, member string, day int, original, actual, reason string) (Op, error) {
	actual, original, reason = strings.TrimSpace(actual), strings.TrimSpace(original), clip(reason, maxReason)
	switch {
	case actual == "":
		return Op{}, apperr.Invalidf("a substitution needs what was done instead")
	case len(actual) > maxActual:
		return Op{}, apperr.Invalidf("the substitute is longer than %d characters", maxActual)
	case looksLikeID(actual):
		if _, err := s.cat.Get(ctx, actual); err != nil {
			if apperr.Is(err, apperr.NotFound) {
				return Op{}, apperr.Invalidf("substitute %q is not in the catalog", actual)
			}
			return Op{}, err
		}
	}
	return s.change(member, func(ctx context.Context, tx *store.Tx, st State, prog content.Program, now time.Time) (bool, error) {
		if err := requireStatus(&st, prog, "record a substitution", Active, Paused); err != nil {
			return false, err
		}
		d := day
		if d < 1 || d > len(prog.Days) {
			return false, apperr.Invalidf("%s has days 1 to %d, not %d", prog.Title, len(prog.Days), d)
		}
		planned := prog.Days[d-1].ContentID
		orig := original
		switch {
		case orig == "":
			orig = planned
		case orig != planned:
			if planned == "" {
				return false, apperr.Invalidf("day %d of %s is a rest day, not %q", d, prog.Title, orig)
			}
			return false, apperr.Invalidf("day %d of %s is %q, not %q", d, prog.Title, planned, orig)
		}
		sub := Substitution{Day: d, Original: orig, Actual: actual, Reason: reason, At: now}
		return substituteTx(ctx, tx, now, st.ID, sub)
	}), nil
}

// Declare is Do(DeclareOp(…)).
func (s *Service) Declare(ctx context.Context, member, programID, startDate, pattern string) (State, error) {
	op, err := s.DeclareOp(ctx, member, programID, startDate, pattern)
	if err != nil {
		return State{}, err
	}
	return s.Do(ctx, op)
}

// Advance is Do(AdvanceOp(member)).
func (s *Service) Advance(ctx context.Context, member string) (State, error) {
	return s.Do(ctx, s.AdvanceOp(member))
}

// SetDay is Do(SetDayOp(member, day)).
func (s *Service) SetDay(ctx context.Context, member string, day int) (State, error) {
	return s.Do(ctx, s.SetDayOp(member, day))
}

// Pause is Do(PauseOp(member, note)).
func (s *Service) Pause(ctx context.Context, member, note string) (State, error) {
	return s.Do(ctx, s.PauseOp(member, note))
}

// Resume is Do(ResumeOp(member)).
func (s *Service) Resume(ctx context.Context, member string) (State, error) {
	return s.Do(ctx, s.ResumeOp(member))
}

// Complete is Do(CompleteOp(member)).
func (s *Service) Complete(ctx context.Context, member string) (State, error) {
	return s.Do(ctx, s.CompleteOp(member))
}

// Abandon is Do(AbandonOp(member, note)).
func (s *Service) Abandon(ctx context.Context, member, note string) (State, error) {
	return s.Do(ctx, s.AbandonOp(member, note))
}

// RecordSubstitution is Do(SubstituteOp(…)).
func (s *Service) RecordSubstitution(ctx context.Context, member string, day int, original, actual, reason string) (State, error) {
	op, err := s.SubstituteOp(ctx, member, day, original, actual, reason)
	if err != nil {
		return State{}, err
	}
	return s.Do(ctx, op)
}

func looksLikeID(s string) bool {
	return strings.HasPrefix(s, "local:") || strings.HasPrefix(s, "plex:")
}

// PaceOp sets how the member follows their program: PaceCalendar (each
// training weekday is the next day; missed days are behind) or PaceOwn
// (today is always the next undone day). Either way the schedule is
// re-anchored at today, so switching never leaves the member behind.
func (s *Service) PaceOp(member string, pace Pace) (Op, error) {
	if !pace.Valid() {
		return Op{}, apperr.Invalidf("pace must be %q or %q", PaceCalendar, PaceOwn)
	}
	return s.change(member, func(ctx context.Context, tx *store.Tx, st State, prog content.Program, now time.Time) (bool, error) {
		if err := requireStatus(&st, prog, "change the pace", Active, Paused); err != nil {
			return false, err
		}
		return PaceTx(ctx, tx, now, st.ID, pace, st.CurrentDay, s.anchorToday(st))
	}), nil
}

// anchorToday is today, or the start date while that is still ahead.
func (s *Service) anchorToday(st State) string {
	today := s.today()
	if start, err := parseDate(st.StartDate); err == nil && today.Before(start) {
		return st.StartDate
	}
	return today.Format(time.DateOnly)
}

// RestartOp starts the member's current program again from its first day,
// today, keeping its pattern and pace (the run so far stays in History).
func (s *Service) RestartOp(ctx context.Context, member string) (Op, error) {
	if _, err := s.db.Member(ctx, member); err != nil {
		return Op{}, err
	}
	return s.change(member, func(ctx context.Context, tx *store.Tx, st State, prog content.Program, now time.Time) (bool, error) {
		if err := requireStatus(&st, prog, "restart", Active, Paused, Completed); err != nil {
			return false, err
		}
		first := nextTrainingDay(prog, 1)
		if first == 0 {
			return false, apperr.Invalidf("program %q has no training days", prog.ID)
		}
		today := s.today().Format(time.DateOnly)
		id, applied, err := DeclareTx(ctx, tx, now, member, Declaration{ProgramID: prog.ID, Title: prog.Title,
			StartDate: today, Pattern: st.Pattern, FirstDay: first})
		if err != nil {
			return false, err
		}
		if !applied { // already started today: back to its first day
			if st.Status == Paused {
				if _, err := ResumeTx(ctx, tx, now, id, today, st.CurrentDay); err != nil {
					return false, err
				}
			}
			return SetDayTx(ctx, tx, now, id, st.CurrentDay, first, today)
		}
		if st.Pace == PaceOwn {
			return PaceTx(ctx, tx, now, id, PaceOwn, first, today)
		}
		return true, nil
	}), nil
}
