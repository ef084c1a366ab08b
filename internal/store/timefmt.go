package store

import (
	"database/sql"
	"fmt"
	"time"
)

// TimeLayout is how instants are stored: UTC, fixed width, so text order is
// chronological order and range queries can compare strings.
const TimeLayout = "2006-01-02T15:04:05.000Z"

// FormatTime renders t for storage.
func FormatTime(t time.Time) string { return t.UTC().Format(TimeLayout) }

// ParseTime reads a stored instant.
func ParseTime(s string) (time.Time, error) {
	t, err := time.Parse(TimeLayout, s)
	if err != nil {
		// Accept RFC 3339 written by hand (sqlite3 shell, older rows).
		if t2, err2 := time.Parse(time.RFC3339Nano, s); err2 == nil {
			return t2.UTC(), nil
		}
		return time.Time{}, fmt.Errorf("store: bad time %q: %w", s, err)
	}
	return t, nil
}

// NullTime formats an optional instant.
func NullTime(t *time.Time) sql.NullString {
	if t == nil || t.IsZero() {
		return sql.NullString{}
	}
	return sql.NullString{String: FormatTime(*t), Valid: true}
}

// ParseNullTime reads an optional instant.
func ParseNullTime(s sql.NullString) (*time.Time, error) {
	if !s.Valid || s.String == "" {
		return nil, nil
	}
	t, err := ParseTime(s.String)
	if err != nil {
		return nil, err
	}
	return &t, nil
}

// NullFloat converts an optional float for storage.
func NullFloat(f *float64) sql.NullFloat64 {
	if f == nil {
		return sql.NullFloat64{}
	}
	return sql.NullFloat64{Float64: *f, Valid: true}
}

// FloatPtr converts a nullable column to an optional float.
func FloatPtr(n sql.NullFloat64) *float64 {
	if !n.Valid {
		return nil
	}
	v := n.Float64
	return &v
}

// NullInt converts an optional int for storage.
func NullInt(i *int) sql.NullInt64 {
	if i == nil {
		return sql.NullInt64{}
	}
	return sql.NullInt64{Int64: int64(*i), Valid: true}
}

// IntPtr converts a nullable column to an optional int.
func IntPtr(n sql.NullInt64) *int {
	if !n.Valid {
		return nil
	}
	v := int(n.Int64)
	return &v
}

// NullString converts an optional string ("" = NULL) for storage.
func NullString(s string) sql.NullString {
	return sql.NullString{String: s, Valid: s != ""}
}
