package store

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
)

// The household's data is private to the user Hearth runs as, whatever the
// umask: the data directory 0700, the database and its journal files 0600
// (SQLite creates -wal and -shm with the database file's mode, so a
// database created 0600 keeps them private too).
const (
	PrivateDir  fs.FileMode = 0o700
	PrivateFile fs.FileMode = 0o600
)

// Private takes away the access bits mode lacks (group and other) from
// path when it has any, and says so in the log; it never adds one (a
// database an operator made read-only stays so). A missing path is no
// error.
func Private(path string, mode fs.FileMode, logger *slog.Logger) error {
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	if fi.Mode().Perm()&^mode == 0 || fi.Mode()&fs.ModeSticky != 0 {
		return nil // private already, or a shared directory like /tmp: never ours to change
	}
	tight := fi.Mode().Perm() & mode
	if err := os.Chmod(path, tight); err != nil {
		return fmt.Errorf("store: make %s private: %w", path, err)
	}
	if logger != nil {
		logger.Warn("tightened file permissions: household data is private to Hearth's user",
			"path", path, "was", fi.Mode().Perm().String(), "now", tight.String())
	}
	return nil
}

// createPrivate creates an empty database file 0600 before SQLite opens it
// (SQLite would create it with the umask's mode), and tightens the
// database and its journal files when they exist with looser modes.
func createPrivate(path string, logger *slog.Logger) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, PrivateFile)
	switch {
	case err == nil:
		return f.Close()
	case !errors.Is(err, fs.ErrExist):
		return fmt.Errorf("store: create %s: %w", path, err)
	}
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		if err := Private(p, PrivateFile, logger); err != nil {
			return err
		}
	}
	return nil
}
