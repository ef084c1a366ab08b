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

const taskCols = `id, description, kind, schedule, agent_id, assignment_id, member_id, prompt, status,
	status_reason, pause_note, paused_at, overlap_policy, catchup_policy, created_by, created_by_run,
	keep, expires_at, last_run_at, next_run_at, run_count, last_run_id, created_at, updated_at, last_outcome, last_note`

func scanTask(row store.Scanner, loc *time.Location) (Task, error) {
	var (
		t                              Task
		member                         sql.NullString
		paused, expires, last, next    sql.NullString
		createdRun, lastRun            sql.NullInt64
		created, updated               string
		kind, status, overlap, catchup string
		by, lastOutcome                string
	)
	if err := row.Scan(&t.ID, &t.Description, &kind, &t.Schedule, &t.AgentID, &t.AssignmentID, &member,
		&t.Prompt, &status, &t.StatusReason, &t.PauseNote, &paused, &overlap, &catchup, &by, &createdRun,
		&t.Keep, &expires, &last, &next, &t.RunCount, &lastRun, &created, &updated, &lastOutcome, &t.LastNote); err != nil {
		return t, err
	}
	t.Kind, t.Status, t.OverlapPolicy, t.CatchupPolicy, t.CreatedBy = Kind(kind), Status(status),
		OverlapPolicy(overlap), CatchupPolicy(catchup), CreatedBy(by)
	t.MemberID, t.CreatedByRun, t.LastRunID, t.LastOutcome = member.String, createdRun.Int64, lastRun.Int64, Outcome(lastOutcome)
	var err error
	for _, f := range []struct {
		dst **time.Time
		src sql.NullString
	}{{&t.PausedAt, paused}, {&t.ExpiresAt, expires}, {&t.LastRunAt, last}, {&t.NextRunAt, next}} {
		if *f.dst, err = store.ParseNullTime(f.src); err != nil {
			return t, err
		}
		if *f.dst != nil {
			**f.dst = (**f.dst).In(loc)
		}
	}
	if t.CreatedAt, err = store.ParseTime(created); err != nil {
		return t, err
	}
	if t.UpdatedAt, err = store.ParseTime(updated); err != nil {
		return t, err
	}
	t.CreatedAt, t.UpdatedAt = t.CreatedAt.In(loc), t.UpdatedAt.In(loc)
	return t, nil
}

// getTask reads one task; apperr.NotFound when it does not exist.
func getTask(ctx context.Context, q store.Queryer, id int64, loc *time.Location) (Task, error) {
	t, err := scanTask(q.QueryRowContext(ctx, `SELECT `+taskCols+` FROM scheduled_tasks WHERE id = ?`, id), loc)
	if errors.Is(err, sql.ErrNoRows) {
		return t, apperr.NotFoundf("no scheduled task %d", id)
	}
	if err != nil {
		return t, fmt.Errorf("schedule: task %d: %w", id, err)
	}
	return t, nil
}

func listTasks(ctx context.Context, q store.Queryer, f TaskFilter, loc *time.Location) ([]Task, error) {
	var w store.Where
	w.Eq("status", string(f.Status)).Eq("kind", string(f.Kind)).Eq("agent_id", f.AgentID).Eq("member_id", f.MemberID).
		Eq("created_by", string(f.CreatedBy))
	if f.Live {
		w.And("status NOT IN ('completed','expired')")
	}
	out, err := store.All(ctx, q, inZone(scanTask, loc), `SELECT `+taskCols+` FROM scheduled_tasks`+w.String()+` ORDER BY id`, w.Args()...)
	if err != nil {
		return nil, fmt.Errorf("schedule: list tasks: %w", err)
	}
	return out, nil
}

// inZone binds a scan function to the household zone, for store.All.
func inZone[T any](scan func(store.Scanner, *time.Location) (T, error), loc *time.Location) func(store.Scanner) (T, error) {
	return func(row store.Scanner) (T, error) { return scan(row, loc) }
}

func nullID(id int64) sql.NullInt64 { return sql.NullInt64{Int64: id, Valid: id != 0} }

func insertTask(ctx context.Context, q store.Queryer, t Task) (int64, error) {
	res, err := q.ExecContext(ctx, `INSERT INTO scheduled_tasks (description, kind, schedule, agent_id,
		assignment_id, member_id, prompt, status, status_reason, pause_note, paused_at, overlap_policy,
		catchup_policy, created_by, created_by_run, keep, expires_at, next_run_at, created_at, updated_at)
		VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
		t.Description, string(t.Kind), t.Schedule, t.AgentID, t.AssignmentID, store.NullString(t.MemberID),
		t.Prompt, string(t.Status), t.StatusReason, t.PauseNote, store.NullTime(t.PausedAt),
		string(t.OverlapPolicy), string(t.CatchupPolicy), string(t.CreatedBy), nullID(t.CreatedByRun), t.Keep,
		store.NullTime(t.ExpiresAt), store.NullTime(t.NextRunAt), store.FormatTime(t.CreatedAt),
		store.FormatTime(t.UpdatedAt))
	if err != nil {
		return 0, fmt.Errorf("schedule: insert task: %w", err)
	}
	return res.LastInsertId()
}

// saveTask writes every mutable column of t.
func saveTask(ctx context.Context, q store.Queryer, t Task) error {
	res, err := q.ExecContext(ctx, `UPDATE scheduled_tasks SET description = ?, kind = ?, schedule = ?,
		agent_id = ?, assignment_id = ?, member_id = ?, prompt = ?, status = ?, status_reason = ?,
		pause_note = ?, paused_at = ?, overlap_policy = ?, catchup_policy = ?, keep = ?, expires_at = ?,
		last_run_at = ?, next_run_at = ?, run_count = ?, last_run_id = ?, updated_at = ?, last_outcome = ?,
		last_note = ? WHERE id = ?`,
		t.Description, string(t.Kind), t.Schedule, t.AgentID, t.AssignmentID, store.NullString(t.MemberID),
		t.Prompt, string(t.Status), t.StatusReason, t.PauseNote, store.NullTime(t.PausedAt),
		string(t.OverlapPolicy), string(t.CatchupPolicy), t.Keep, store.NullTime(t.ExpiresAt),
		store.NullTime(t.LastRunAt), store.NullTime(t.NextRunAt), t.RunCount, nullID(t.LastRunID),
		store.FormatTime(t.UpdatedAt), string(t.LastOutcome), t.LastNote, t.ID)
	if err != nil {
		return fmt.Errorf("schedule: save task %d: %w", t.ID, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return apperr.NotFoundf("no scheduled task %d", t.ID)
	}
	return nil
}

func countAgentTasks(ctx context.Context, q store.Queryer, memberID string) (int, error) {
	var n int
	err := q.QueryRowContext(ctx, `SELECT count(*) FROM scheduled_tasks WHERE created_by = 'agent'
		AND member_id = ? AND status IN ('active','pending_approval','paused','error')`, memberID).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("schedule: count agent tasks: %w", err)
	}
	return n, nil
}

func memberExists(ctx context.Context, q store.Queryer, id string) (bool, error) {
	var n int
	if err := q.QueryRowContext(ctx, `SELECT count(*) FROM members WHERE id = ?`, id).Scan(&n); err != nil {
		return false, fmt.Errorf("schedule: member %q: %w", id, err)
	}
	return n > 0, nil
}
