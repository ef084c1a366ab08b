// Package storetest opens real, migrated SQLite files in temp dirs for tests.
package storetest

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/pressly/goose/v3"

	"hearth/internal/health"
	"hearth/internal/store"
	"hearth/migrations"
)

// Open returns a migrated database in t.TempDir(), closed at cleanup.
func Open(tb testing.TB) *store.DB {
	tb.Helper()
	db, err := store.Open(context.Background(), filepath.Join(tb.TempDir(), "hearth.db"), nil)
	if err != nil {
		tb.Fatalf("open db: %v", err)
	}
	tb.Cleanup(func() { _ = db.Close() })
	return db
}

// Member creates a member with the given id (name = id) and returns it.
func Member(tb testing.TB, db *store.DB, id string) health.Member {
	tb.Helper()
	m, err := db.CreateMember(context.Background(), health.Member{ID: id, Name: id})
	if err != nil {
		tb.Fatalf("create member %s: %v", id, err)
	}
	return m
}

// OlderSchema creates at path a database migrated by every migration but
// the newest, as an older Hearth left it, and returns the missing version.
func OlderSchema(tb testing.TB, path string) int64 {
	tb.Helper()
	return OlderSchemaBy(tb, path, 1)[0]
}

// OlderSchemaBy is OlderSchema without the n newest SQL migrations; it
// returns their versions, oldest first.
func OlderSchemaBy(tb testing.TB, path string, n int) []int64 {
	tb.Helper()
	entries, err := fs.ReadDir(migrations.FS, ".")
	if err != nil {
		tb.Fatal(err)
	}
	var sqlFiles []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".sql") {
			sqlFiles = append(sqlFiles, e.Name())
		}
	}
	slices.Sort(sqlFiles) // zero-padded: by version
	if n < 1 || n >= len(sqlFiles) {
		tb.Fatalf("OlderSchemaBy: %d of %d migrations", n, len(sqlFiles))
	}
	keep, left := sqlFiles[:len(sqlFiles)-n], sqlFiles[len(sqlFiles)-n:]
	old := fstest.MapFS{}
	for _, name := range keep {
		b, _ := fs.ReadFile(migrations.FS, name)
		old[name] = &fstest.MapFile{Data: b}
	}
	var missing []int64
	for _, name := range left {
		v, err := strconv.ParseInt(name[:strings.IndexByte(name, '_')], 10, 64)
		if err != nil {
			tb.Fatal(err)
		}
		missing = append(missing, v)
	}
	raw, err := sql.Open("sqlite3", "file:"+path+"?_journal_mode=WAL&_foreign_keys=on")
	if err != nil {
		tb.Fatal(err)
	}
	defer raw.Close()
	p, err := goose.NewProvider(goose.DialectSQLite3, raw, old, goose.WithAllowOutofOrder(true),
		goose.WithGoMigrations(store.GoMigrations(nil)...))
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := p.Up(context.Background()); err != nil {
		tb.Fatal(err)
	}
	return missing
}

// NewerSchema creates at path a database as a newer Hearth leaves it: every
// migration of this binary plus one it does not know, really applied by
// goose (it adds a table). It returns the unknown version.
func NewerSchema(tb testing.TB, path string) int64 {
	tb.Helper()
	db, err := store.Open(context.Background(), path, nil)
	if err != nil {
		tb.Fatal(err)
	}
	_ = db.Close()
	future := store.LatestVersion() + 1000
	raw, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		tb.Fatal(err)
	}
	defer raw.Close()
	p, err := goose.NewProvider(goose.DialectSQLite3, raw, fstest.MapFS{
		fmt.Sprintf("%05d_future.sql", future): {Data: []byte("-- +goose Up\nCREATE TABLE future_things (id INTEGER PRIMARY KEY);\n")},
	}, goose.WithAllowOutofOrder(true))
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := p.Up(context.Background()); err != nil {
		tb.Fatal(err)
	}
	return future
}
