package store

import (
	"context"
	"database/sql"
	"strings"
)

// Scanner is a *sql.Row or *sql.Rows, for scan functions that serve both.
type Scanner interface {
	Scan(dest ...any) error
}

// All runs query on q and turns every row into a T with scan. No rows is an
// empty (non-nil) slice.
func All[T any](ctx context.Context, q Queryer, scan func(Scanner) (T, error), query string, args ...any) ([]T, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []T{}
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// One runs query on q and scans its first row; sql.ErrNoRows when there is none.
func One[T any](ctx context.Context, q Queryer, scan func(Scanner) (T, error), query string, args ...any) (T, error) {
	return scan(q.QueryRowContext(ctx, query, args...))
}

// Value scans a single column (for All and One: ids, names, counts).
func Value[T any](s Scanner) (T, error) {
	var v T
	err := s.Scan(&v)
	return v, err
}

// Where builds a WHERE clause from optional conditions; the zero value has none.
type Where struct {
	conds []string
	args  []any
}

// And adds a condition with its arguments.
func (w *Where) And(cond string, args ...any) *Where {
	w.conds = append(w.conds, cond)
	w.args = append(w.args, args...)
	return w
}

// Eq adds "col = ?" unless v is empty (a filter field left blank).
func (w *Where) Eq(col, v string) *Where {
	if v == "" {
		return w
	}
	return w.And(col+" = ?", v)
}

// String is " WHERE a AND b", or "" without conditions.
func (w *Where) String() string {
	if len(w.conds) == 0 {
		return ""
	}
	return " WHERE " + strings.Join(w.conds, " AND ")
}

// Args are the conditions' arguments, in order, followed by more (LIMIT …).
func (w *Where) Args(more ...any) []any {
	return append(append([]any{}, w.args...), more...)
}

var _ Queryer = (*sql.DB)(nil)
var _ Queryer = (*Tx)(nil)
