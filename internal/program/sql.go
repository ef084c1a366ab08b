package program

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"hearth/internal/store"
)

const stateCols = `id, member_id, program_id, status, start_date, anchor_date, anchor_day, current_day, pattern,
	note, paused_at, ended_at, created_at, updated_at, pace, day_since`

func scanState(row store.Scanner) (State, error) {
	var (
		st              State
		status, pace    string
		paused, ended   sql.NullString
		created, update string
		since           string
	)
	if err := row.Scan(&st.ID, &st.MemberID, &st.ProgramID, &status, &st.StartDate, &st.AnchorDate, &st.AnchorDay,
		&st.CurrentDay, &st.Pattern, &st.Note, &paused, &ended, &created, &update, &pace, &since); err != nil {
		return st, err
	}
	st.Status, st.Pace = Status(status), Pace(pace)
	var err error
	if st.PausedAt, err = store.ParseNullTime(paused); err != nil {
		return st, err
	}
	if st.EndedAt, err = store.ParseNullTime(ended); err != nil {
		return st, err
	}
	if st.CreatedAt, err = store.ParseTime(created); err != nil {
		return st, err
	}
	if st.UpdatedAt, err = store.ParseTime(update); err != nil {
		return st, err
	}
	st.DaySince = st.UpdatedAt // a row written before day_since existed
	if since != "" {
		st.DaySince, err = store.ParseTime(since)
	}
	return st, err
}

// latest returns the member's most recent state row; found is false if none.
func latest(ctx context.Context, q store.Queryer, member string) (st State, found bool, err error) {
	st, err = scanState(q.QueryRowContext(ctx, `SELECT `+stateCols+` FROM program_states
		WHERE member_id = ? ORDER BY id DESC LIMIT 1`, member))
	if errors.Is(err, sql.ErrNoRows) {
		return st, false, nil
	}
	if err != nil {
		return st, false, fmt.Errorf("program: state of %s: %w", member, err)
	}
	if st.Substitutions, err = substitutions(ctx, q, st.ID); err != nil {
		return st, false, err
	}
	return st, true, nil
}

func history(ctx context.Context, q store.Queryer, member string) ([]State, error) {
	out, err := store.All(ctx, q, scanState, `SELECT `+stateCols+` FROM program_states WHERE member_id = ? ORDER BY id DESC`, member)
	if err != nil {
		return nil, fmt.Errorf("program: history of %s: %w", member, err)
	}
	for i := range out {
		if out[i].Substitutions, err = substitutions(ctx, q, out[i].ID); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func substitutions(ctx context.Context, q store.Queryer, stateID int64) ([]Substitution, error) {
	out, err := store.All(ctx, q, func(row store.Scanner) (Substitution, error) {
		var sub Substitution
		var at string
		if err := row.Scan(&sub.Day, &sub.Original, &sub.Actual, &sub.Reason, &at); err != nil {
			return sub, err
		}
		var err error
		sub.At, err = store.ParseTime(at)
		return sub, err
	}, `SELECT day, original, actual, reason, at FROM program_substitutions WHERE state_id = ? ORDER BY id`, stateID)
	if err != nil {
		return nil, fmt.Errorf("program: substitutions: %w", err)
	}
	return out, nil
}
