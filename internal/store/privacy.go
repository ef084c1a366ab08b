package store

import (
	"context"
	"fmt"

	"hearth/internal/apperr"
)

// SetPrivateFigures turns a member's "private figures" flag on or off: when
// on, the shared household screen hides their weight, body composition and
// coach notes, and their dashboard blurs them until tapped.
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
