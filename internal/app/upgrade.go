package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"hearth/internal/backup"
	"hearth/internal/store"
)

// OpenDatabase opens the database (for the server and `hearth import`) so that an upgrade cannot cost
// the household its data:
//   - a database a newer Hearth wrote is refused before anything opens it
//     for writing (the check `hearth restore` makes), so it stays untouched;
//   - an existing database this binary would migrate is backed up first (a
//     verified archive in the backup directory, logged with its path; the
//     archive a rollback restores with the previous binary);
//   - when a migration fails, the database is put back from that archive,
//     as it was before the start, and the error says so.
func OpenDatabase(ctx context.Context, cfg Config, logger *slog.Logger) (*store.DB, error) {
	// The data directory holding the database is private (0700), checked
	// and tightened at every start; a database kept elsewhere
	// (HEARTH_DB) leaves its directory to the operator.
	if dir := filepath.Clean(cfg.DataDir); cfg.DataDir != "" && filepath.Dir(filepath.Clean(cfg.DBPath)) == dir {
		if err := store.Private(dir, store.PrivateDir, logger); err != nil {
			return nil, fmt.Errorf("app: %w", err)
		}
	}
	schema, exists, err := fileSchema(ctx, cfg.DBPath)
	if err != nil {
		return nil, err
	}
	if err := schema.Err(); err != nil {
		return nil, fmt.Errorf("app: %s: %w (nothing was changed)", cfg.DBPath, err)
	}
	var before backup.Archive
	if exists && schema.Version > 0 && len(schema.Pending) > 0 {
		if before, err = backupBeforeUpgrade(ctx, cfg, schema, logger); err != nil {
			return nil, err
		}
	}
	db, err := store.Open(ctx, cfg.DBPath, logger)
	if err == nil || before.Path == "" || !errors.Is(err, store.ErrMigrate) {
		return db, err // a fresh database that failed to migrate has nothing to put back
	}
	// Migrations before the failed one committed: undo them all. Not under
	// ctx, which a stop request may have ended mid-migration.
	aside, rerr := backup.RestoreDatabase(context.WithoutCancel(ctx), before.Path, cfg.DBPath, time.Now())
	if rerr != nil {
		return nil, fmt.Errorf("app: upgrading %s failed (%w), and putting it back failed too (%v): restore %s with `hearth restore` and the previous Hearth",
			cfg.DBPath, err, rerr, before.Path)
	}
	logger.Error("upgrade failed: the database was put back as it was", "db", cfg.DBPath, "backup", before.Path,
		"failed_copy", aside, "err", err)
	return nil, fmt.Errorf("app: %w, so it was put back as it was before (from %s; the half-upgraded copy is %s): %w",
		ErrUpgradeFailed, before.Path, aside, err)
}

// ErrUpgradeFailed marks a start whose migrations failed on an existing
// database, which was then put back as it was: retrying would fail the same
// way (and back up again), so it needs a person.
var ErrUpgradeFailed = errors.New("upgrading the database failed")

// fileSchema reads the schema of the database at path without writing to
// it; exists is false when there is no database yet (or an empty file).
func fileSchema(ctx context.Context, path string) (s store.Schema, exists bool, err error) {
	fi, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) || (err == nil && fi.Size() == 0) {
		return store.Schema{}, false, nil
	}
	if err != nil {
		return store.Schema{}, false, fmt.Errorf("app: %w", err)
	}
	s, err = store.PeekSchema(ctx, path)
	if err != nil {
		return s, true, fmt.Errorf("app: read the schema of %s: %w", path, err)
	}
	return s, true, nil
}

// backupBeforeUpgrade makes the pre-upgrade archive, logging where it is.
func backupBeforeUpgrade(ctx context.Context, cfg Config, s store.Schema, logger *slog.Logger) (backup.Archive, error) {
	logger.Info("the database needs upgrading: backing it up first", "db", cfg.DBPath, "schema", s.Version,
		"to_schema", store.LatestVersion(), "pending", len(s.Pending), "backup_dir", cfg.backupDirectory())
	started, phase := time.Now(), ""
	a, err := backup.Create(ctx, backup.CreateOptions{DBPath: cfg.DBPath, DataDir: cfg.dataDirectory(), Dir: cfg.backupDirectory(),
		Trigger: backup.TriggerUpgrade, Progress: func(p backup.Progress) {
			if p.Phase != phase { // a large household (local videos) takes a while: say where it is
				phase = p.Phase
				logger.Info("backup before upgrading", "phase", p.Phase, "bytes", p.Total)
			}
		}})
	if err != nil {
		return a, fmt.Errorf("app: the database needs upgrading from schema %d to %d, and the backup before it failed, so nothing was changed "+
			"(free space there, or point HEARTH_BACKUP_DIR elsewhere): %w", s.Version, store.LatestVersion(), err)
	}
	logger.Info("backed up before upgrading", "archive", a.Path, "bytes", a.Size, "schema", a.Schema,
		"took", time.Since(started).Round(time.Millisecond))
	return a, nil
}
