package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"hearth/internal/health"
)

// Range selects records whose time is in [From, To); a zero bound is open.
type Range struct {
	From, To time.Time
	Limit    int   // 0 = no limit
	Desc     bool  // newest first
	ID       int64 // only this entry (0 = any)
}

func (r Range) where(col string) (string, []any) {
	q, args := "", []any{}
	if r.ID != 0 {
		q += " AND id = ?"
		args = append(args, r.ID)
	}
	if !r.From.IsZero() {
		q += " AND " + col + " >= ?"
		args = append(args, FormatTime(r.From))
	}
	if !r.To.IsZero() {
		q += " AND " + col + " < ?"
		args = append(args, FormatTime(r.To))
	}
	order := " ORDER BY " + col + ", id"
	if r.Desc {
		order = " ORDER BY " + col + " DESC, id DESC"
	}
	q += order
	if r.Limit > 0 {
		q += fmt.Sprintf(" LIMIT %d", r.Limit)
	}
	return q, args
}

func source(s string) string {
	if s == "" {
		return "manual"
	}
	return s
}

// InsertWeight inserts a reading. With a SourceKey already stored for the
// member and source it inserts nothing and reports added=false, which makes
// imports idempotent.
func InsertWeight(ctx context.Context, q Queryer, now time.Time, r *health.WeightReading) (added bool, err error) {
	r.Source = source(r.Source)
	res, err := q.ExecContext(ctx, `INSERT INTO weight_readings (member_id, measured_at, weight_kg, body_fat_pct,
		lean_mass_kg, source, source_key, created_at) VALUES (?,?,?,?,?,?,?,?) ON CONFLICT DO NOTHING`,
		r.MemberID, FormatTime(r.MeasuredAt), r.WeightKg, NullFloat(r.BodyFatPct), NullFloat(r.LeanMassKg),
		r.Source, NullString(r.SourceKey), FormatTime(now))
	return inserted(res, err, &r.ID, "weight")
}

func inserted(res sql.Result, err error, id *int64, what string) (bool, error) {
	if err != nil {
		return false, fmt.Errorf("store: insert %s: %w", what, err)
	}
	n, err := res.RowsAffected()
	if err != nil || n == 0 {
		return false, err
	}
	*id, err = res.LastInsertId()
	return true, err
}

// AddWeight stores one reading.
func (db *DB) AddWeight(ctx context.Context, r health.WeightReading) (health.WeightReading, error) {
	_, err := InsertWeight(ctx, db.Write, db.Now(), &r)
	return r, err
}

// Weights lists a member's readings in the range.
func (db *DB) Weights(ctx context.Context, member string, rg Range) ([]health.WeightReading, error) {
	w, args := rg.where("measured_at")
	out, err := All(ctx, db.Read, func(row Scanner) (health.WeightReading, error) {
		var r health.WeightReading
		var at string
		var bf, lean sql.NullFloat64
		if err := row.Scan(&r.ID, &r.MemberID, &at, &r.WeightKg, &bf, &lean, &r.Source); err != nil {
			return r, err
		}
		r.BodyFatPct, r.LeanMassKg = FloatPtr(bf), FloatPtr(lean)
		var err error
		r.MeasuredAt, err = ParseTime(at)
		return r, err
	}, `SELECT id, member_id, measured_at, weight_kg, body_fat_pct, lean_mass_kg, source
		FROM weight_readings WHERE member_id = ?`+w, append([]any{member}, args...)...)
	if err != nil {
		return nil, fmt.Errorf("store: weights: %w", err)
	}
	return out, nil
}

// InsertMeal inserts a nutrition entry (idempotent on SourceKey, see InsertWeight).
func InsertMeal(ctx context.Context, q Queryer, now time.Time, m *health.Meal) (bool, error) {
	m.Source = source(m.Source)
	res, err := q.ExecContext(ctx, `INSERT INTO meals (member_id, eaten_at, name, calories, protein_g, carbs_g, fat_g,
		source, source_key, created_at) VALUES (?,?,?,?,?,?,?,?,?,?) ON CONFLICT DO NOTHING`,
		m.MemberID, FormatTime(m.EatenAt), m.Name, m.Calories, m.ProteinG, m.CarbsG, m.FatG,
		m.Source, NullString(m.SourceKey), FormatTime(now))
	return inserted(res, err, &m.ID, "meal")
}

// AddMeal stores one meal.
func (db *DB) AddMeal(ctx context.Context, m health.Meal) (health.Meal, error) {
	_, err := InsertMeal(ctx, db.Write, db.Now(), &m)
	return m, err
}

// Meals lists a member's meals in the range.
func (db *DB) Meals(ctx context.Context, member string, rg Range) ([]health.Meal, error) {
	w, args := rg.where("eaten_at")
	out, err := All(ctx, db.Read, func(row Scanner) (health.Meal, error) {
		var m health.Meal
		var at string
		if err := row.Scan(&m.ID, &m.MemberID, &at, &m.Name, &m.Calories, &m.ProteinG, &m.CarbsG, &m.FatG, &m.Source); err != nil {
			return m, err
		}
		var err error
		m.EatenAt, err = ParseTime(at)
		return m, err
	}, `SELECT id, member_id, eaten_at, name, calories, protein_g, carbs_g, fat_g, source
		FROM meals WHERE member_id = ?`+w, append([]any{member}, args...)...)
	if err != nil {
		return nil, fmt.Errorf("store: meals: %w", err)
	}
	return out, nil
}

// InsertWorkout inserts a workout (idempotent on SourceKey, see InsertWeight).
func InsertWorkout(ctx context.Context, q Queryer, now time.Time, w *health.Workout) (bool, error) {
	w.Source = source(w.Source)
	res, err := q.ExecContext(ctx, `INSERT INTO workouts (member_id, started_at, type, title, duration_min, avg_hr, max_hr,
		energy_kcal, distance_km, content_id, source, source_key, created_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)
		ON CONFLICT DO NOTHING`,
		w.MemberID, FormatTime(w.StartedAt), w.Type, w.Title, w.DurationMin, NullInt(w.AvgHR), NullInt(w.MaxHR),
		NullFloat(w.EnergyKcal), NullFloat(w.DistanceKm), NullString(w.ContentID), w.Source, NullString(w.SourceKey),
		FormatTime(now))
	return inserted(res, err, &w.ID, "workout")
}

// AddWorkout stores one workout.
func (db *DB) AddWorkout(ctx context.Context, w health.Workout) (health.Workout, error) {
	_, err := InsertWorkout(ctx, db.Write, db.Now(), &w)
	return w, err
}

// Workouts lists a member's workouts in the range.
func (db *DB) Workouts(ctx context.Context, member string, rg Range) ([]health.Workout, error) {
	w, args := rg.where("started_at")
	out, err := All(ctx, db.Read, func(row Scanner) (health.Workout, error) {
		var x health.Workout
		var at string
		var avg, mx sql.NullInt64
		var kcal, km sql.NullFloat64
		var content sql.NullString
		if err := row.Scan(&x.ID, &x.MemberID, &at, &x.Type, &x.Title, &x.DurationMin, &avg, &mx, &kcal, &km, &content, &x.Source); err != nil {
			return x, err
		}
		x.AvgHR, x.MaxHR, x.EnergyKcal, x.DistanceKm, x.ContentID = IntPtr(avg), IntPtr(mx), FloatPtr(kcal), FloatPtr(km), content.String
		var err error
		x.StartedAt, err = ParseTime(at)
		return x, err
	}, `SELECT id, member_id, started_at, type, title, duration_min, avg_hr, max_hr,
		energy_kcal, distance_km, content_id, source FROM workouts WHERE member_id = ?`+w, append([]any{member}, args...)...)
	if err != nil {
		return nil, fmt.Errorf("store: workouts: %w", err)
	}
	return out, nil
}

// InsertBodyScan inserts a scan; like InsertWeight it inserts nothing for a
// SourceKey already stored for the member and source.
func InsertBodyScan(ctx context.Context, q Queryer, now time.Time, s *health.BodyScan) (bool, error) {
	s.Source = source(s.Source)
	res, err := q.ExecContext(ctx, `INSERT INTO body_scans (member_id, scanned_at, body_fat_pct, lean_mass_kg, fat_mass_kg,
		bone_mass_kg, visceral_fat, source, source_key, created_at) VALUES (?,?,?,?,?,?,?,?,?,?) ON CONFLICT DO NOTHING`,
		s.MemberID, FormatTime(s.ScannedAt), NullFloat(s.BodyFatPct), NullFloat(s.LeanMassKg), NullFloat(s.FatMassKg), NullFloat(s.BoneMassKg),
		NullFloat(s.VisceralFat), s.Source, NullString(s.SourceKey), FormatTime(now))
	return inserted(res, err, &s.ID, "body scan")
}

// AddBodyScan stores one scan.
func (db *DB) AddBodyScan(ctx context.Context, s health.BodyScan) (health.BodyScan, error) {
	_, err := InsertBodyScan(ctx, db.Write, db.Now(), &s)
	return s, err
}

// BodyScans lists a member's scans in the range.
func (db *DB) BodyScans(ctx context.Context, member string, rg Range) ([]health.BodyScan, error) {
	w, args := rg.where("scanned_at")
	out, err := All(ctx, db.Read, func(row Scanner) (health.BodyScan, error) {
		var s health.BodyScan
		var at string
		var bf, lean, fm, bm, vf sql.NullFloat64
		if err := row.Scan(&s.ID, &s.MemberID, &at, &bf, &lean, &fm, &bm, &vf, &s.Source); err != nil {
			return s, err
		}
		s.BodyFatPct, s.LeanMassKg = FloatPtr(bf), FloatPtr(lean)
		s.FatMassKg, s.BoneMassKg, s.VisceralFat = FloatPtr(fm), FloatPtr(bm), FloatPtr(vf)
		var err error
		s.ScannedAt, err = ParseTime(at)
		return s, err
	}, `SELECT id, member_id, scanned_at, body_fat_pct, lean_mass_kg, fat_mass_kg,
		bone_mass_kg, visceral_fat, source FROM body_scans WHERE member_id = ?`+w, append([]any{member}, args...)...)
	if err != nil {
		return nil, fmt.Errorf("store: body scans: %w", err)
	}
	return out, nil
}
