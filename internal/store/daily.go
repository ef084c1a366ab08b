package store

import (
	"context"
	"fmt"
	"time"
)

// DailyFigure is one member's figure for a local day: steps, or hours of
// sleep, with where it came from (source "homeassistant": a mapped sensor).
type DailyFigure struct {
	Day    string    `json:"day"`
	Kind   string    `json:"kind"` // steps | sleep
	Value  float64   `json:"value"`
	Unit   string    `json:"unit"` // steps | h
	At     time.Time `json:"measured_at"`
	Source string    `json:"source"`
}

// DailyFigures returns the member's figures for the local days from..to
// (YYYY-MM-DD, both included), by day then kind.
func (db *DB) DailyFigures(ctx context.Context, member, from, to string) ([]DailyFigure, error) {
	out, err := All(ctx, db.Read, func(row Scanner) (DailyFigure, error) {
		var f DailyFigure
		var at string
		if err := row.Scan(&f.Day, &f.Kind, &f.Value, &f.Unit, &at, &f.Source); err != nil {
			return f, err
		}
		var err error
		f.At, err = ParseTime(at)
		return f, err
	}, `SELECT day, kind, value, unit, measured_at, source FROM daily_figures INDEXED BY daily_figures_member_day
		WHERE member_id = ? AND kind IN ('steps', 'sleep') AND day BETWEEN ? AND ? ORDER BY day, kind, measured_at`, member, from, to)
	if err != nil {
		return nil, fmt.Errorf("store: daily figures of %q: %w", member, err)
	}
	return out, nil
}
