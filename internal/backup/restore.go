package backup

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"hearth/internal/store"
)

// RestoreOptions say where the restored data goes.
type RestoreOptions struct {
	DBPath  string
	DataDir string
	Now     func() time.Time
	Logger  *slog.Logger
}

// RestoreResult says what a restore did.
type RestoreResult struct {
	Manifest Manifest
	// Migrated are the schema versions applied to the restored database
	// (it came from an older Hearth).
	Migrated []int64
	// ReplacedDB is where the database that was in place now is ("" when
	// there was none); ReplacedVoice likewise for the voice memos.
	ReplacedDB    string
	ReplacedVoice string
	Files         int
}

// Restore replaces the database (and the voice memos and media it refers
// to) with the archive's, with the server stopped. It checks the whole
// archive first (entry names, checksums, integrity, a schema this binary
// knows, and nothing in its schema but what this binary's migrations
// create for that version), migrates an older database, and only then moves the current
// database and voice memos aside, beside them, with a ".replaced-<time>"
// suffix. Nothing is changed when a check fails.
func Restore(ctx context.Context, archive string, opt RestoreOptions) (RestoreResult, error) {
	var res RestoreResult
	if opt.Now == nil {
		opt.Now = time.Now
	}
	if opt.Logger == nil {
		opt.Logger = slog.New(slog.DiscardHandler)
	}
	if err := os.MkdirAll(opt.DataDir, store.PrivateDir); err != nil {
		return res, fmt.Errorf("restore: %w", err)
	}
	release, err := store.LockFile(opt.DBPath)
	if err != nil {
		if errors.Is(err, store.ErrInUse) {
			return res, fmt.Errorf("restore: Hearth is running on %s: stop it first: %w", opt.DBPath, err)
		}
		return res, fmt.Errorf("restore: %w", err)
	}
	defer release()

	staging, err := os.MkdirTemp(opt.DataDir, ".hearth-restore-*")
	if err != nil {
		return res, fmt.Errorf("restore: %w", err)
	}
	defer os.RemoveAll(staging)
	m, err := readArchive(ctx, archive, staging, func(string) bool { return true }, func(Progress) {})
	if err != nil {
		return res, fmt.Errorf("restore: %w", err)
	}
	res.Manifest, res.Files = m, len(m.Files)
	db := filepath.Join(staging, DBName)
	if err := store.CheckIntegrity(ctx, db); err != nil {
		return res, fmt.Errorf("restore: %w: its database fails the integrity check (%v)", ErrBadArchive, err)
	}
	schema, err := store.FileSchema(ctx, db)
	if err != nil {
		return res, fmt.Errorf("restore: %w", err)
	}
	if err := schema.Err(); err != nil {
		return res, fmt.Errorf("restore: %w", err)
	}
	// Before anything runs on it (the migrations below write to it): an
	// object Hearth does not create, a trigger above all, would run inside
	// the restored server.
	if err := checkObjects(ctx, db); err != nil {
		return res, fmt.Errorf("restore: %w", err)
	}
	if len(schema.Pending) > 0 { // an older Hearth made it: bring it up to date before it goes live
		sdb, err := store.Open(ctx, db, opt.Logger)
		if err != nil {
			return res, fmt.Errorf("restore: migrate the restored database: %w", err)
		}
		if err := sdb.Close(); err != nil {
			return res, fmt.Errorf("restore: %w", err)
		}
		res.Migrated = schema.Pending
	}

	stamp := opt.Now().UTC().Format(nameTime)
	if res.ReplacedDB, err = setAsideDB(ctx, opt.DBPath, ".replaced-"+stamp); err != nil {
		return res, err
	}
	if err := moveFile(db, opt.DBPath); err != nil {
		return res, fmt.Errorf("restore: put the restored database in place: %w (the previous one is %s)", err, res.ReplacedDB)
	}
	voice := filepath.Join(opt.DataDir, "voice")
	if _, err := os.Stat(voice); err == nil {
		res.ReplacedVoice = voice + ".replaced-" + stamp
		if err := os.Rename(voice, res.ReplacedVoice); err != nil {
			return res, fmt.Errorf("restore: set the voice memos aside: %w", err)
		}
	}
	if _, err := os.Stat(filepath.Join(staging, "voice")); err == nil {
		if err := os.Rename(filepath.Join(staging, "voice"), voice); err != nil {
			return res, fmt.Errorf("restore: voice memos: %w", err)
		}
	}
	if err := restoreMedia(filepath.Join(staging, "media"), filepath.Join(opt.DataDir, "media"), stamp); err != nil {
		return res, err
	}
	for _, d := range []string{filepath.Dir(opt.DBPath), opt.DataDir} {
		if err := syncDir(d); err != nil {
			return res, fmt.Errorf("restore: %w", err)
		}
	}
	return res, nil
}

// setAsideDB checkpoints the database at path into one file and renames it
// to path+suffix; "" when there is none.
func setAsideDB(ctx context.Context, path, suffix string) (string, error) {
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return "", nil
	}
	// Fold the WAL in (a server killed with kill -9 leaves committed pages
	// there), so the file set aside is complete on its own.
	if db, err := sql.Open("sqlite3", "file:"+path+"?_busy_timeout=5000"); err == nil {
		_, cerr := db.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)")
		_ = db.Close()
		if cerr != nil {
			return "", fmt.Errorf("restore: checkpoint the current database: %w", cerr)
		}
	}
	aside := path + suffix
	if err := os.Rename(path, aside); err != nil {
		return "", fmt.Errorf("restore: set the current database aside: %w", err)
	}
	for _, sfx := range []string{"-wal", "-shm"} {
		if _, err := os.Stat(path + sfx); err == nil {
			if err := os.Rename(path+sfx, aside+sfx); err != nil {
				return aside, fmt.Errorf("restore: set %s aside: %w", path+sfx, err)
			}
		}
	}
	// The set-aside copy holds the household's data as the live one does.
	for _, p := range []string{aside, aside + "-wal", aside + "-shm"} {
		if err := store.Private(p, store.PrivateFile, nil); err != nil {
			return aside, fmt.Errorf("restore: %w", err)
		}
	}
	return aside, nil
}

// RestoreDatabase puts the database of archive back in place of dbPath,
// checked (checksums, integrity) and not migrated, leaving the voice memos
// and media alone: how a failed upgrade is undone with the backup taken
// just before it. The database it replaces is kept as dbPath.failed-<time>
// (returned). The caller holds the database's lock.
func RestoreDatabase(ctx context.Context, archive, dbPath string, now time.Time) (string, error) {
	staging, err := os.MkdirTemp(filepath.Dir(dbPath), ".hearth-restore-*")
	if err != nil {
		return "", fmt.Errorf("restore: %w", err)
	}
	defer os.RemoveAll(staging)
	if _, err := readArchiveDBOnly(ctx, archive, staging, func(Progress) {}); err != nil {
		return "", fmt.Errorf("restore: %w", err)
	}
	db := filepath.Join(staging, DBName)
	if err := store.CheckIntegrity(ctx, db); err != nil {
		return "", fmt.Errorf("restore: %w: its database fails the integrity check (%v)", ErrBadArchive, err)
	}
	aside, err := setAsideDB(ctx, dbPath, ".failed-"+now.UTC().Format(nameTime))
	if err != nil {
		return "", err
	}
	if err := moveFile(db, dbPath); err != nil {
		return aside, fmt.Errorf("restore: put the database back: %w (the one it replaces is %s)", err, aside)
	}
	if err := syncDir(filepath.Dir(dbPath)); err != nil {
		return aside, fmt.Errorf("restore: %w", err)
	}
	return aside, nil
}

// restoreMedia moves the archive's media files into place; a different
// file already there is set aside first.
func restoreMedia(from, to, stamp string) error {
	entries, err := os.ReadDir(from)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("restore: media: %w", err)
	}
	if err := os.MkdirAll(to, store.PrivateDir); err != nil {
		return fmt.Errorf("restore: media: %w", err)
	}
	for _, e := range entries {
		src, dst := filepath.Join(from, e.Name()), filepath.Join(to, e.Name())
		if same(src, dst) {
			continue
		}
		if _, err := os.Stat(dst); err == nil {
			if err := os.Rename(dst, dst+".replaced-"+stamp); err != nil {
				return fmt.Errorf("restore: media: %w", err)
			}
		}
		if err := moveFile(src, dst); err != nil {
			return fmt.Errorf("restore: media: %w", err)
		}
	}
	return nil
}

// same reports whether two files have the same size and bytes.
func same(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	if err != nil || fa.Size() != fb.Size() {
		return false
	}
	ha, _ := fileSum(a)
	hb, _ := fileSum(b)
	return ha != "" && ha == hb
}

// moveFile renames, or copies and fsyncs across file systems (HEARTH_DB on
// another disk than the data directory).
func moveFile(src, dst string) error {
	err := os.Rename(src, dst)
	if err == nil || !errors.Is(err, syscall.EXDEV) {
		return err
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		_ = out.Close()
		_ = os.Remove(dst)
		return err
	}
	if err := out.Sync(); err != nil {
		_ = out.Close()
		return err
	}
	if err := out.Close(); err != nil {
		return err
	}
	return os.Remove(src)
}

func fileSum(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	return hashReader(f)
}
