package program

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"hearth/internal/apperr"
	"hearth/internal/content"
)

const (
	maxNote   = 500
	maxReason = 200
	maxActual = 200
	// maxStartOffset bounds how far a declared start date may lie from today.
	maxStartOffset = 366
)

// Current returns the member's current program state: active, paused, or
// completed (until another program is declared). With no program, or when
// the last one was abandoned, it returns an apperr.NotFound error.
func (s *Service) Current(ctx context.Context, member string) (State, error) {
	st, found, err := latest(ctx, s.db.Read, member)
	if err != nil {
		return State{}, err
	}
	if !found || st.Status == Abandoned {
		return State{}, apperr.NotFoundf("%s has no current program", member)
	}
	return s.fill(ctx, st)
}

// History returns all of the member's programs, newest first.
func (s *Service) History(ctx context.Context, member string) ([]State, error) {
	states, err := history(ctx, s.db.Read, member)
	if err != nil {
		return nil, err
	}
	for i := range states {
		if states[i], err = s.fill(ctx, states[i]); err != nil {
			return nil, err
		}
	}
	return states, nil
}

// fill adds the derived fields: program title, total days, rest weekdays, starts-in.
func (s *Service) fill(ctx context.Context, st State) (State, error) {
	st.ProgramTitle = st.ProgramID
	prog, err := s.cat.Program(ctx, st.ProgramID)
	switch {
	case err == nil:
		st.ProgramTitle, st.TotalDays = prog.Title, len(prog.Days)
	case !apperr.Is(err, apperr.NotFound):
		return st, fmt.Errorf("program: %s: %w", st.ProgramID, err)
	}
	if pat, err := ParsePattern(st.Pattern); err == nil {
		st.RestWeekdays = pat.RestWeekdays()
	}
	if start, err := parseDate(st.StartDate); err == nil && st.Status == Active {
		st.StartsInDays = max(0, daysBetween(s.today(), start))
	}
	return st, nil
}

// Declare starts programID for member on startDate (YYYY-MM-DD, may be in
// the future: "starting X on Monday") training on pattern (see ParsePattern).
// A current program is abandoned and replaced; declaring the same program,
// start and pattern again returns the existing state unchanged. An unknown
// program or bad date or pattern is an apperr.Invalid error.
func (s *Service) Declare(ctx context.Context, member, programID, startDate, pattern string) (State, error) {
	if _, err := s.db.Member(ctx, member); err != nil {
		return State{}, err
	}
	prog, err := s.cat.Program(ctx, programID)
	if apperr.Is(err, apperr.NotFound) {
		return State{}, apperr.Invalidf("there is no program %q in the catalog", programID)
	}
	if err != nil {
		return State{}, fmt.Errorf("program: declare %s: %w", programID, err)
	}
	pat, err := ParsePattern(pattern)
	if err != nil {
		return State{}, err
	}
	start, err := parseDate(startDate)
	if err != nil {
		return State{}, err
	}
	if off := daysBetween(s.today(), start); off > maxStartOffset || off < -maxStartOffset {
		return State{}, apperr.Invalidf("start date %s is more than a year away from today", start.Format(time.DateOnly))
	}
	first := nextTrainingDay(prog, 1)
	if first == 0 {
		return State{}, apperr.Invalidf("program %q has no training days", programID)
	}
	now := s.db.Now().UTC()
	st := State{MemberID: member, ProgramID: prog.ID, Status: Active, StartDate: start.Format(time.DateOnly),
		AnchorDate: start.Format(time.DateOnly), AnchorDay: 1, CurrentDay: first, Pattern: pat.String(),
		CreatedAt: now, UpdatedAt: now}
	err = s.db.Tx(ctx, func(tx *sql.Tx) error {
		old, found, err := latest(ctx, tx, member)
		if err != nil {
			return err
		}
		if found && (old.Status == Active || old.Status == Paused) {
			if old.ProgramID == st.ProgramID && old.StartDate == st.StartDate && old.Pattern == st.Pattern {
				st = old
				return nil
			}
			old.Status, old.EndedAt, old.UpdatedAt = Abandoned, &now, now
			old.Note = clip("replaced by "+prog.Title, maxNote)
			if err := updateState(ctx, tx, old); err != nil {
				return err
			}
		}
		return insertState(ctx, tx, &st)
	})
	if err != nil {
		return State{}, err
	}
	return s.fill(ctx, st)
}

// change loads the member's current state in a write transaction, lets fn
// modify it (fn sees the program), stamps updated_at and saves it.
func (s *Service) change(ctx context.Context, member string, fn func(tx *sql.Tx, st *State, prog content.Program, now time.Time) error) (State, error) {
	var st State
	err := s.db.Tx(ctx, func(tx *sql.Tx) error {
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
		now := s.db.Now().UTC()
		if err := fn(tx, &cur, prog, now); err != nil {
			return err
		}
		cur.UpdatedAt = now
		st = cur
		return updateState(ctx, tx, cur)
	})
	if err != nil {
		return State{}, err
	}
	return s.fill(ctx, st)
}

func requireStatus(st *State, prog content.Program, action string, allowed ...Status) error {
	for _, a := range allowed {
		if st.Status == a {
			return nil
		}
	}
	switch st.Status {
	case Completed:
		return apperr.Invalidf("cannot %s: %s is already completed; declare a new program", action, prog.Title)
	case Paused:
		return apperr.Invalidf("cannot %s: %s is paused; resume it first", action, prog.Title)
	}
	return apperr.Invalidf("cannot %s: %s is %s", action, prog.Title, st.Status)
}

func clip(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) > n {
		s = strings.ToValidUTF8(s[:n], "")
	}
	return s
}
