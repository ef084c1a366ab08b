// Package storetest opens real, migrated SQLite files in temp dirs for tests.
package storetest

import (
	"context"
	"path/filepath"
	"testing"

	"hearth/internal/health"
	"hearth/internal/store"
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
