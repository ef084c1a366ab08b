// Package storetest opens real, migrated SQLite files in temp dirs for tests.
package storetest

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"path/filepath"
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
	last := store.LatestVersion()
	old := fstest.MapFS{}
	entries, err := fs.ReadDir(migrations.FS, ".")
	if err != nil {
		tb.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".sql") && !strings.HasPrefix(e.Name(), fmt.Sprintf("%05d_", last)) {
			b, _ := fs.ReadFile(migrations.FS, e.Name())
			old[e.Name()] = &fstest.MapFile{Data: b}
		}
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
	return last
}
