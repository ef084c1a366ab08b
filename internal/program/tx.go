package program

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"hearth/internal/store"
)

// Transaction-level changes of program state. Each is one rule, written
// once: Service's operations call them after validating, and so does a
// caller that must write inside a transaction it already holds (the
// coach's daily-dashboard run writes its program changes in the run's
// transaction; the database has one writer connection, which that
// transaction holds, so calling Service from there would wait on itself).
//
// The functions assume validated input, as Service validates it: a program
// that exists, canonical dates and patterns, days within the program. Each
// is guarded by the state its caller decided on (the state's id, status
// and, where it moves, the current day): when the row no longer matches,
// because the state changed since it was read, nothing is written and
// applied is false. That is not an error.

// Declaration is a program to start, already validated.
type Declaration struct {
	ProgramID string
	// Title is the program's title, for the note on the state it replaces.
	Title string
	// StartDate is YYYY-MM-DD (household calendar); the schedule is
	// anchored there with day 1.
	StartDate string
	// Pattern is canonical (Pattern.String()), so that declaring the same
	// program again compares equal.
	Pattern string
	// FirstDay is the program's first training day (>= 1), the position
	// the member starts at.
	FirstDay int
	// AnchorDay is the day due on StartDate (0: day 1). A member who did
	// the first sessions before declaring starts further on, on time.
	AnchorDay int
}

// DeclareTx starts d for member in tx: the member's active or paused
// program, if any, is abandoned with the note "replaced by <title>" and a
// new active state is inserted. Declaring what is already current (same
// program, start date and pattern) writes nothing: applied is false and id
// is the existing state's. Otherwise id is the new state's.
func DeclareTx(ctx context.Context, tx *store.Tx, now time.Time, member string, d Declaration) (id int64, applied bool, err error) {
	var prog, start, pattern string
	err = tx.QueryRowContext(ctx, `SELECT id, program_id, start_date, pattern FROM program_states
		WHERE member_id = ? AND status IN ('active','paused') ORDER BY id DESC LIMIT 1`, member).Scan(&id, &prog, &start, &pattern)
	found := err == nil
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return 0, false, fmt.Errorf("program: current state of %s: %w", member, err)
	}
	if found && prog == d.ProgramID && start == d.StartDate && pattern == d.Pattern {
		return id, false, nil
	}
	ts := store.FormatTime(now)
	if found {
		if _, err := tx.ExecContext(ctx, `UPDATE program_states SET status = 'abandoned', ended_at = ?, updated_at = ?,
			note = ? WHERE id = ?`, ts, ts, clip("replaced by "+d.Title, maxNote), id); err != nil {
			return 0, false, fmt.Errorf("program: abandon state %d: %w", id, err)
		}
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO program_states (member_id, program_id, status, start_date, anchor_date,
		anchor_day, current_day, pattern, note, created_at, updated_at, day_since) VALUES (?,?,'active',?,?,?,?,?,'',?,?,?)`,
		member, d.ProgramID, d.StartDate, d.StartDate, max(d.AnchorDay, 1), d.FirstDay, d.Pattern, ts, ts, ts)
	if err != nil {
		return 0, false, fmt.Errorf("program: declare %s for %s: %w", d.ProgramID, member, err)
	}
	if id, err = res.LastInsertId(); err != nil {
		return 0, false, fmt.Errorf("program: declare %s for %s: %w", d.ProgramID, member, err)
	}
	return id, true, nil
}

// AdvanceTx moves an active state from fromDay to day, the next training
// day to do (several sessions may be passed at once). Guard: active, at
// fromDay.
func AdvanceTx(ctx context.Context, tx *store.Tx, now time.Time, stateID int64, fromDay, day int) (bool, error) {
	ts := store.FormatTime(now)
	return guarded(ctx, tx, "advance", stateID, `UPDATE program_states SET current_day = ?, updated_at = ?, day_since = ?
		WHERE id = ? AND status = 'active' AND current_day = ?`, day, ts, ts, stateID, fromDay)
}

// FinishTx completes an active state whose last training day was done:
// it is left at day (the last day reached) and ended now. Guard: active,
// at fromDay. (Completing by hand, from active or paused, is
// Service.Complete.)
func FinishTx(ctx context.Context, tx *store.Tx, now time.Time, stateID int64, fromDay, day int) (bool, error) {
	ts := store.FormatTime(now)
	return guarded(ctx, tx, "finish", stateID, `UPDATE program_states SET status = 'completed', current_day = ?,
		ended_at = ?, updated_at = ?, day_since = ? WHERE id = ? AND status = 'active' AND current_day = ?`, day, ts, ts, ts, stateID, fromDay)
}

// PauseTx pauses an active state, keeping its position. A non-empty note
// (clipped to 500 bytes) replaces the state's note. Guard: active.
func PauseTx(ctx context.Context, tx *store.Tx, now time.Time, stateID int64, note string) (bool, error) {
	ts := store.FormatTime(now)
	note = clip(note, maxNote)
	return guarded(ctx, tx, "pause", stateID, `UPDATE program_states SET status = 'paused', paused_at = ?, updated_at = ?,
		note = CASE WHEN ? = '' THEN note ELSE ? END WHERE id = ? AND status = 'active'`, ts, ts, note, note, stateID)
}

// ResumeTx re-activates a paused state with the schedule anchored so that
// anchorDay is due on anchor (YYYY-MM-DD); the caller decides the anchor
// (Service.Resume: the current day today, unless the start is still
// ahead). Guard: paused.
func ResumeTx(ctx context.Context, tx *store.Tx, now time.Time, stateID int64, anchor string, anchorDay int) (bool, error) {
	return guarded(ctx, tx, "resume", stateID, `UPDATE program_states SET status = 'active', paused_at = NULL,
		anchor_date = ?, anchor_day = ?, updated_at = ? WHERE id = ? AND status = 'paused'`,
		anchor, anchorDay, store.FormatTime(now), stateID)
}

// SetDayTx moves an active or paused state from fromDay to day (a training
// day), re-anchoring the schedule so day is due on anchor (YYYY-MM-DD); a
// move to another day starts it now (DaySince). Guard: active or paused,
// at fromDay.
func SetDayTx(ctx context.Context, tx *store.Tx, now time.Time, stateID int64, fromDay, day int, anchor string) (bool, error) {
	ts := store.FormatTime(now)
	return guarded(ctx, tx, "set the day of", stateID, `UPDATE program_states SET current_day = ?, anchor_date = ?,
		anchor_day = ?, updated_at = ?, day_since = CASE WHEN ? THEN ? ELSE day_since END
		WHERE id = ? AND status IN ('active','paused') AND current_day = ?`,
		day, anchor, day, ts, day != fromDay, ts, stateID, fromDay)
}

// endTx ends an active or paused state as status (Completed or Abandoned),
// clearing paused_at; a non-empty note (clipped) replaces the state's note.
// Guard: active or paused.
func endTx(ctx context.Context, tx *store.Tx, now time.Time, stateID int64, status Status, note string) (bool, error) {
	ts := store.FormatTime(now)
	note = clip(note, maxNote)
	return guarded(ctx, tx, "end", stateID, `UPDATE program_states SET status = ?, ended_at = ?, paused_at = NULL,
		updated_at = ?, note = CASE WHEN ? = '' THEN note ELSE ? END WHERE id = ? AND status IN ('active','paused')`,
		string(status), ts, ts, note, note, stateID)
}

// substituteTx records sub on an active or paused state and marks the state
// changed. Guard: active or paused.
func substituteTx(ctx context.Context, tx *store.Tx, now time.Time, stateID int64, sub Substitution) (bool, error) {
	applied, err := guarded(ctx, tx, "touch", stateID, `UPDATE program_states SET updated_at = ?
		WHERE id = ? AND status IN ('active','paused')`, store.FormatTime(now), stateID)
	if err != nil || !applied {
		return applied, err
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO program_substitutions (state_id, day, original, actual, reason, at)
		VALUES (?,?,?,?,?,?)`, stateID, sub.Day, sub.Original, sub.Actual, sub.Reason, store.FormatTime(sub.At))
	if err != nil {
		return false, fmt.Errorf("program: record substitution on state %d: %w", stateID, err)
	}
	return true, nil
}

// guarded runs one UPDATE of state stateID; applied is false when no row
// matched its guard.
func guarded(ctx context.Context, tx *store.Tx, what string, stateID int64, query string, args ...any) (bool, error) {
	res, err := tx.ExecContext(ctx, query, args...)
	if err != nil {
		return false, fmt.Errorf("program: %s state %d: %w", what, stateID, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("program: %s state %d: %w", what, stateID, err)
	}
	return n > 0, nil
}

// SetPatternTx changes the weekly training pattern of an active or paused
// state, re-anchoring the schedule so its current day is due on anchor
// (YYYY-MM-DD): the new pattern counts from then on, and days missed
// under the old one are not re-counted as behind. Guard: active or
// paused, at day.
func SetPatternTx(ctx context.Context, tx *store.Tx, now time.Time, stateID int64, day int, pattern, anchor string) (bool, error) {
	return guarded(ctx, tx, "change the pattern of", stateID, `UPDATE program_states SET pattern = ?, anchor_date = ?,
		anchor_day = ?, updated_at = ? WHERE id = ? AND status IN ('active','paused') AND current_day = ?`,
		pattern, anchor, day, store.FormatTime(now), stateID, day)
}

// PaceTx sets how an active or paused state is followed, re-anchoring the
// schedule so that day is due on anchor (YYYY-MM-DD): going back to the
// calendar does not count the own-pace days as missed. Guard: active or
// paused, at day.
func PaceTx(ctx context.Context, tx *store.Tx, now time.Time, stateID int64, pace Pace, day int, anchor string) (bool, error) {
	return guarded(ctx, tx, "set the pace of", stateID, `UPDATE program_states SET pace = ?, anchor_date = ?, anchor_day = ?,
		updated_at = ? WHERE id = ? AND status IN ('active','paused') AND current_day = ?`,
		string(pace), anchor, day, store.FormatTime(now), stateID, day)
}
