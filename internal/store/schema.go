package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/pressly/goose/v3"

	"hearth/migrations"
)

// ErrNewerSchema marks a database that a newer Hearth has migrated: this
// binary does not know some of its schema versions, so it must not open,
// migrate or restore it.
var ErrNewerSchema = errors.New("the database was written by a newer version of Hearth")

// Schema is a database's migration state as this binary sees it.
type Schema struct {
	// Version is the newest schema version applied (0: an empty database).
	Version int64 `json:"version"`
	// Unknown are applied versions this binary does not carry.
	Unknown []int64 `json:"unknown,omitempty"`
	// Pending are versions this binary carries and would apply.
	Pending []int64 `json:"pending,omitempty"`
}

// Err is nil unless a newer Hearth wrote the database (wraps ErrNewerSchema).
func (s Schema) Err() error {
	if len(s.Unknown) == 0 {
		return nil
	}
	return fmt.Errorf("%w: it has schema version %s, which this Hearth (schema %d) does not know; "+
		"run a newer Hearth, or restore a backup made by this version", ErrNewerSchema, joinVersions(s.Unknown), LatestVersion())
}

func joinVersions(vs []int64) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = strconv.FormatInt(v, 10)
	}
	return strings.Join(parts, ", ")
}

// GoMigrations are the migrations written in Go (beside the SQL files of
// package migrations); Open applies them with the SQL ones.
func GoMigrations(logger *slog.Logger) []*goose.Migration {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return []*goose.Migration{repairTextMigration(logger), bodyScansOneFigureMigration(), demoTriggerMigration(),
		workflowDemoMigration()}
}

// KnownVersions are the schema versions (migration numbers) this binary
// carries, SQL and Go, ascending.
func KnownVersions() []int64 {
	entries, _ := fs.ReadDir(migrations.FS, ".")
	var out []int64
	for _, m := range GoMigrations(nil) {
		out = append(out, m.Version)
	}
	for _, e := range entries {
		num, _, ok := strings.Cut(e.Name(), "_")
		if !ok || !strings.HasSuffix(e.Name(), ".sql") {
			continue
		}
		if v, err := strconv.ParseInt(num, 10, 64); err == nil {
			out = append(out, v)
		}
	}
	slices.Sort(out)
	return out
}

// LatestVersion is the newest schema version this binary knows.
func LatestVersion() int64 {
	vs := KnownVersions()
	if len(vs) == 0 {
		return 0
	}
	return vs[len(vs)-1]
}

// ReadSchema compares the versions applied to the database behind q (goose's
// goose_db_version table; none on an empty database) with this binary's.
func ReadSchema(ctx context.Context, q Queryer) (Schema, error) {
	var n int
	if err := q.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'goose_db_version'`).Scan(&n); err != nil {
		return Schema{}, fmt.Errorf("store: read schema: %w", err)
	}
	applied := map[int64]bool{}
	if n > 0 {
		// The newest row of each version says whether it is applied.
		rows, err := q.QueryContext(ctx, `SELECT version_id FROM goose_db_version g WHERE version_id > 0 AND is_applied
			AND id = (SELECT max(id) FROM goose_db_version WHERE version_id = g.version_id)`)
		if err != nil {
			return Schema{}, fmt.Errorf("store: read schema: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var v int64
			if err := rows.Scan(&v); err != nil {
				return Schema{}, fmt.Errorf("store: read schema: %w", err)
			}
			applied[v] = true
		}
		if err := rows.Err(); err != nil {
			return Schema{}, fmt.Errorf("store: read schema: %w", err)
		}
	}
	known := KnownVersions()
	var s Schema
	for v := range applied {
		s.Version = max(s.Version, v)
		if !slices.Contains(known, v) {
			s.Unknown = append(s.Unknown, v)
		}
	}
	slices.Sort(s.Unknown)
	for _, v := range known {
		if !applied[v] {
			s.Pending = append(s.Pending, v)
		}
	}
	return s, nil
}

// checkSchema refuses, before any migration runs, a database a newer Hearth
// wrote: goose would otherwise apply this binary's migrations around the
// unknown ones and the app would run on a schema it does not understand.
func checkSchema(ctx context.Context, db *sql.DB, path string) error {
	s, err := ReadSchema(ctx, db)
	if err != nil {
		return err
	}
	if err := s.Err(); err != nil {
		return fmt.Errorf("store: %s: %w", path, err)
	}
	return nil
}

// FileSchema reads the schema state of the database file at path without
// changing it (no migration, read-only).
func FileSchema(ctx context.Context, path string) (Schema, error) {
	db, err := openReadOnly(path)
	if err != nil {
		return Schema{}, err
	}
	defer db.Close()
	return ReadSchema(ctx, db)
}

// PeekSchema reads the schema state of the existing database file at path
// as Open would find it, before anything migrates: for deciding to back up
// or refuse first. Its connection writes nothing, and unlike FileSchema's
// read-only one (which cannot remove them) it leaves no -wal or -shm file
// behind: a refused database stays exactly as it was.
func PeekSchema(ctx context.Context, path string) (Schema, error) {
	if _, err := os.Stat(path); err != nil {
		return Schema{}, fmt.Errorf("store: %w", err)
	}
	q := url.Values{}
	q.Set("mode", "rw") // never creates the file
	q.Set("_busy_timeout", strconv.FormatInt(BusyTimeout.Milliseconds(), 10))
	db, err := sql.Open("sqlite3", "file:"+path+"?"+q.Encode())
	if err != nil {
		return Schema{}, fmt.Errorf("store: open %s: %w", path, err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	s, err := ReadSchema(ctx, db)
	if unwritable(err) { // as Open would say: a WAL database cannot even be read without writing its -shm
		return s, fmt.Errorf("store: open %s (check the permissions of the file and its directory): %w", path, err)
	}
	return s, err
}
