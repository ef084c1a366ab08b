package program

import (
	"context"
	"strings"
	"time"

	"hearth/internal/apperr"
	"hearth/internal/content"
	"hearth/internal/store"
)

// Advance marks the current day done and moves to the next training day,
// passing program rest days; finishing the last training day completes the
// program. Only an active program advances.
func (s *Service) Advance(ctx context.Context, member string) (State, error) {
	return s.change(ctx, member, func(tx *store.Tx, st State, prog content.Program, now time.Time) (bool, error) {
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

// SetDay moves the member to program day (the next one to do, today),
// re-anchoring the schedule so day is due today. A rest day moves on to the
// following training day.
func (s *Service) SetDay(ctx context.Context, member string, day int) (State, error) {
	return s.change(ctx, member, func(tx *store.Tx, st State, prog content.Program, now time.Time) (bool, error) {
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

// Pause pauses an active program, keeping its position; note says why.
func (s *Service) Pause(ctx context.Context, member, note string) (State, error) {
	return s.change(ctx, member, func(tx *store.Tx, st State, prog content.Program, now time.Time) (bool, error) {
		if err := requireStatus(&st, prog, "pause", Active); err != nil {
			return false, err
		}
		return PauseTx(ctx, tx, now, st.ID, note)
	})
}

// Resume re-activates a paused program where it stopped: the schedule is
// re-anchored so the current day is due today (or on the start date if that
// is still ahead), and the pause does not count as falling behind.
func (s *Service) Resume(ctx context.Context, member string) (State, error) {
	return s.change(ctx, member, func(tx *store.Tx, st State, prog content.Program, now time.Time) (bool, error) {
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

// Complete marks an active or paused program completed.
func (s *Service) Complete(ctx context.Context, member string) (State, error) {
	return s.change(ctx, member, func(tx *store.Tx, st State, prog content.Program, now time.Time) (bool, error) {
		if err := requireStatus(&st, prog, "complete", Active, Paused); err != nil {
			return false, err
		}
		return endTx(ctx, tx, now, st.ID, Completed, "")
	})
}

// Abandon stops an active or paused program; the member then has no current
// program (it stays in History). note says why.
func (s *Service) Abandon(ctx context.Context, member, note string) (State, error) {
	return s.change(ctx, member, func(tx *store.Tx, st State, prog content.Program, now time.Time) (bool, error) {
		if err := requireStatus(&st, prog, "abandon", Active, Paused); err != nil {
			return false, err
		}
		return endTx(ctx, tx, now, st.ID, Abandoned, note)
	})
}

// RecordSubstitution records that on program day the member did actual (a
// catalog id, which must exist, or a short description such as "30-min bike
// ride") instead of original. An empty original is filled from the program;
// a non-empty one must match it. It does not advance the program.
func (s *Service) RecordSubstitution(ctx context.Context, member string, day int, original, actual, reason string) (State, error) {
	actual, original, reason = strings.TrimSpace(actual), strings.TrimSpace(original), clip(reason, maxReason)
	switch {
	case actual == "":
		return State{}, apperr.Invalidf("a substitution needs what was done instead")
	case len(actual) > maxActual:
		return State{}, apperr.Invalidf("the substitute is longer than %d characters", maxActual)
	case looksLikeID(actual):
		if _, err := s.cat.Get(ctx, actual); err != nil {
			if apperr.Is(err, apperr.NotFound) {
				return State{}, apperr.Invalidf("substitute %q is not in the catalog", actual)
			}
			return State{}, err
		}
	}
	return s.change(ctx, member, func(tx *store.Tx, st State, prog content.Program, now time.Time) (bool, error) {
		if err := requireStatus(&st, prog, "record a substitution", Active, Paused); err != nil {
			return false, err
		}
		if day < 1 || day > len(prog.Days) {
			return false, apperr.Invalidf("%s has days 1 to %d, not %d", prog.Title, len(prog.Days), day)
		}
		planned := prog.Days[day-1].ContentID
		switch {
		case original == "":
			original = planned
		case original != planned:
			if planned == "" {
				return false, apperr.Invalidf("day %d of %s is a rest day, not %q", day, prog.Title, original)
			}
			return false, apperr.Invalidf("day %d of %s is %q, not %q", day, prog.Title, planned, original)
		}
		sub := Substitution{Day: day, Original: original, Actual: actual, Reason: reason, At: now}
		return substituteTx(ctx, tx, now, st.ID, sub)
	})
}

func looksLikeID(s string) bool {
	return strings.HasPrefix(s, "local:") || strings.HasPrefix(s, "plex:")
}
