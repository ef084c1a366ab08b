//go:build !unix

package store

import "errors"

// ErrInUse marks a database another Hearth process holds (LockFile).
var ErrInUse = errors.New("another Hearth process is using this database")

// LockFile is a no-op where flock is not available.
func LockFile(path string) (release func() error, err error) { return func() error { return nil }, nil }
