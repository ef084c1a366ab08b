package app_test

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"

	"hearth/internal/app"
)

// A data directory left open to others (an older Hearth made it 0750, a
// hand-made one 0755) is made private at start, before the database opens.
func TestDataDirectoryIsPrivateAtStart(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil { // whatever the umask
		t.Fatal(err)
	}
	env := map[string]string{"HEARTH_DATA": dir}
	cfg, err := app.LoadConfig(nil, func(k string) string { return env[k] }, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	db, err := app.OpenDatabase(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for p, want := range map[string]os.FileMode{dir: 0o700, db.Path: 0o600} {
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != want {
			t.Errorf("%s: %v (%v), want %v", p, fi.Mode().Perm(), err, want)
		}
	}
}
