package importer

import (
	"database/sql"
	"errors"
	"fmt"
	"strconv"

	"hearth/internal/store"
)

// Rows of Hearth's own export (csv_own.go) are stored entries. Each is
// found again by its source and the source's key, or, for one entered by
// hand (no key), by its source and time and its place among the file's
// keyless rows at that time; then, as for a corrected file (ledger.go):
//
//   - no row and no ledger entry: inserted as it was stored, with its
//     source, key and time of storing (added);
//   - the row holds the file's values: a duplicate;
//   - the row holds what the last import of the entry wrote: updated;
//   - the row holds other values, or was deleted after an import wrote
//     it: kept as the member left it.
//
// A row found without a ledger entry is the member's own and as new as the
// export or newer: it is kept, never overwritten by the file. Figures are
// not checked for plausibility: Hearth stored them already.

// keylessRowSQL finds the nth keyless row of a source at an instant (?5:
// an export without a source_key column matches keyed rows too).
var keylessRowSQL = map[recKind]string{
	recWeight:   keylessRow("weight_readings", "weight_member_time", "measured_at"),
	recMeal:     keylessRow("meals", "meals_member_time", "eaten_at"),
	recWorkout:  keylessRow("workouts", "workouts_member_time", "started_at"),
	recBodyScan: keylessRow("body_scans", "scans_member_time", "scanned_at"),
}

func keylessRow(table, index, at string) string {
	return `SELECT id FROM ` + table + ` INDEXED BY ` + index + ` WHERE member_id = ?1 AND ` + at + ` = ?2 AND source = ?3
		AND (?5 OR source_key IS NULL) ORDER BY id LIMIT 1 OFFSET ?4`
}

// byIDSQL reads a row by id, with the columns of selectRowSQL.
var byIDSQL = map[recKind]string{
	recWeight:   `SELECT id, measured_at, weight_kg, body_fat_pct, lean_mass_kg FROM weight_readings WHERE id = ?`,
	recMeal:     `SELECT id, eaten_at, name, calories, protein_g, carbs_g, fat_g FROM meals WHERE id = ?`,
	recWorkout:  `SELECT id, started_at, type, title, duration_min, avg_hr, max_hr, energy_kcal, distance_km, content_id FROM workouts WHERE id = ?`,
	recBodyScan: `SELECT id, scanned_at, body_fat_pct, lean_mass_kg, fat_mass_kg, bone_mass_kg, visceral_fat FROM body_scans WHERE id = ?`,
}

// ownCurrent reads the member's row that is r's entry into cur.
func (w *writer) ownCurrent(r *record, cur *record) (int64, bool, error) {
	o := &r.own
	if o.key != "" {
		return w.readRow(cur, r.kind, selectRowSQL[r.kind], w.member, o.source, o.key)
	}
	var id int64
	err := w.q.QueryRowContext(w.ctx, keylessRowSQL[r.kind], w.member, r.at(), o.source, o.nth, !o.keyed).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		*cur = record{kind: r.kind}
		return 0, false, nil
	}
	if err != nil {
		return 0, false, err
	}
	return w.readRow(cur, r.kind, byIDSQL[r.kind], id)
}

// storeOwn stores a row of Hearth's own export (see the top of the file).
func (w *writer) storeOwn(r *record) error {
	o := &r.own
	kind := ledgerKind[r.kind]
	ledgerKey := o.key
	if ledgerKey == "" {
		ledgerKey = "own|" + r.at() + "#" + strconv.Itoa(o.nth)
	}
	var last sql.NullString
	err := w.q.QueryRowContext(w.ctx, selectLedgerSQL, w.member, kind, o.source, ledgerKey).Scan(&last)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("importer: read ledger: %w", err)
	}
	var cur record
	id, found, err := w.ownCurrent(r, &cur)
	if err != nil {
		return fmt.Errorf("importer: read %s: %w", kind, err)
	}
	want := rowHash(&w.keyBuf, r)
	have := ""
	if found {
		have = rowHash(&w.keyBuf, &cur)
	}
	var outcome func(*TypeCount)
	switch {
	case !found && !last.Valid:
		created := o.created
		if created.IsZero() {
			created = w.now
		}
		added, err := w.insertAs(r, o.source, o.key, created)
		if err != nil {
			return err
		}
		if !added { // taken since it was looked up: nothing to add
			w.sum.SkippedDuplicate++
			outcome = func(c *TypeCount) { c.Duplicate++ }
			break
		}
		w.sum.Added++
		outcome = func(c *TypeCount) { c.Added++ }
	case found && have == want:
		w.sum.SkippedDuplicate++
		outcome = func(c *TypeCount) { c.Duplicate++ }
	case found && last.Valid && have == last.String:
		if err := w.updateOwn(r, id); err != nil {
			return err
		}
		w.sum.Updated++
		outcome = func(c *TypeCount) { c.Updated++ }
	default:
		w.sum.KeptEdits++
		outcome = func(c *TypeCount) { c.Kept++ }
	}
	w.sum.count(r.label, outcome)
	if last.Valid && last.String == want {
		return nil
	}
	if _, err := w.q.ExecContext(w.ctx, `INSERT INTO import_ledger (member_id, kind, source, source_key, values_hash, import_id)
		VALUES (?,?,?,?,?,?) ON CONFLICT DO UPDATE SET values_hash = excluded.values_hash, import_id = excluded.import_id`,
		w.member, kind, o.source, ledgerKey, want, w.importID); err != nil {
		return fmt.Errorf("importer: write ledger: %w", err)
	}
	return nil
}

// updateOwn rewrites row id with r's values (body scans have no import id).
func (w *writer) updateOwn(r *record, id int64) error {
	if r.kind != recBodyScan {
		return w.update(r, id)
	}
	x := &r.scan
	if _, err := w.q.ExecContext(w.ctx, `UPDATE body_scans SET scanned_at = ?, body_fat_pct = ?, lean_mass_kg = ?, fat_mass_kg = ?,
		bone_mass_kg = ?, visceral_fat = ? WHERE id = ?`, store.FormatTime(x.ScannedAt), store.NullFloat(x.BodyFatPct),
		store.NullFloat(x.LeanMassKg), store.NullFloat(x.FatMassKg), store.NullFloat(x.BoneMassKg), store.NullFloat(x.VisceralFat), id); err != nil {
		return fmt.Errorf("importer: update body scan: %w", err)
	}
	return nil
}
