package importer

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
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

// writer stores parsed records in the file's transaction and counts them; it
// runs on the goroutine that owns the transaction (see runPipeline). Apple
// records are stored as they come; CSV rows are staged and merged into
// entries at the end (stage.go). Bad records are rejected one by one; after
// a file-level problem, or any rejection in strict mode, the writer only
// counts: the transaction will be rolled back.
type writer struct {
	ctx      context.Context
	q        *stmtCache
	member   string
	source   string
	importID int64
	now      time.Time
	sum      *Summary
	strict   bool
	problems []Problem
	nProblem int
	fatal    bool
	csvKind  recKind   // the kind of the staged CSV rows
	csvMerge mergeMode // how they merge
	csvLabel string
	staged   int       // CSV rows staged
	bodyFrom time.Time // span of body-composition records, for linking
	bodyTo   time.Time
	upgrades int // dietary samples regrouped by their meal
	// namedMeals: a dietary sample named its meal; movedEntries: a sample
	// staged before moved to an entry of one app at one instant.
	namedMeals, movedEntries bool
	keyBuf                   keyer // for ledger hashes
	legacy                   *bool // the member has CSV rows keyed before natural keys (asked once)
	// plausible is the weigh-ins a new one is checked against (plausible.go).
	plausible plausibleWindow
}

// failed reports whether the file will import nothing.
func (w *writer) failed() bool { return w.fatal || (w.strict && w.nProblem > 0) }

func (w *writer) problem(p Problem) {
	w.nProblem++
	if len(w.problems) < maxProblems {
		w.problems = append(w.problems, p)
	}
}

// fail records a problem with the file as a whole.
func (w *writer) fail(p Problem) {
	w.fatal = true
	w.problem(p)
}

func (w *writer) reject(label string, p Problem) {
	w.sum.Rejected++
	w.sum.count(label, func(c *TypeCount) { c.Rejected++ })
	w.problem(p)
}

func (w *writer) unknown(name string) { w.sum.unknown(name) }

func (w *writer) note(msg string) { w.sum.addNote(msg) }

func (w *writer) warn(p Problem) { w.sum.addWarning(p) }

func (w *writer) correct(what string, line int, value string) { w.sum.correct(what, line, value) }

func (w *writer) cleaned(n int) { w.sum.CharsDropped += n }

func (w *writer) emit(r *record) error {
	if w.failed() {
		return nil
	}
	var err error
	switch {
	case r.own.on:
		err = w.storeOwn(r)
	case w.source == SourceCSV && r.kind != recBodyScan:
		err = w.stage(r)
	default:
		err = w.storeKeyed(r)
	}
	if err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return err
		}
		return fmt.Errorf("importer: store %s (line %d): %w", r.label, r.line, err)
	}
	return nil
}

// Inserts that also record the import that wrote the row.
const (
	insertWeightSQL = `INSERT INTO weight_readings (member_id, measured_at, weight_kg, body_fat_pct, lean_mass_kg,
		source, source_key, created_at, import_id) VALUES (?,?,?,?,?,?,?,?,?) ON CONFLICT DO NOTHING`
	insertMealSQL = `INSERT INTO meals (member_id, eaten_at, name, calories, protein_g, carbs_g, fat_g,
		source, source_key, created_at, import_id) VALUES (?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT DO NOTHING`
	insertWorkoutSQL = `INSERT INTO workouts (member_id, started_at, type, title, duration_min, avg_hr, max_hr,
		energy_kcal, distance_km, content_id, source, source_key, created_at, import_id) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)
		ON CONFLICT DO NOTHING`
	insertDailySQL = `INSERT INTO daily_figures (member_id, day, kind, value, unit, measured_at, source, source_key, created_at, import_id)
		VALUES (?,?,?,?,?,?,?,?,?,?) ON CONFLICT DO NOTHING`
	insertSampleSQL = `INSERT INTO import_samples (member_id, kind, at, source_key, import_id, slot_key, slot_explicit, group_key, value)
		VALUES (?,?,?,?,?,?,?,?,?) ON CONFLICT DO NOTHING`
)

// insert adds r's row for the member; false when its source key is taken.
func (w *writer) insert(r *record) (bool, error) {
	return w.insertAs(r, w.source, r.key, w.now)
}

// insertAs adds r's row with the given source, source key ("" for none)
// and time of storing.
func (w *writer) insertAs(r *record, source, key string, created time.Time) (bool, error) {
	var res sql.Result
	var err error
	k, at := store.NullString(key), store.FormatTime(created)
	switch r.kind {
	case recWeight:
		x := &r.weight
		res, err = w.q.ExecContext(w.ctx, insertWeightSQL, w.member, store.FormatTime(x.MeasuredAt), x.WeightKg,
			store.NullFloat(x.BodyFatPct), store.NullFloat(x.LeanMassKg), source, k, at, w.importID)
	case recMeal:
		x := &r.meal
		res, err = w.q.ExecContext(w.ctx, insertMealSQL, w.member, store.FormatTime(x.EatenAt), x.Name, x.Calories,
			x.ProteinG, x.CarbsG, x.FatG, source, k, at, w.importID)
	case recWorkout:
		x := &r.workout
		res, err = w.q.ExecContext(w.ctx, insertWorkoutSQL, w.member, store.FormatTime(x.StartedAt), x.Type, x.Title,
			x.DurationMin, store.NullInt(x.AvgHR), store.NullInt(x.MaxHR), store.NullFloat(x.EnergyKcal),
			store.NullFloat(x.DistanceKm), store.NullString(x.ContentID), source, k, at, w.importID)
	case recBodyScan:
		r.scan.MemberID, r.scan.Source, r.scan.SourceKey = w.member, source, key
		return store.InsertBodyScan(w.ctx, w.q, created, &r.scan)
	case recDaily:
		x := &r.daily
		res, err = w.q.ExecContext(w.ctx, insertDailySQL, w.member, x.Day, x.Kind, x.Value, x.Unit, store.FormatTime(x.At),
			source, key, at, w.importID)
	case recSample:
		s := &r.sample
		res, err = w.q.ExecContext(w.ctx, insertSampleSQL, w.member, s.kind, store.FormatTime(s.at), r.key, w.importID,
			store.NullString(s.slot), s.explicit, store.NullString(s.group), s.value)
	default:
		return false, fmt.Errorf("importer: unknown record kind %d", r.kind)
	}
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n > 0, err
}

// storeKeyed stores an Apple record (or a CSV body scan) keyed by its
// values. One whose key is taken is a repeat inside this file, or a
// duplicate of an earlier import's record.
func (w *writer) storeKeyed(r *record) error {
	if err := w.checkPlausible(r); err != nil {
		return err
	}
	switch r.kind {
	case recWeight:
		w.body(r.weight.MeasuredAt)
	case recSample:
		if r.sample.slot == "" {
			w.body(r.sample.at)
		}
		w.namedMeals = w.namedMeals || r.sample.explicit
	}
	added, err := w.insert(r)
	if err != nil {
		return err
	}
	if added {
		w.sum.Added++
		w.sum.count(r.label, func(c *TypeCount) { c.Added++ })
		return nil
	}
	repeated, err := w.seenInThisImport(r)
	if err != nil {
		return err
	}
	if r.kind == recWorkout && r.workout.DistanceKm != nil { // an export from before distances were read
		if _, err := w.q.ExecContext(w.ctx, `UPDATE workouts SET distance_km = ? WHERE member_id = ? AND source = ?
			AND source_key = ? AND distance_km IS NULL`, *r.workout.DistanceKm, w.member, w.source, r.key); err != nil {
			return err
		}
	}
	if repeated {
		w.sum.RepeatedInFile++
		w.sum.count(r.label, func(c *TypeCount) { c.Repeated++ })
	} else {
		w.sum.SkippedDuplicate++
		w.sum.count(r.label, func(c *TypeCount) { c.Duplicate++ })
	}
	return nil
}

// seenInThisImport reports whether the row holding r's key was written by
// this import. A dietary sample met again with the meal it belongs to (in
// its food correlation) moves to that meal's slot.
func (w *writer) seenInThisImport(r *record) (bool, error) {
	var id sql.NullInt64
	var err error
	switch r.kind {
	case recWeight:
		err = w.q.QueryRowContext(w.ctx, `SELECT import_id FROM weight_readings WHERE member_id = ? AND source = ? AND source_key = ?`,
			w.member, w.source, r.key).Scan(&id)
	case recWorkout:
		err = w.q.QueryRowContext(w.ctx, `SELECT import_id FROM workouts WHERE member_id = ? AND source = ? AND source_key = ?`,
			w.member, w.source, r.key).Scan(&id)
	case recSample:
		var slot, group sql.NullString
		var explicit bool
		s := &r.sample
		at := store.FormatTime(s.at)
		err = w.q.QueryRowContext(w.ctx, `SELECT import_id, slot_key, slot_explicit, group_key FROM import_samples
			WHERE member_id = ? AND kind = ? AND at = ? AND source_key = ?`, w.member, s.kind, at, r.key).Scan(&id, &slot, &explicit, &group)
		if err == nil && s.slot != "" && movesTo(s, slot.String, explicit, group) {
			err = w.regroup(s, at, r.key, slot.String)
		}
	default:
		return false, nil
	}
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return id.Valid && id.Int64 == w.importID, err
}

// movesTo reports whether a dietary sample met again (s) is to move from
// where it is staged (slot, explicit, group): to its food correlation from
// the entry of its source and start (a record is staged top-level, then
// met inside its correlation), to the meal its record names from its time's
// meal within one entry, or to any entry when it was staged before entries
// were known.
func movesTo(s *sample, slot string, explicit bool, group sql.NullString) bool {
	if slot == s.slot && explicit == s.explicit && group.String == s.group {
		return false
	}
	switch {
	case !group.Valid:
		return true
	case strings.HasPrefix(s.group, "c:") && !strings.HasPrefix(group.String, "c:"):
		return true
	case group.String == s.group:
		return s.explicit && !explicit
	}
	return false
}

// regroup moves a dietary sample to the entry and slot of s, and marks the
// slots it left and joined, and its entry, for recomputation.
func (w *writer) regroup(s *sample, at, key, oldSlot string) error {
	if _, err := w.q.ExecContext(w.ctx, `UPDATE import_samples SET slot_key = ?, slot_explicit = ?, group_key = ?
		WHERE member_id = ? AND kind = ? AND at = ? AND source_key = ?`, s.slot, s.explicit, s.group, w.member, s.kind, at, key); err != nil {
		return err
	}
	for _, slot := range []string{oldSlot, s.slot} {
		if _, err := w.q.ExecContext(w.ctx, `INSERT INTO import_touched (import_id, slot_key) VALUES (?,?) ON CONFLICT DO NOTHING`,
			w.importID, slot); err != nil {
			return err
		}
	}
	if strings.HasPrefix(s.group, "s:") {
		w.movedEntries = true
		if _, err := w.q.ExecContext(w.ctx, `INSERT INTO import_touched_entries (import_id, at, group_key) VALUES (?,?,?) ON CONFLICT DO NOTHING`,
			w.importID, at, s.group); err != nil {
			return err
		}
	}
	if oldSlot != s.slot {
		w.upgrades++
	}
	return nil
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
