package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"hearth/internal/apperr"
	"hearth/internal/health"
)

// AddGoal stores a goal for a member.
func (db *DB) AddGoal(ctx context.Context, g health.Goal) (health.Goal, error) {
	err := InsertGoal(ctx, db.Write, db.Now(), &g)
	return g, err
}

// InsertGoal stores a goal through q (a transaction or the writer).
func InsertGoal(ctx context.Context, q Queryer, now time.Time, g *health.Goal) error {
	if g.Status == "" {
		g.Status = "active"
	}
	g.CreatedAt = now.UTC().Truncate(time.Millisecond)
	var td sql.NullString
	if g.TargetDate != nil {
		td = sql.NullString{String: g.TargetDate.Format(time.DateOnly), Valid: true}
	}
	res, err := q.ExecContext(ctx, `INSERT INTO goals (member_id, kind, description, target, unit, target_date, status, created_at)
		VALUES (?,?,?,?,?,?,?,?)`, g.MemberID, g.Kind, g.Description, NullFloat(g.Target), g.Unit, td, g.Status, FormatTime(g.CreatedAt))
	if err != nil {
		return fmt.Errorf("store: add goal: %w", err)
	}
	g.ID, err = res.LastInsertId()
	return err
}

// Goals lists a member's goals; activeOnly limits to status active.
func (db *DB) Goals(ctx context.Context, member string, activeOnly bool) ([]health.Goal, error) {
	q := `SELECT id, member_id, kind, description, target, unit, target_date, status, created_at FROM goals WHERE member_id = ?`
	if activeOnly {
		q += ` AND status = 'active'`
	}
	out, err := All(ctx, db.Read, scanGoal, q+` ORDER BY created_at, id`, member)
	if err != nil {
		return nil, fmt.Errorf("store: goals: %w", err)
	}
	return out, nil
}

func scanGoal(row Scanner) (health.Goal, error) {
	var g health.Goal
	var target sql.NullFloat64
	var td sql.NullString
	var created string
	if err := row.Scan(&g.ID, &g.MemberID, &g.Kind, &g.Description, &target, &g.Unit, &td, &g.Status, &created); err != nil {
		return g, err
	}
	g.Target = FloatPtr(target)
	if td.Valid {
		if t, err := time.Parse(time.DateOnly, td.String); err == nil {
			g.TargetDate = &t
		}
	}
	var err error
	g.CreatedAt, err = ParseTime(created)
	return g, err
}

// SetGoalStatus changes a goal's status.
func (db *DB) SetGoalStatus(ctx context.Context, member string, id int64, status string) error {
	res, err := db.Write.ExecContext(ctx, `UPDATE goals SET status = ? WHERE id = ? AND member_id = ?`, status, id, member)
	if err != nil {
		return fmt.Errorf("store: goal status: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return apperr.NotFoundf("no goal %d for %q", id, member)
	}
	return nil
}

// SetGoalTargetDate changes (nil: clears) an active goal's target date
// through q (a transaction or the writer).
func SetGoalTargetDate(ctx context.Context, q Queryer, member string, id int64, date *time.Time) error {
	var td sql.NullString
	if date != nil {
		td = sql.NullString{String: date.Format(time.DateOnly), Valid: true}
	}
	res, err := q.ExecContext(ctx, `UPDATE goals SET target_date = ? WHERE id = ? AND member_id = ? AND status = 'active'`, td, id, member)
	if err != nil {
		return fmt.Errorf("store: goal target date: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return apperr.NotFoundf("no active goal %d for %q", id, member)
	}
	return nil
}
