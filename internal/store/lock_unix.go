//go:build unix

package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// ErrInUse marks a database another Hearth process holds (LockFile).
var ErrInUse = errors.New("another Hearth process is using this database")

// LockFile takes an exclusive advisory lock on path+".lock" for as long as
// the process runs or until release is called: the server holds it, and
// `hearth restore` refuses to replace a database a running server holds. The
// kernel drops the lock when the process dies, kill -9 included. It is a
// separate file because SQLite's own locks on the database are POSIX locks,
// which flock emulation on NFS would collide with.
func LockFile(path string) (release func() error, err error) {
	if err := os.MkdirAll(filepath.Dir(path), PrivateDir); err != nil {
		return nil, fmt.Errorf("store: lock %s: %w", path, err)
	}
	f, err := os.OpenFile(path+".lock", os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("store: lock %s: %w", path, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		_ = f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("store: %s: %w (stop it first)", path, ErrInUse)
		}
		return nil, fmt.Errorf("store: lock %s: %w", path, err)
	}
	return f.Close, nil // closing the descriptor releases the lock
}
