package store

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/pressly/goose/v3"
)

// bodyScansOneFigureVersion is the goose version of the body_scans rebuild
// (a Go migration in the imports range, see migrations/embed.go).
const bodyScansOneFigureVersion = 42

// bodyScansOneFigureMigration lets a body scan hold only one of its two
// figures: an imported body-fat or lean-mass reading with no weigh-in nearby
// is a body-composition entry of its own (internal/importer). SQLite cannot
// drop NOT NULL in place, so the table is rebuilt. It is Go, not SQL,
// because migration 70 adds a unique index on the table: on a new database
// 42 runs first and 70 creates the index; on one that already has 70, the
// rebuild (which drops the table's indexes) must put it back.
func bodyScansOneFigureMigration() *goose.Migration {
	return goose.NewGoMigration(bodyScansOneFigureVersion, &goose.GoFunc{RunTx: RebuildBodyScans}, nil)
}

const bodyScansKeyIndex = `CREATE UNIQUE INDEX body_scans_source_key ON body_scans(member_id, source, source_key)`

// RebuildBodyScans is migration 42 (exported for its test).
func RebuildBodyScans(ctx context.Context, tx *sql.Tx) error {
	var keyIndex int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'body_scans_source_key'`).
		Scan(&keyIndex); err != nil {
		return fmt.Errorf("store: body_scans indexes: %w", err)
	}
	stmts := []string{
		`CREATE TABLE body_scans_new (
			id           INTEGER PRIMARY KEY,
			member_id    TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
			scanned_at   TEXT NOT NULL,
			body_fat_pct REAL CHECK (body_fat_pct IS NULL OR (body_fat_pct >= 0 AND body_fat_pct <= 100)),
			lean_mass_kg REAL CHECK (lean_mass_kg IS NULL OR lean_mass_kg > 0),
			fat_mass_kg  REAL,
			bone_mass_kg REAL,
			visceral_fat REAL,
			source       TEXT NOT NULL DEFAULT 'manual',
			source_key   TEXT,
			created_at   TEXT NOT NULL,
			CHECK (body_fat_pct IS NOT NULL OR lean_mass_kg IS NOT NULL)
		)`,
		`INSERT INTO body_scans_new (id, member_id, scanned_at, body_fat_pct, lean_mass_kg, fat_mass_kg, bone_mass_kg,
			visceral_fat, source, source_key, created_at)
		SELECT id, member_id, scanned_at, body_fat_pct, lean_mass_kg, fat_mass_kg, bone_mass_kg,
			visceral_fat, source, source_key, created_at FROM body_scans`,
		`DROP TABLE body_scans`,
		`ALTER TABLE body_scans_new RENAME TO body_scans`,
		`CREATE INDEX scans_member_time ON body_scans(member_id, scanned_at)`,
	}
	if keyIndex > 0 {
		stmts = append(stmts, bodyScansKeyIndex)
	}
	for _, q := range stmts {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("store: rebuild body_scans: %w", err)
		}
	}
	return nil
}
