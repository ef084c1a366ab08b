package httpkit

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/mattn/go-sqlite3"

	_ "hearth/internal/store" // registers the SQLite error translator, as the app does
)

// A lock another process held past store.BusyTimeout, and a full disk, are
// told as such, with "nothing was saved"; never as a bare internal error.
func TestClassifyStorageFailures(t *testing.T) {
	for _, c := range []struct {
		err  error
		code int
		want string
	}{
		{fmt.Errorf("household: log weight: %w", sqlite3.Error{Code: sqlite3.ErrBusy}), http.StatusServiceUnavailable, "database is busy"},
		{fmt.Errorf("x: %w", sqlite3.Error{Code: sqlite3.ErrFull}), http.StatusInsufficientStorage, "disk is full"},
		{fmt.Errorf("x: %w", sqlite3.Error{Code: sqlite3.ErrCorrupt}), http.StatusInternalServerError, "internal error"},
	} {
		code, body := Classify(c.err)
		if code != c.code || !strings.Contains(body.Error, c.want) {
			t.Errorf("%v: %d %q, want %d with %q", c.err, code, body.Error, c.code, c.want)
		}
		if code != http.StatusInternalServerError && !strings.Contains(body.Error, "nothing was saved") {
			t.Errorf("%v: %q does not say nothing was saved", c.err, body.Error)
		}
	}
}
