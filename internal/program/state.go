package program

import (
	"context"
	"fmt"
	"strings"

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
