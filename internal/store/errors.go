package store

import (
	"errors"
	"strings"

	"github.com/mattn/go-sqlite3"

	"hearth/internal/apperr"
)

func init() { apperr.RegisterTranslator(translate) }

// translate says what SQLite's resource errors mean to a user; callers see
// them as apperr codes (web maps NoSpace to 507, Unavailable to 503).
func translate(err error) *apperr.Error {
	switch {
	case IsDiskFull(err):
		return &apperr.Error{Code: apperr.NoSpace, Message: "the disk is full: nothing was saved; free some space on the server", Err: err}
	case IsBusy(err):
		return &apperr.Error{Code: apperr.Unavailable, Message: "the database is busy (a large import?): nothing was saved; try again in a minute", Err: err}
	}
	return nil
}

func isUnique(err error) bool {
	var se sqlite3.Error
	return errors.As(err, &se) && (se.ExtendedCode == sqlite3.ErrConstraintUnique || se.ExtendedCode == sqlite3.ErrConstraintPrimaryKey)
}

// IsUnique reports whether err is a UNIQUE or PRIMARY KEY violation.
func IsUnique(err error) bool { return isUnique(err) }

// IsDiskFull reports whether err is SQLite running out of room: the disk is
// full (SQLITE_FULL) or the process may not grow the file (EFBIG surfaces as
// an I/O error "file too large").
func IsDiskFull(err error) bool {
	var se sqlite3.Error
	if !errors.As(err, &se) {
		return false
	}
	return se.Code == sqlite3.ErrFull || (se.Code == sqlite3.ErrIoErr && strings.Contains(se.Error(), "file too large"))
}

// IsBusy reports whether err is SQLite giving up on a lock another process
// held for longer than BusyTimeout.
func IsBusy(err error) bool {
	var se sqlite3.Error
	return errors.As(err, &se) && (se.Code == sqlite3.ErrBusy || se.Code == sqlite3.ErrLocked)
}

// unwritable reports whether err is SQLite refusing a file it may not write
// or open for writing.
func unwritable(err error) bool {
	var se sqlite3.Error
	return errors.As(err, &se) && (se.Code == sqlite3.ErrReadonly || se.Code == sqlite3.ErrCantOpen || se.Code == sqlite3.ErrPerm)
}

// isCorruptErr reports whether err is SQLite finding a damaged file or one
// that is not a database at all.
func isCorruptErr(err error) bool {
	var se sqlite3.Error
	return errors.As(err, &se) && (se.Code == sqlite3.ErrCorrupt || se.Code == sqlite3.ErrNotADB)
}
