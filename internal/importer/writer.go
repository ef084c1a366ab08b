package importer

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"hearth/internal/store"
)

// stmtCache is a store.Queryer over a transaction that prepares each query
// once, so the store's Insert helpers run as prepared statements.
type stmtCache struct {
	tx    *store.Tx
	stmts map[string]*sql.Stmt
}

var _ store.Queryer = (*stmtCache)(nil)

func newStmtCache(tx *store.Tx) *stmtCache { return &stmtCache{tx: tx, stmts: map[string]*sql.Stmt{}} }

func (c *stmtCache) stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	if st, ok := c.stmts[query]; ok {
		return st, nil
	}
	st, err := c.tx.PrepareContext(ctx, query)
	if err != nil {
		return nil, fmt.Errorf("importer: prepare: %w", err)
	}
	c.stmts[query] = st
	return st, nil
}

// ExecContext runs query as a cached prepared statement.
func (c *stmtCache) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	st, err := c.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	return st.ExecContext(ctx, args...)
}

// QueryContext runs query as a cached prepared statement.
func (c *stmtCache) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	st, err := c.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	return st.QueryContext(ctx, args...)
}

// QueryRowContext runs query as a cached prepared statement.
func (c *stmtCache) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	st, err := c.stmt(ctx, query)
	if err != nil {
		return c.tx.QueryRowContext(ctx, query, args...) // reports the same error on Scan
	}
	return st.QueryRowContext(ctx, args...)
}

func (c *stmtCache) close() {
	for _, st := range c.stmts {
		_ = st.Close()
	}
}

const insertSample = `INSERT INTO import_samples (member_id, kind, at, source_key, import_id, slot_key, value)
	VALUES (?,?,?,?,?,?,?) ON CONFLICT DO NOTHING`

// writer stores parsed records in the file's transaction and counts them; it
// runs on the goroutine that owns the transaction (see runPipeline). After
// the first problem it only counts: the transaction will be rolled back.
type writer struct {
	ctx      context.Context
	q        *stmtCache
	member   string
	source   string
	importID int64
	now      time.Time
	sum      *Summary
	problems []Problem
	nProblem int
	bodyFrom time.Time // span of body-composition records, for linking
	bodyTo   time.Time
}

func (w *writer) failed() bool { return w.nProblem > 0 }

func (w *writer) problem(p Problem) {
	w.nProblem++
	if len(w.problems) < maxProblems {
		w.problems = append(w.problems, p)
	}
}

func (w *writer) reject(label string, p Problem) {
	w.sum.Rejected++
	w.sum.count(label, func(c *TypeCount) { c.Rejected++ })
	w.problem(p)
}

func (w *writer) unknown(name string) {
	w.sum.unknown(name)
}

func (w *writer) emit(r *record) error {
	if w.failed() {
		return nil
	}
	added, err := w.store(r)
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return err
		}
		return fmt.Errorf("importer: store %s (line %d): %w", r.label, r.line, err)
	}
	if added {
		w.sum.Added++
	} else {
		w.sum.SkippedDuplicate++
	}
	w.sum.count(r.label, func(c *TypeCount) {
		if added {
			c.Added++
		} else {
			c.Duplicate++
		}
	})
	return nil
}

func (w *writer) store(r *record) (bool, error) {
	switch r.kind {
	case recWeight:
		r.weight.MemberID, r.weight.Source, r.weight.SourceKey = w.member, w.source, r.key
		w.body(r.weight.MeasuredAt)
		return store.InsertWeight(w.ctx, w.q, w.now, &r.weight)
	case recMeal:
		r.meal.MemberID, r.meal.Source, r.meal.SourceKey = w.member, w.source, r.key
		return store.InsertMeal(w.ctx, w.q, w.now, &r.meal)
	case recWorkout:
		r.workout.MemberID, r.workout.Source, r.workout.SourceKey = w.member, w.source, r.key
		return store.InsertWorkout(w.ctx, w.q, w.now, &r.workout)
	case recBodyScan:
		r.scan.MemberID, r.scan.Source, r.scan.SourceKey = w.member, w.source, r.key
		return store.InsertBodyScan(w.ctx, w.q, w.now, &r.scan)
	case recSample:
		s := r.sample
		if s.slot == "" {
			w.body(s.at)
		}
		res, err := w.q.ExecContext(w.ctx, insertSample, w.member, s.kind, store.FormatTime(s.at), r.key, w.importID,
			store.NullString(s.slot), s.value)
		if err != nil {
			return false, err
		}
		n, err := res.RowsAffected()
		return n > 0, err
	}
	return false, fmt.Errorf("importer: unknown record kind %d", r.kind)
}

// body widens the time span that body-composition linking looks at.
func (w *writer) body(t time.Time) {
	if w.bodyFrom.IsZero() || t.Before(w.bodyFrom) {
		w.bodyFrom = t
	}
	if t.After(w.bodyTo) {
		w.bodyTo = t
	}
}
