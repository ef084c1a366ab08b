package schedule

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"hearth/internal/apperr"
	"hearth/internal/store"
)

const fireCols = `id, task_id, scheduled_for, via, outcome, reason, run_id, todo_id, attempts,
	started_at, finished_at, at, note`

func scanFire(row store.Scanner, loc *time.Location) (Fire, error) {
	var (
		f                 Fire
		slot, at, outcome string
		runID, todoID     sql.NullInt64
		started, finished sql.NullString
	)
	if err := row.Scan(&f.ID, &f.TaskID, &slot, &f.Via, &outcome, &f.Reason, &runID, &todoID, &f.Attempts,
		&started, &finished, &at, &f.Note); err != nil {
		return f, err
	}
	f.Outcome, f.RunID, f.TodoID = Outcome(outcome), runID.Int64, todoID.Int64
	var err error
	if f.ScheduledFor, err = store.ParseTime(slot); err != nil {
		return f, err
	}
	if f.At, err = store.ParseTime(at); err != nil {
		return f, err
	}
	if f.StartedAt, err = store.ParseNullTime(started); err != nil {
		return f, err
	}
	if f.FinishedAt, err = store.ParseNullTime(finished); err != nil {
		return f, err
	}
	f.ScheduledFor, f.At = f.ScheduledFor.In(loc), f.At.In(loc)
	for _, p := range []*time.Time{f.StartedAt, f.FinishedAt} {
		if p != nil {
			*p = p.In(loc)
		}
	}
	return f, nil
}

// insertFire adds a ledger row; a second row for the same (task, slot) fails
// with a unique violation, which is how a slot never runs twice.
func insertFire(ctx context.Context, q store.Queryer, f Fire) (int64, error) {
	var started sql.NullString
	if f.Outcome == OutcomeRunning {
		started = sql.NullString{String: store.FormatTime(f.At), Valid: true}
		f.Attempts = max(f.Attempts, 1)
	}
	res, err := q.ExecContext(ctx, `INSERT INTO task_fires (task_id, scheduled_for, via, outcome, reason,
		todo_id, attempts, started_at, at, note) VALUES (?,?,?,?,?,?,?,?,?,?)`,
		f.TaskID, store.FormatTime(f.ScheduledFor), f.Via, string(f.Outcome), f.Reason, nullID(f.TodoID),
		f.Attempts, started, store.FormatTime(f.At), f.Note)
	if err != nil {
		return 0, err
	}
	return res.LastInsertId()
}

// recordSkipped writes a row for a slot that did not run; an existing row for
// the slot is kept (it already tells its story).
func recordSkipped(ctx context.Context, q store.Queryer, taskID int64, slot time.Time, via string, o Outcome, reason string, now time.Time) error {
	_, err := q.ExecContext(ctx, `INSERT OR IGNORE INTO task_fires (task_id, scheduled_for, via, outcome,
		reason, at) VALUES (?,?,?,?,?,?)`, taskID, store.FormatTime(slot), via, string(o), reason, store.FormatTime(now))
	if err != nil {
		return fmt.Errorf("schedule: record %s: %w", o, err)
	}
	return nil
}

// recordSpan writes one row per recent slot of sp except skip (the slot that
// runs); the oldest row mentions slots older than those recorded.
func recordSpan(ctx context.Context, q store.Queryer, taskID int64, sp span, skip time.Time, o Outcome, reason string, loc *time.Location, now time.Time) (int, error) {
	n := 0
	older := sp.total - len(sp.recent)
	for i, slot := range sp.recent {
		if slot.Equal(skip) {
			continue
		}
		r := reason
		if i == 0 && older > 0 {
			r = fmt.Sprintf("%s (and %d earlier slots since %s)", reason, older, sp.first.In(loc).Format(time.RFC3339))
		}
		if err := recordSkipped(ctx, q, taskID, slot, TriggerSchedule, o, r, now); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

func getFire(ctx context.Context, q store.Queryer, taskID int64, slot time.Time, loc *time.Location) (Fire, error) {
	f, err := scanFire(q.QueryRowContext(ctx, `SELECT `+fireCols+` FROM task_fires WHERE task_id = ? AND scheduled_for = ?`,
		taskID, store.FormatTime(slot)), loc)
	if errors.Is(err, sql.ErrNoRows) {
		return f, apperr.NotFoundf("task %d has no ledger entry for %s", taskID, slot.In(loc).Format(time.RFC3339))
	}
	if err != nil {
		return f, fmt.Errorf("schedule: fire: %w", err)
	}
	return f, nil
}

func getFireByID(ctx context.Context, q store.Queryer, id int64, loc *time.Location) (Fire, error) {
	f, err := scanFire(q.QueryRowContext(ctx, `SELECT `+fireCols+` FROM task_fires WHERE id = ?`, id), loc)
	if err != nil {
		return f, fmt.Errorf("schedule: fire %d: %w", id, err)
	}
	return f, nil
}

// startFire turns an existing row (queued, or a missed slot an admin reruns) into running.
func startFire(ctx context.Context, q store.Queryer, id int64, via string, now time.Time) error {
	_, err := q.ExecContext(ctx, `UPDATE task_fires SET outcome = 'running', via = ?, reason = '', run_id = NULL,
		attempts = attempts + 1, started_at = ?, finished_at = NULL, at = ? WHERE id = ?`,
		via, store.FormatTime(now), store.FormatTime(now), id)
	if err != nil {
		return fmt.Errorf("schedule: start fire %d: %w", id, err)
	}
	return nil
}

func finishFire(ctx context.Context, q store.Queryer, id int64, o Outcome, reason string, runID int64, now time.Time) error {
	_, err := q.ExecContext(ctx, `UPDATE task_fires SET outcome = ?, reason = ?, run_id = COALESCE(?, run_id),
		finished_at = ?, at = ? WHERE id = ?`, string(o), reason, nullID(runID), store.FormatTime(now),
		store.FormatTime(now), id)
	if err != nil {
		return fmt.Errorf("schedule: finish fire %d: %w", id, err)
	}
	return nil
}

func listFires(ctx context.Context, q store.Queryer, taskID int64, limit int, loc *time.Location) ([]Fire, error) {
	if limit <= 0 || limit > 1000 {
		limit = 100
	}
	out, err := store.All(ctx, q, inZone(scanFire, loc), `SELECT `+fireCols+` FROM task_fires WHERE task_id = ?
		ORDER BY scheduled_for DESC, id DESC LIMIT ?`, taskID, limit)
	if err != nil {
		return nil, fmt.Errorf("schedule: ledger: %w", err)
	}
	return out, nil
}
