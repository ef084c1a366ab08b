package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"hearth/internal/apperr"
)

// SetPrivateFigures turns a member's "private figures" flag on or off: when
// on, shared screens leave out their weight, body composition and coach
// notes until unlocked.
func (db *DB) SetPrivateFigures(ctx context.Context, member string, on bool) error {
	res, err := db.Write.ExecContext(ctx, `UPDATE members SET private_figures = ? WHERE id = ?`, on, member)
	if err != nil {
		return fmt.Errorf("store: set private figures of %q: %w", member, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return apperr.NotFoundf("no member %q", member)
	}
	return nil
}

// SetMemberPIN stores a member's PIN hash ("" removes the PIN).
func (db *DB) SetMemberPIN(ctx context.Context, member, hash string) error {
	var v any
	if hash != "" {
		v = hash
	}
	res, err := db.Write.ExecContext(ctx, `UPDATE members SET pin_hash = ? WHERE id = ?`, v, member)
	if err != nil {
		return fmt.Errorf("store: set the PIN of %q: %w", member, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return apperr.NotFoundf("no member %q", member)
	}
	return nil
}

// MemberPINHash is a member's PIN hash ("" : no PIN).
func (db *DB) MemberPINHash(ctx context.Context, member string) (string, error) {
	var h sql.NullString
	err := db.Read.QueryRowContext(ctx, `SELECT pin_hash FROM members WHERE id = ?`, member).Scan(&h)
	if errors.Is(err, sql.ErrNoRows) {
		return "", apperr.NotFoundf("no member %q", member)
	}
	if err != nil {
		return "", fmt.Errorf("store: the PIN of %q: %w", member, err)
	}
	return h.String, nil
}
