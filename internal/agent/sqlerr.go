package agent

import (
	"errors"

	"github.com/mattn/go-sqlite3"
)

// isForeignKey reports a FOREIGN KEY violation (an unknown member id).
func isForeignKey(err error) bool {
	var se sqlite3.Error
	return errors.As(err, &se) && se.ExtendedCode == sqlite3.ErrConstraintForeignKey
}
