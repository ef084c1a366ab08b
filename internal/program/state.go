package program

import (
	"context"
	"fmt"
	"strings"
	"time"

	"hearth/internal/apperr"
	"hearth/internal/content"
	"hearth/internal/store"
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
	d := Declaration{ProgramID: prog.ID, Title: prog.Title, StartDate: start.Format(time.DateOnly),
		Pattern: pat.String(), FirstDay: first}
	var st State
	err = s.db.Tx(ctx, func(tx *store.Tx) error {
		if _, _, err := DeclareTx(ctx, tx, now, member, d); err != nil {
			return err
		}
		st, err = reload(ctx, tx, member)
		return err
	})
	if err != nil {
		return State{}, err
	}
	return s.fill(ctx, st)
}

// change loads the member's current state in a write transaction and lets
// fn validate and apply one change to it (a Tx function of this package),
// then returns the state as stored. fn reads the state in the same
// transaction as it writes, so its guard always matches; applied=false
// would be a bug and is an error.
func (s *Service) change(ctx context.Context, member string, fn func(tx *store.Tx, st State, prog content.Program, now time.Time) (bool, error)) (State, error) {
	var st State
	err := s.db.Tx(ctx, func(tx *store.Tx) error {
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
		applied, err := fn(tx, cur, prog, s.db.Now().UTC())
		if err != nil {
			return err
		}
		if !applied {
			return fmt.Errorf("program: state %d of %s changed while it was being updated", cur.ID, member)
		}
		st, err = reload(ctx, tx, member)
		return err
	})
	if err != nil {
		return State{}, err
	}
	return s.fill(ctx, st)
}

// reload reads back the member's state a change just wrote (the latest).
func reload(ctx context.Context, tx *store.Tx, member string) (State, error) {
	st, found, err := latest(ctx, tx, member)
	if err == nil && !found {
		err = fmt.Errorf("program: state of %s vanished while it was being updated", member)
	}
	return st, err
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
