//go:build !sqlite_fts5 && !fts5

package store_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"hearth/internal/store"
)

// Without the build tag, Open refuses with the message that says how to
// build, before any migration runs (not "no such module: fts5" halfway).
// Run: go test -run TestOpenWithoutFTS5 ./internal/store/ (no tags).
func TestOpenWithoutFTS5ExplainsTheBuildTag(t *testing.T) {
	_, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "hearth.db"), nil)
	if !errors.Is(err, store.ErrNoFTS5) {
		t.Fatalf("Open = %v, want ErrNoFTS5", err)
	}
	t.Log(err)
}
