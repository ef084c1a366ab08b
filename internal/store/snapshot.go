package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"
)

// openReadOnly opens an existing database file read-only, without
// migrations (a file that does not exist is an error, never created).
func openReadOnly(path string) (*sql.DB, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	q := url.Values{}
	q.Set("mode", "ro")
	q.Set("_busy_timeout", strconv.FormatInt(BusyTimeout.Milliseconds(), 10))
	db, err := sql.Open("sqlite3", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	return db, nil
}

// ReadFile runs read on a read-only connection to the existing database
// file at path: for a command beside the server that needs a setting
// before it opens the database for real (hearth import's household time
// zone).
func ReadFile(ctx context.Context, path string, read func(ctx context.Context, db *sql.DB) error) error {
	db, err := openReadOnly(path)
	if err != nil {
		return err
	}
	defer db.Close()
	return read(ctx, db)
}

// SnapshotProgress reports a snapshot's bytes written so far out of an
// estimate of the total (the live pages of the source).
type SnapshotProgress func(done, total int64)

// Snapshot writes a consistent copy of the live database to dst, which must
// not exist, and checks the copy's integrity. It uses VACUUM INTO on a
// read-only connection of its own: one read transaction, so writers carry
// on (WAL) and the copy holds exactly the commits made before it started.
// Never copy a WAL database's file: the newest commits live in the -wal file.
func (db *DB) Snapshot(ctx context.Context, dst string, progress SnapshotProgress) error {
	return SnapshotFile(ctx, db.Path, dst, progress)
}

// SnapshotFile is Snapshot for a database file that may be served by another
// process (`hearth backup` beside the running server) or by nobody. It
// never migrates or writes the source.
func SnapshotFile(ctx context.Context, src, dst string, progress SnapshotProgress) error {
	if _, err := os.Stat(dst); err == nil {
		return fmt.Errorf("store: snapshot: %s already exists", dst)
	}
	db, err := openReadOnly(src)
	if err != nil {
		return err
	}
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("store: snapshot %s: %w", src, err)
	}
	defer conn.Close()
	var pages, free, size int64
	for _, p := range []struct {
		name string
		dst  *int64
	}{{"page_count", &pages}, {"freelist_count", &free}, {"page_size", &size}} {
		if err := conn.QueryRowContext(ctx, "PRAGMA "+p.name).Scan(p.dst); err != nil {
			return fmt.Errorf("store: snapshot %s: %w", src, err)
		}
	}
	total := (pages - free) * size
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() { // VACUUM INTO says nothing while it runs: watch the file grow.
		defer close(done)
		if progress == nil {
			return
		}
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				if fi, err := os.Stat(dst); err == nil {
					progress(min(fi.Size(), total), total)
				}
			}
		}
	}()
	_, err = conn.ExecContext(ctx, "VACUUM INTO ?", dst)
	close(stop)
	<-done
	if err != nil {
		_ = os.Remove(dst)
		return fmt.Errorf("store: snapshot %s: %w", src, err)
	}
	if err := syncFile(dst); err != nil {
		_ = os.Remove(dst)
		return fmt.Errorf("store: snapshot: %w", err)
	}
	if err := CheckIntegrity(ctx, dst); err != nil {
		_ = os.Remove(dst)
		return err
	}
	if progress != nil {
		progress(total, total)
	}
	return nil
}

func syncFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}

// ErrCorrupt marks a database file that fails SQLite's integrity check.
var ErrCorrupt = errors.New("the database file is damaged")

// CheckIntegrity runs PRAGMA integrity_check and foreign_key_check on the
// database file at path (read-only); a failure wraps ErrCorrupt and names
// the first problems.
func CheckIntegrity(ctx context.Context, path string) error {
	db, err := openReadOnly(path)
	if err != nil {
		return err
	}
	defer db.Close()
	rows, err := db.QueryContext(ctx, "PRAGMA integrity_check(20)")
	if err != nil {
		if isCorruptErr(err) {
			return fmt.Errorf("store: %s: %w: %v", path, ErrCorrupt, err)
		}
		return fmt.Errorf("store: integrity check of %s: %w", path, err)
	}
	var problems []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			_ = rows.Close()
			return fmt.Errorf("store: integrity check of %s: %w", path, err)
		}
		if line != "ok" {
			problems = append(problems, line)
		}
	}
	if err := rows.Err(); err != nil {
		_ = rows.Close()
		if isCorruptErr(err) {
			return fmt.Errorf("store: %s: %w: %v", path, ErrCorrupt, err)
		}
		return fmt.Errorf("store: integrity check of %s: %w", path, err)
	}
	_ = rows.Close()
	if len(problems) > 0 {
		return fmt.Errorf("store: %s: %w: %s", path, ErrCorrupt, strings.Join(problems, "; "))
	}
	var fkTable string
	err = db.QueryRowContext(ctx, "PRAGMA foreign_key_check").Scan(&fkTable, new(any), new(any), new(any))
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return nil
	case err != nil:
		return fmt.Errorf("store: foreign key check of %s: %w", path, err)
	}
	return fmt.Errorf("store: %s: %w: a row of %s refers to a missing row", path, ErrCorrupt, fkTable)
}
