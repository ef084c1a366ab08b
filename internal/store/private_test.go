package store_test

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"hearth/internal/store"
)

// The database and its journal files are 0600 and a new data directory
// 0700, whatever the umask (make run and a manual install run with 022).
func TestDatabaseFilesArePrivate(t *testing.T) {
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	dir := filepath.Join(t.TempDir(), "data")
	path := filepath.Join(dir, "hearth.db")
	db, err := store.Open(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Write.Exec(`CREATE TABLE t (x)`); err != nil { // the WAL and its index exist now
		t.Fatal(err)
	}
	for p, want := range map[string]os.FileMode{dir: 0o700, path: 0o600, path + "-wal": 0o600, path + "-shm": 0o600} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s: %v, want %v", filepath.Base(p), fi.Mode().Perm(), want)
		}
	}
}

// A database left readable by others (made by an older Hearth) is
// tightened when it is opened, and the log says so.
func TestLooseDatabaseIsTightenedAtOpen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hearth.db")
	db, err := store.Open(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	db, err = store.Open(context.Background(), path, slog.New(slog.NewTextHandler(&logs, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v after open, want 0600", fi.Mode().Perm())
	}
	if !strings.Contains(logs.String(), "tightened file permissions") {
		t.Fatalf("no log line: %s", logs.String())
	}
}

// A shared directory with the sticky bit (/tmp) is never changed.
func TestPrivateLeavesStickyDirectories(t *testing.T) {
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o777|os.ModeSticky); err != nil {
		t.Fatal(err)
	}
	if err := store.Private(dir, store.PrivateDir, nil); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(dir); fi.Mode().Perm() != 0o777 {
		t.Fatalf("a sticky directory was changed to %v", fi.Mode().Perm())
	}
}

// Tightening only takes access away: a file its operator made read-only
// stays read-only (0444 becomes 0400, not 0600).
func TestPrivateNeverAddsAccess(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ro.db")
	if err := os.WriteFile(path, nil, 0o444); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o444); err != nil {
		t.Fatal(err)
	}
	if err := store.Private(path, store.PrivateFile, nil); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o400 {
		t.Fatalf("mode %v, want 0400", fi.Mode().Perm())
	}
}
