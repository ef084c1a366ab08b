package importer

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"hearth/internal/apperr"
	"hearth/internal/store"
)

// GetRun returns one import, or an apperr.NotFound error (tests read back
// what an import recorded).
func GetRun(ctx context.Context, db *store.DB, id int64) (Run, error) {
	r, err := scanRun(db.Read.QueryRowContext(ctx, `SELECT `+runCols+` FROM imports WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return r, apperr.NotFoundf("no import %d", id)
	}
	if err != nil {
		return r, fmt.Errorf("importer: import %d: %w", id, err)
	}
	return r, nil
}
