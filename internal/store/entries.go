package store

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"hearth/internal/apperr"
	"hearth/internal/health"
)

// EntryKind is a kind of health entry a member can correct or delete.
type EntryKind string

// Entry kinds, as they appear in URLs (/weight, /meals, …) and the trash.
const (
	EntryWeight  EntryKind = "weight"
	EntryMeal    EntryKind = "meal"
	EntryWorkout EntryKind = "workout"
	EntryScan    EntryKind = "body-scan"
)

var entryTable = map[EntryKind]string{
	EntryWeight: "weight_readings", EntryMeal: "meals", EntryWorkout: "workouts", EntryScan: "body_scans",
}

// Valid reports whether k is one of the entry kinds.
func (k EntryKind) Valid() bool { _, ok := entryTable[k]; return ok }

// TrashKeep is how long a deleted entry can be restored.
const TrashKeep = 24 * time.Hour

// changed turns "no row matched" into NotFound: the entry does not exist,
// or belongs to another member (which callers must not learn).
func changed(res sql.Result, err error, what string, id int64) error {
	if err != nil {
		return fmt.Errorf("store: update %s %d: %w", what, id, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("store: update %s %d: %w", what, id, err)
	} else if n == 0 {
		return apperr.NotFoundf("no %s %d for this member", what, id)
	}
	return nil
}

// UpdateWeight saves a reading's values (the member and id select it;
// source and import key stay, so the import ledger sees the edit).
func (db *DB) UpdateWeight(ctx context.Context, r health.WeightReading) error {
	res, err := db.Write.ExecContext(ctx, `UPDATE weight_readings SET measured_at = ?, weight_kg = ?, body_fat_pct = ?,
		lean_mass_kg = ? WHERE id = ? AND member_id = ?`, FormatTime(r.MeasuredAt), r.WeightKg, NullFloat(r.BodyFatPct),
		NullFloat(r.LeanMassKg), r.ID, r.MemberID)
	return changed(res, err, "weigh-in", r.ID)
}

// UpdateMeal saves a meal's values.
func (db *DB) UpdateMeal(ctx context.Context, m health.Meal) error {
	res, err := db.Write.ExecContext(ctx, `UPDATE meals SET eaten_at = ?, name = ?, calories = ?, protein_g = ?, carbs_g = ?,
		fat_g = ? WHERE id = ? AND member_id = ?`, FormatTime(m.EatenAt), m.Name, m.Calories, m.ProteinG, m.CarbsG, m.FatG,
		m.ID, m.MemberID)
	return changed(res, err, "meal", m.ID)
}

// UpdateWorkout saves a workout's values.
func (db *DB) UpdateWorkout(ctx context.Context, w health.Workout) error {
	res, err := db.Write.ExecContext(ctx, `UPDATE workouts SET started_at = ?, type = ?, title = ?, duration_min = ?,
		avg_hr = ?, max_hr = ?, content_id = ? WHERE id = ? AND member_id = ?`, FormatTime(w.StartedAt), w.Type, w.Title,
		w.DurationMin, NullInt(w.AvgHR), NullInt(w.MaxHR), NullString(w.ContentID), w.ID, w.MemberID)
	return changed(res, err, "workout", w.ID)
}

// UpdateBodyScan saves a scan's values.
func (db *DB) UpdateBodyScan(ctx context.Context, s health.BodyScan) error {
	res, err := db.Write.ExecContext(ctx, `UPDATE body_scans SET scanned_at = ?, body_fat_pct = ?, lean_mass_kg = ?,
		fat_mass_kg = ?, bone_mass_kg = ?, visceral_fat = ? WHERE id = ? AND member_id = ?`, FormatTime(s.ScannedAt),
		NullFloat(s.BodyFatPct), NullFloat(s.LeanMassKg), NullFloat(s.FatMassKg), NullFloat(s.BoneMassKg),
		NullFloat(s.VisceralFat), s.ID, s.MemberID)
	return changed(res, err, "body scan", s.ID)
}

// TrashedEntry is a deleted entry that can still be restored.
type TrashedEntry struct {
	ID        int64     `json:"id"`
	MemberID  string    `json:"member"`
	Kind      EntryKind `json:"kind"`
	EntryID   int64     `json:"entry_id"`
	DeletedAt time.Time `json:"deleted_at"`
}

// DeleteEntry deletes one of the member's entries, keeping a copy of the row
// in the trash for TrashKeep (RestoreEntry brings it back). Another
// member's id is NotFound. Trash older than TrashKeep is purged on the way.
func (db *DB) DeleteEntry(ctx context.Context, member string, kind EntryKind, id int64) (TrashedEntry, error) {
	table, ok := entryTable[kind]
	if !ok {
		return TrashedEntry{}, apperr.Invalidf("unknown kind of entry %q", kind)
	}
	now := db.Now().UTC()
	t := TrashedEntry{MemberID: member, Kind: kind, EntryID: id, DeletedAt: now.Truncate(time.Millisecond)}
	err := db.Tx(ctx, func(tx *Tx) error {
		row, err := rowJSON(ctx, tx, table, member, id)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM entry_trash WHERE deleted_at < ?`, FormatTime(now.Add(-TrashKeep))); err != nil {
			return fmt.Errorf("store: purge trash: %w", err)
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO entry_trash (member_id, kind, entry_id, row, deleted_at) VALUES (?,?,?,?,?)`,
			member, string(kind), id, row, FormatTime(now))
		if err != nil {
			return fmt.Errorf("store: trash %s %d: %w", kind, id, err)
		}
		if t.ID, err = res.LastInsertId(); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM `+table+` WHERE id = ? AND member_id = ?`, id, member)
		if err != nil {
			return fmt.Errorf("store: delete %s %d: %w", kind, id, err)
		}
		return nil
	})
	return t, err
}

// rowJSON reads one of the member's rows of table as a JSON object of its
// columns (so a later column is kept without this code knowing it).
func rowJSON(ctx context.Context, q Queryer, table, member string, id int64) (string, error) {
	rows, err := q.QueryContext(ctx, `SELECT * FROM `+table+` WHERE id = ? AND member_id = ?`, id, member)
	if err != nil {
		return "", fmt.Errorf("store: read %s %d: %w", table, id, err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return "", err
	}
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return "", err
		}
		return "", apperr.NotFoundf("no entry %d for this member", id)
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	if err := rows.Scan(ptrs...); err != nil {
		return "", err
	}
	obj := make(map[string]any, len(cols))
	for i, c := range cols {
		if b, ok := vals[i].([]byte); ok {
			vals[i] = string(b)
		}
		obj[c] = vals[i]
	}
	raw, err := json.Marshal(obj)
	return string(raw), err
}

// RestoreEntry puts a trashed entry back, with its id when that is still
// free, and returns its kind and id. A trash id of another member, or one
// purged already, is NotFound.
func (db *DB) RestoreEntry(ctx context.Context, member string, trashID int64) (TrashedEntry, error) {
	var t TrashedEntry
	err := db.Tx(ctx, func(tx *Tx) error {
		var kind, row, at string
		err := tx.QueryRowContext(ctx, `SELECT kind, entry_id, row, deleted_at FROM entry_trash WHERE id = ? AND member_id = ?`,
			trashID, member).Scan(&kind, &t.EntryID, &row, &at)
		if errors.Is(err, sql.ErrNoRows) {
			return apperr.NotFoundf("nothing to undo: the entry is gone for good")
		}
		if err != nil {
			return fmt.Errorf("store: read trash %d: %w", trashID, err)
		}
		t.ID, t.MemberID, t.Kind = trashID, member, EntryKind(kind)
		if t.DeletedAt, err = ParseTime(at); err != nil {
			return err
		}
		table, ok := entryTable[t.Kind]
		if !ok {
			return fmt.Errorf("store: trash %d holds an unknown kind %q", trashID, kind)
		}
		dec := json.NewDecoder(bytes.NewReader([]byte(row)))
		dec.UseNumber()
		var obj map[string]any
		if err := dec.Decode(&obj); err != nil {
			return fmt.Errorf("store: trash %d: %w", trashID, err)
		}
		var free int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM `+table+` WHERE id = ?`, t.EntryID).Scan(&free); err != nil {
			return err
		}
		if free > 0 { // the id went to a newer entry: the restored one gets a new id
			delete(obj, "id")
		}
		id, err := insertRow(ctx, tx, table, obj)
		if err != nil {
			if IsUnique(err) {
				return apperr.New(apperr.Conflict, "the entry is back already (imported again since)")
			}
			return err
		}
		t.EntryID = id
		_, err = tx.ExecContext(ctx, `DELETE FROM entry_trash WHERE id = ?`, trashID)
		return err
	})
	return t, err
}

// insertRow inserts obj's columns into table (the names come from the row
// rowJSON read, checked against the table's columns).
func insertRow(ctx context.Context, tx *Tx, table string, obj map[string]any) (int64, error) {
	known, err := All(ctx, tx, Value[string], `SELECT name FROM pragma_table_info(?)`, table)
	if err != nil {
		return 0, err
	}
	cols := make([]string, 0, len(obj))
	args := make([]any, 0, len(obj))
	for _, c := range known {
		v, ok := obj[c]
		if !ok {
			continue
		}
		if n, ok := v.(json.Number); ok {
			if i, err := n.Int64(); err == nil {
				v = i
			} else if f, err := n.Float64(); err == nil {
				v = f
			}
		}
		cols = append(cols, `"`+c+`"`)
		args = append(args, v)
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO `+table+` (`+strings.Join(cols, ", ")+`) VALUES (`+
		strings.TrimSuffix(strings.Repeat("?, ", len(cols)), ", ")+`)`, args...)
	if err != nil {
		return 0, fmt.Errorf("store: restore into %s: %w", table, err)
	}
	return res.LastInsertId()
}
