package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"hearth/internal/apperr"
	"hearth/internal/health"
)

const memberCols = `id, name, color, avatar, unit, calories_target, protein_g, carbs_g, fat_g,
	goal_weight_kg, height_cm, birth_date, sex, activity_level, private_figures, role, created_at`

// memberSelect reads a member: its columns and whether it has a PIN (the
// hash itself is read only to check a PIN).
const memberSelect = memberCols + `, pin_hash IS NOT NULL`

func scanMember(row Scanner) (health.Member, error) {
	var (
		m                     health.Member
		unit, created         string
		cal, p, c, f, goal, h sql.NullFloat64
		birth, sex, activity  sql.NullString
		private               bool
		role                  string
	)
	if err := row.Scan(&m.ID, &m.Name, &m.Color, &m.Avatar, &unit, &cal, &p, &c, &f, &goal, &h,
		&birth, &sex, &activity, &private, &role, &created, &m.HasPIN); err != nil {
		return m, err
	}
	m.Unit = health.Unit(unit)
	m.Targets = health.Targets{Calories: FloatPtr(cal), ProteinG: FloatPtr(p), CarbsG: FloatPtr(c), FatG: FloatPtr(f)}
	m.GoalWeightKg, m.HeightCm = FloatPtr(goal), FloatPtr(h)
	if birth.Valid && birth.String != "" {
		if t, err := time.Parse(time.DateOnly, birth.String); err == nil {
			m.BirthDate = &t
		}
	}
	m.Sex, m.ActivityLevel, m.PrivateFigures, m.Role = sex.String, activity.String, private, health.Role(role)
	var err error
	m.CreatedAt, err = ParseTime(created)
	return m, err
}

// ListMembers returns the household ordered by creation.
func (db *DB) ListMembers(ctx context.Context) ([]health.Member, error) {
	out, err := All(ctx, db.Read, scanMember, `SELECT `+memberSelect+` FROM members ORDER BY created_at, id`)
	if err != nil {
		return nil, fmt.Errorf("store: list members: %w", err)
	}
	return out, nil
}

// Member returns one member, or an apperr.NotFound error.
func (db *DB) Member(ctx context.Context, id string) (health.Member, error) {
	m, err := scanMember(db.Read.QueryRowContext(ctx, `SELECT `+memberSelect+` FROM members WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return m, apperr.NotFoundf("no member %q", id)
	}
	if err != nil {
		return m, fmt.Errorf("store: member %q: %w", id, err)
	}
	return m, nil
}

// CountMembers returns how many members exist.
func (db *DB) CountMembers(ctx context.Context) (int, error) {
	var n int
	err := db.Read.QueryRowContext(ctx, `SELECT count(*) FROM members`).Scan(&n)
	return n, err
}

func memberArgs(m health.Member) []any {
	var birth sql.NullString
	if m.BirthDate != nil {
		birth = sql.NullString{String: m.BirthDate.Format(time.DateOnly), Valid: true}
	}
	return []any{m.Name, m.Color, m.Avatar, string(m.Unit.Normalize()), NullFloat(m.Targets.Calories), NullFloat(m.Targets.ProteinG),
		NullFloat(m.Targets.CarbsG), NullFloat(m.Targets.FatG), NullFloat(m.GoalWeightKg), NullFloat(m.HeightCm),
		birth, NullString(m.Sex), NullString(m.ActivityLevel), m.PrivateFigures, string(m.Role.OrAdult())}
}

// CreateMember inserts a member; a taken id is a Conflict.
func (db *DB) CreateMember(ctx context.Context, m health.Member) (health.Member, error) {
	return m, db.Tx(ctx, func(tx *Tx) error { return CreateMemberTx(ctx, tx, db.Now(), &m) })
}

// CreateMemberTx inserts a member inside a transaction.
func CreateMemberTx(ctx context.Context, q Queryer, now time.Time, m *health.Member) error {
	if m.Color == "" {
		m.Color = "#4f8cff"
	}
	m.Unit = m.Unit.Normalize()
	m.CreatedAt = now.UTC().Truncate(time.Millisecond)
	args := append([]any{m.ID}, memberArgs(*m)...)
	args = append(args, FormatTime(m.CreatedAt))
	_, err := q.ExecContext(ctx, `INSERT INTO members (`+memberCols+`) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`, args...)
	if err != nil {
		if isUnique(err) {
			return apperr.New(apperr.Conflict, "member %q already exists", m.ID)
		}
		return fmt.Errorf("store: create member: %w", err)
	}
	return nil
}

// UpdateMember replaces a member's editable fields.
func (db *DB) UpdateMember(ctx context.Context, m health.Member) error {
	args := append(memberArgs(m), m.ID)
	res, err := db.Write.ExecContext(ctx, `UPDATE members SET name=?, color=?, avatar=?, unit=?, calories_target=?,
		protein_g=?, carbs_g=?, fat_g=?, goal_weight_kg=?, height_cm=?, birth_date=?, sex=?, activity_level=?,
		private_figures=?, role=? WHERE id=?`, args...)
	if err != nil {
		return fmt.Errorf("store: update member: %w", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return apperr.NotFoundf("no member %q", m.ID)
	}
	return nil
}
