package importer

import (
	"database/sql"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"hearth/internal/store"
)

// Corrections. Every CSV entry has a natural key (weight: time; meal: local
// date and name; workout: start and type) and import_ledger remembers a
// hash of the values the last import wrote for it. Importing an entry again:
//
//   - no ledger and no row: inserted (added);
//   - the row holds the file's values: unchanged (counted as a duplicate);
//   - the row holds what the import last wrote: updated to the file's values;
//   - the row holds anything else, or was deleted: the member changed it and
//     it is kept as they left it (kept edits).
//
// The check compares values, so an edit through any code path is seen.

// rowHash hashes an entry's values as stored, rounded to 3 decimals so the
// same reading converted another way (180.4 lb, 81.828 kg) is the same.
// Names are compared as the importer stores them (single-line: a line
// break kept by an older version is a space).
func rowHash(k *keyer, r *record) string {
	f := func(v float64) string { return strconv.FormatFloat(math.Round(v*1000)/1000, 'f', 3, 64) }
	opt := func(v *float64) string {
		if v == nil {
			return "-"
		}
		return f(*v)
	}
	optInt := func(v *int) string {
		if v == nil {
			return "-"
		}
		return strconv.Itoa(*v)
	}
	flat := func(s string) string { return strings.TrimSpace(lineBreaks.Replace(s)) }
	switch r.kind {
	case recWeight:
		x := &r.weight
		k.reset("w").str(store.FormatTime(x.MeasuredAt)).str(f(x.WeightKg)).str(opt(x.BodyFatPct)).str(opt(x.LeanMassKg))
	case recMeal:
		x := &r.meal
		k.reset("m").str(store.FormatTime(x.EatenAt)).str(flat(x.Name)).str(f(x.Calories)).str(f(x.ProteinG)).str(f(x.CarbsG)).str(f(x.FatG))
	case recWorkout:
		x := &r.workout
		k.reset("wo").str(store.FormatTime(x.StartedAt)).str(x.Type).str(flat(x.Title)).str(f(x.DurationMin)).str(optInt(x.AvgHR)).
			str(optInt(x.MaxHR)).str(opt(x.EnergyKcal)).str(opt(x.DistanceKm)).str(x.ContentID)
	case recBodyScan:
		x := &r.scan
		k.reset("bs").str(store.FormatTime(x.ScannedAt)).str(opt(x.BodyFatPct)).str(opt(x.LeanMassKg)).str(opt(x.FatMassKg)).
			str(opt(x.BoneMassKg)).str(opt(x.VisceralFat))
	case recDaily:
		x := &r.daily
		k.reset("d").str(x.Day).str(x.Kind).str(f(x.Value)).str(x.Unit)
	}
	return k.sum()
}

// Reading an entry's current row back by its key.
var selectRowSQL = map[recKind]string{
	recWeight: `SELECT id, measured_at, weight_kg, body_fat_pct, lean_mass_kg FROM weight_readings
		WHERE member_id = ? AND source = ? AND source_key = ?`,
	recMeal: `SELECT id, eaten_at, name, calories, protein_g, carbs_g, fat_g FROM meals
		WHERE member_id = ? AND source = ? AND source_key = ?`,
	recWorkout: `SELECT id, started_at, type, title, duration_min, avg_hr, max_hr, energy_kcal, distance_km, content_id FROM workouts
		WHERE member_id = ? AND source = ? AND source_key = ?`,
	recBodyScan: `SELECT id, scanned_at, body_fat_pct, lean_mass_kg, fat_mass_kg, bone_mass_kg, visceral_fat FROM body_scans
		WHERE member_id = ? AND source = ? AND source_key = ?`,
	recDaily: `SELECT id, measured_at, day, kind, value, unit FROM daily_figures
		WHERE member_id = ? AND source = ? AND source_key = ?`,
}

// Rows imported before natural keys, found by their own values. The time
// index must serve these (the source-key index would scan every imported
// row of the member for each entry: 100k rows took minutes).
var legacyRowSQL = map[recKind]string{
	recWeight: `SELECT id FROM weight_readings INDEXED BY weight_member_time WHERE member_id = ? AND source = ?
		AND measured_at = ? AND source_key NOT LIKE 'w|%' LIMIT 1`,
	recMeal: `SELECT id FROM meals INDEXED BY meals_member_time WHERE member_id = ? AND source = ? AND eaten_at = ?
		AND lower(name) = lower(?) AND source_key NOT LIKE 'm|%' LIMIT 1`,
	recWorkout: `SELECT id FROM workouts INDEXED BY workouts_member_time WHERE member_id = ? AND source = ? AND started_at = ?
		AND type = ? AND source_key NOT LIKE 'wo|%' LIMIT 1`,
}

const selectLedgerSQL = `SELECT values_hash FROM import_ledger WHERE member_id = ? AND kind = ? AND source = ? AND source_key = ?`

var updateRowSQL = map[recKind]string{
	recWeight: `UPDATE weight_readings SET measured_at = ?, weight_kg = ?, body_fat_pct = ?, lean_mass_kg = ?, import_id = ?
		WHERE id = ?`,
	recMeal: `UPDATE meals SET eaten_at = ?, name = ?, calories = ?, protein_g = ?, carbs_g = ?, fat_g = ?, import_id = ?
		WHERE id = ?`,
	recWorkout: `UPDATE workouts SET started_at = ?, type = ?, title = ?, duration_min = ?, avg_hr = ?, max_hr = ?,
		energy_kcal = ?, distance_km = ?, content_id = ?, import_id = ? WHERE id = ?`,
	recBodyScan: `UPDATE body_scans SET scanned_at = ?, body_fat_pct = ?, lean_mass_kg = ?, fat_mass_kg = ?, bone_mass_kg = ?,
		visceral_fat = ? WHERE ? IS NOT NULL AND id = ?`, // no import_id column: the first placeholder takes it
	recDaily: `UPDATE daily_figures SET measured_at = ?, day = ?, kind = ?, value = ?, unit = ?, import_id = ? WHERE id = ?`,
}

var tableOf = map[recKind]string{recWeight: "weight_readings", recMeal: "meals", recWorkout: "workouts", recBodyScan: "body_scans", recDaily: "daily_figures"}

// current reads the row stored under r's key into cur (same kind as r).
func (w *writer) current(r *record, cur *record) (id int64, found bool, err error) {
	return w.readRow(cur, r.kind, selectRowSQL[r.kind], w.member, w.source, r.key)
}

// readRow reads one row of kind, selected by query (its columns as in
// selectRowSQL), into cur.
func (w *writer) readRow(cur *record, kind recKind, query string, args ...any) (id int64, found bool, err error) {
	*cur = record{kind: kind}
	row := w.q.QueryRowContext(w.ctx, query, args...)
	var at string
	switch kind {
	case recWeight:
		var bf, lean sql.NullFloat64
		err = row.Scan(&id, &at, &cur.weight.WeightKg, &bf, &lean)
		cur.weight.BodyFatPct, cur.weight.LeanMassKg = store.FloatPtr(bf), store.FloatPtr(lean)
	case recMeal:
		m := &cur.meal
		err = row.Scan(&id, &at, &m.Name, &m.Calories, &m.ProteinG, &m.CarbsG, &m.FatG)
	case recWorkout:
		x := &cur.workout
		var avg, mx sql.NullInt64
		var kcal, km sql.NullFloat64
		var content sql.NullString
		err = row.Scan(&id, &at, &x.Type, &x.Title, &x.DurationMin, &avg, &mx, &kcal, &km, &content)
		x.ContentID = content.String
		x.AvgHR, x.MaxHR, x.EnergyKcal, x.DistanceKm = store.IntPtr(avg), store.IntPtr(mx), store.FloatPtr(kcal), store.FloatPtr(km)
	case recBodyScan:
		x := &cur.scan
		var v [5]sql.NullFloat64
		err = row.Scan(&id, &at, &v[0], &v[1], &v[2], &v[3], &v[4])
		x.BodyFatPct, x.LeanMassKg, x.FatMassKg = store.FloatPtr(v[0]), store.FloatPtr(v[1]), store.FloatPtr(v[2])
		x.BoneMassKg, x.VisceralFat = store.FloatPtr(v[3]), store.FloatPtr(v[4])
	case recDaily:
		x := &cur.daily
		err = row.Scan(&id, &at, &x.Day, &x.Kind, &x.Value, &x.Unit)
	}
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, err
	}
	t, err := store.ParseTime(at)
	cur.weight.MeasuredAt, cur.meal.EatenAt, cur.workout.StartedAt, cur.scan.ScannedAt, cur.daily.At = t, t, t, t, t
	return id, true, err
}

// adoptLegacy gives a row imported before natural keys r's key, when its
// values place it at the same entry.
func (w *writer) adoptLegacy(r *record) error {
	args := []any{w.member, w.source}
	switch r.kind {
	case recWeight:
		args = append(args, store.FormatTime(r.weight.MeasuredAt))
	case recMeal:
		args = append(args, store.FormatTime(r.meal.EatenAt), r.meal.Name)
	case recWorkout:
		args = append(args, store.FormatTime(r.workout.StartedAt), r.workout.Type)
	}
	var id int64
	err := w.q.QueryRowContext(w.ctx, legacyRowSQL[r.kind], args...).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	_, err = w.q.ExecContext(w.ctx, `UPDATE `+tableOf[r.kind]+` SET source_key = ? WHERE id = ?`, r.key, id)
	return err
}

// hasLegacyRows reports whether the member has CSV rows of r's kind from
// before natural keys (asked once per import).
func (w *writer) hasLegacyRows(r *record) (bool, error) {
	if w.legacy == nil {
		prefix := map[recKind]string{recWeight: "w|%", recMeal: "m|%", recWorkout: "wo|%"}[r.kind]
		var one int
		err := w.q.QueryRowContext(w.ctx, `SELECT 1 FROM `+tableOf[r.kind]+` WHERE member_id = ? AND source = ?
			AND source_key NOT LIKE ? LIMIT 1`, w.member, w.source, prefix).Scan(&one)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return false, err
		}
		found := err == nil
		w.legacy = &found
	}
	return *w.legacy, nil
}

// upsert writes a merged CSV entry (see the comment at the top).
func (w *writer) upsert(r *record) error {
	if err := w.checkPlausible(r); err != nil {
		return err
	}
	kind := ledgerKind[r.kind]
	want := rowHash(&w.keyBuf, r)
	var last sql.NullString
	err := w.q.QueryRowContext(w.ctx, selectLedgerSQL, w.member, kind, w.source, r.key).Scan(&last)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("importer: read ledger: %w", err)
	}
	inLedger := last.Valid
	legacy, err := w.hasLegacyRows(r)
	if err != nil {
		return fmt.Errorf("importer: look for older rows: %w", err)
	}
	var cur record
	var id int64
	found := false
	// Every row with a natural key has a ledger entry (both are written in
	// one transaction): without one, only an older row can be there.
	if inLedger || legacy {
		if id, found, err = w.current(r, &cur); err != nil {
			return fmt.Errorf("importer: read %s: %w", kind, err)
		}
	}
	if !inLedger && !found && legacy {
		if err := w.adoptLegacy(r); err != nil {
			return fmt.Errorf("importer: adopt %s: %w", kind, err)
		}
		if id, found, err = w.current(r, &cur); err != nil {
			return fmt.Errorf("importer: read %s: %w", kind, err)
		}
	}
	have := ""
	if found {
		have = rowHash(&w.keyBuf, &cur)
		if !inLedger {
			last = sql.NullString{String: have, Valid: true} // an older row holds what was imported
		}
	}
	var outcome func(*TypeCount)
	switch {
	case !found && !inLedger:
		added, err := w.insert(r)
		if err != nil {
			return err
		}
		if !added { // a row without a ledger entry after all: look again, as for older rows
			yes := true
			w.legacy = &yes
			return w.upsert(r)
		}
		w.sum.Added++
		outcome = func(c *TypeCount) { c.Added++ }
	case found && have == want:
		w.sum.SkippedDuplicate++
		outcome = func(c *TypeCount) { c.Duplicate++ }
	case found && have == last.String:
		if err := w.update(r, id); err != nil {
			return err
		}
		w.sum.Updated++
		outcome = func(c *TypeCount) { c.Updated++ }
	default: // edited, or deleted, by the member
		w.sum.KeptEdits++
		outcome = func(c *TypeCount) { c.Kept++ }
	}
	w.sum.count(r.label, outcome)
	if inLedger && last.String == want {
		return nil
	}
	_, err = w.q.ExecContext(w.ctx, `INSERT INTO import_ledger (member_id, kind, source, source_key, values_hash, import_id)
		VALUES (?,?,?,?,?,?) ON CONFLICT DO UPDATE SET values_hash = excluded.values_hash, import_id = excluded.import_id`,
		w.member, kind, w.source, r.key, want, w.importID)
	if err != nil {
		return fmt.Errorf("importer: write ledger: %w", err)
	}
	return nil
}

// update rewrites row id with r's values.
func (w *writer) update(r *record, id int64) error {
	var args []any
	switch r.kind {
	case recWeight:
		x := &r.weight
		args = []any{store.FormatTime(x.MeasuredAt), x.WeightKg, store.NullFloat(x.BodyFatPct), store.NullFloat(x.LeanMassKg)}
	case recMeal:
		x := &r.meal
		args = []any{store.FormatTime(x.EatenAt), x.Name, x.Calories, x.ProteinG, x.CarbsG, x.FatG}
	case recWorkout:
		x := &r.workout
		args = []any{store.FormatTime(x.StartedAt), x.Type, x.Title, x.DurationMin, store.NullInt(x.AvgHR), store.NullInt(x.MaxHR),
			store.NullFloat(x.EnergyKcal), store.NullFloat(x.DistanceKm), store.NullString(x.ContentID)}
	case recBodyScan:
		x := &r.scan
		args = []any{store.FormatTime(x.ScannedAt), store.NullFloat(x.BodyFatPct), store.NullFloat(x.LeanMassKg),
			store.NullFloat(x.FatMassKg), store.NullFloat(x.BoneMassKg), store.NullFloat(x.VisceralFat)}
	case recDaily:
		x := &r.daily
		args = []any{store.FormatTime(x.At), x.Day, x.Kind, x.Value, x.Unit}
	}
	if _, err := w.q.ExecContext(w.ctx, updateRowSQL[r.kind], append(args, w.importID, id)...); err != nil {
		return fmt.Errorf("importer: update %s: %w", ledgerKind[r.kind], err)
	}
	return nil
}
