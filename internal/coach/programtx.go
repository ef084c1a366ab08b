package coach

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"hearth/internal/store"
)

// Program changes made by a daily-dashboard run are written inside the
// run's transaction, next to the document and the memory they go with:
// program.Service writes through the database's single writer connection,
// which the run's transaction holds, so calling it from act would wait on
// itself. These helpers are the same changes as program.Service's Declare,
// Advance, Pause, Resume and SetDay, as SQL on program_states, each
// guarded by the state the run saw; a state changed since (an admin edit
// in between) is left alone and reported as not applied.

// declareTx starts programID for member (the current active or paused
// program is abandoned). Declaring what is already current changes nothing.
func declareTx(ctx context.Context, tx *sql.Tx, now time.Time, member string, u Update) (int64, bool, error) {
	var (
		id                   int64
		prog, start, pattern string
	)
	err := tx.QueryRowContext(ctx, `SELECT id, program_id, start_date, pattern FROM program_states
		WHERE member_id = ? AND status IN ('active','paused') ORDER BY id DESC LIMIT 1`, member).Scan(&id, &prog, &start, &pattern)
	found := err == nil
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return 0, false, fmt.Errorf("coach: current program: %w", err)
	}
	if found && prog == u.ProgramID && start == u.StartDate && pattern == u.Pattern {
		return id, false, nil
	}
	ts := store.FormatTime(now)
	if found {
		if _, err := tx.ExecContext(ctx, `UPDATE program_states SET status = 'abandoned', ended_at = ?, updated_at = ?,
			note = ? WHERE id = ?`, ts, ts, clipText("replaced by "+u.Title, 500), id); err != nil {
			return 0, false, fmt.Errorf("coach: abandon program: %w", err)
		}
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO program_states (member_id, program_id, status, start_date, anchor_date,
		anchor_day, current_day, pattern, note, created_at, updated_at) VALUES (?,?,'active',?,?,1,?,?,'',?,?)`,
		member, u.ProgramID, u.StartDate, u.StartDate, u.Day, u.Pattern, ts, ts)
	if err != nil {
		return 0, false, fmt.Errorf("coach: declare program: %w", err)
	}
	id, err = res.LastInsertId()
	return id, true, err
}

// stateTx runs a guarded UPDATE of one program state; applied is false when
// no row matched the guard.
func stateTx(ctx context.Context, tx *sql.Tx, what, query string, args ...any) (bool, error) {
	res, err := tx.ExecContext(ctx, query, args...)
	if err != nil {
		return false, fmt.Errorf("coach: %s: %w", what, err)
	}
	n, err := res.RowsAffected()
	return n > 0, err
}

// advanceTx moves an active program from fromDay to day, or completes it.
func advanceTx(ctx context.Context, tx *sql.Tx, now time.Time, stateID int64, fromDay, day int, complete bool) (bool, error) {
	ts := store.FormatTime(now)
	if complete {
		return stateTx(ctx, tx, "complete program", `UPDATE program_states SET status = 'completed', current_day = ?,
			ended_at = ?, updated_at = ? WHERE id = ? AND status = 'active' AND current_day = ?`, day, ts, ts, stateID, fromDay)
	}
	return stateTx(ctx, tx, "advance program", `UPDATE program_states SET current_day = ?, updated_at = ?
		WHERE id = ? AND status = 'active' AND current_day = ?`, day, ts, stateID, fromDay)
}

// pauseTx pauses an active program.
func pauseTx(ctx context.Context, tx *sql.Tx, now time.Time, stateID int64, note string) (bool, error) {
	ts := store.FormatTime(now)
	return stateTx(ctx, tx, "pause program", `UPDATE program_states SET status = 'paused', paused_at = ?, updated_at = ?,
		note = ? WHERE id = ? AND status = 'active'`, ts, ts, clipText(note, 500), stateID)
}

// resumeTx re-activates a paused program with the schedule anchored so day
// is due on anchor.
func resumeTx(ctx context.Context, tx *sql.Tx, now time.Time, stateID int64, anchor string, day int) (bool, error) {
	return stateTx(ctx, tx, "resume program", `UPDATE program_states SET status = 'active', paused_at = NULL,
		anchor_date = ?, anchor_day = ?, updated_at = ? WHERE id = ? AND status = 'paused'`, anchor, day, store.FormatTime(now), stateID)
}

// setDayTx moves the position to day, due on anchor.
func setDayTx(ctx context.Context, tx *sql.Tx, now time.Time, stateID int64, fromDay, day int, anchor string) (bool, error) {
	return stateTx(ctx, tx, "set program day", `UPDATE program_states SET current_day = ?, anchor_date = ?, anchor_day = ?,
		updated_at = ? WHERE id = ? AND status IN ('active','paused') AND current_day = ?`,
		day, anchor, day, store.FormatTime(now), stateID, fromDay)
}
