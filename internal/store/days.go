package store

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// Per-day totals for long spans (the history view): SQLite sums each
// local day, so ten years of meals come back as ~3,650 rows of six
// numbers instead of ~11,000 whole records (scanning those was most of the
// view's time). Local days need the household zone's offset, which SQLite
// does not know: the span is cut into stretches of one UTC offset (DST
// changes cut it) and each stretch shifts its instants by its own offset.

// MealDay is one local day's meals.
type MealDay struct {
	Day                          string // YYYY-MM-DD, local
	Meals                        int
	Kcal, ProteinG, CarbsG, FatG float64
}

// WorkoutDay is one local day's workouts of one type.
type WorkoutDay struct {
	Day     string // YYYY-MM-DD, local
	Type    string
	N       int
	Minutes float64
}

// MealDays sums a member's meals per local day of loc, from from up to
// (not including) to, oldest first.
func (db *DB) MealDays(ctx context.Context, member string, from, to time.Time, loc *time.Location) ([]MealDay, error) {
	with, args := offsetStretches(from, to, loc)
	out, err := All(ctx, db.Read, func(row Scanner) (MealDay, error) {
		var d MealDay
		err := row.Scan(&d.Day, &d.Meals, &d.Kcal, &d.ProteinG, &d.CarbsG, &d.FatG)
		return d, err
	}, with+` SELECT date(m.eaten_at, p.shift) AS d, COUNT(*), TOTAL(m.calories), TOTAL(m.protein_g), TOTAL(m.carbs_g), TOTAL(m.fat_g)
		FROM p JOIN meals m ON m.eaten_at >= p.s AND m.eaten_at < p.e
		WHERE m.member_id = ? GROUP BY d ORDER BY d`, append(args, member)...)
	if err != nil {
		return nil, fmt.Errorf("store: meal days: %w", err)
	}
	return out, nil
}

// WorkoutDays counts a member's workouts per local day and type, from from
// up to (not including) to, oldest first.
func (db *DB) WorkoutDays(ctx context.Context, member string, from, to time.Time, loc *time.Location) ([]WorkoutDay, error) {
	with, args := offsetStretches(from, to, loc)
	out, err := All(ctx, db.Read, func(row Scanner) (WorkoutDay, error) {
		var d WorkoutDay
		err := row.Scan(&d.Day, &d.Type, &d.N, &d.Minutes)
		return d, err
	}, with+` SELECT date(w.started_at, p.shift) AS d, w.type, COUNT(*), TOTAL(w.duration_min)
		FROM p JOIN workouts w ON w.started_at >= p.s AND w.started_at < p.e
		WHERE w.member_id = ? GROUP BY d, w.type ORDER BY d, w.type`, append(args, member)...)
	if err != nil {
		return nil, fmt.Errorf("store: workout days: %w", err)
	}
	return out, nil
}

// offsetStretches is a WITH clause naming p(s, e, shift): the stretches
// of [from, to) with one UTC offset in loc, as stored instants and a
// date() modifier ("+3600 seconds").
func offsetStretches(from, to time.Time, loc *time.Location) (string, []any) {
	if loc == nil {
		loc = time.UTC
	}
	var rows []string
	var args []any
	for t := from; t.Before(to); {
		lt := t.In(loc)
		_, off := lt.Zone()
		_, end := lt.ZoneBounds()
		if end.IsZero() || end.After(to) {
			end = to
		}
		rows = append(rows, "(?, ?, ?)")
		args = append(args, FormatTime(t), FormatTime(end), fmt.Sprintf("%+d seconds", off))
		t = end
	}
	if len(rows) == 0 { // an empty span: a stretch that matches nothing
		rows, args = []string{"(?, ?, ?)"}, []any{FormatTime(from), FormatTime(from), "+0 seconds"}
	}
	return "WITH p(s, e, shift) AS (VALUES " + strings.Join(rows, ", ") + ")", args
}
