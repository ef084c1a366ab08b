package store

import (
	"context"
	"fmt"
	"time"
)

// Record kinds of a RecordSpan.
const (
	SpanWeight   = "weight"
	SpanMeal     = "meal"
	SpanWorkout  = "workout"
	SpanBodyScan = "body_scan"
)

// RecordSpan is a member's records of one kind from one source: how many,
// the first and the last.
type RecordSpan struct {
	Kind string // SpanWeight, SpanMeal, SpanWorkout or SpanBodyScan
	// Source is the records' source column (manual, demo, csv,
	// apple_health); Profile the app whose CSV export an import read
	// ("Strong", "MyFitnessPal Nutrition-Summary": the import's summary),
	// "" when none is known.
	Source, Profile string
	Count           int
	First, Last     time.Time
}

// recordSpansSQL counts each kind per source and import first (the
// member's index rows and one lookup each), then names each import's app
// from its summary: one JSON read per import, not per record. Body scans
// carry no import id.
const recordSpansSQL = `
WITH w AS (SELECT source, import_id, COUNT(*) AS n, MIN(measured_at) AS a, MAX(measured_at) AS b
		FROM weight_readings WHERE member_id = ?1 GROUP BY source, import_id),
	m AS (SELECT source, import_id, COUNT(*) AS n, MIN(eaten_at) AS a, MAX(eaten_at) AS b
		FROM meals WHERE member_id = ?1 GROUP BY source, import_id),
	o AS (SELECT source, import_id, COUNT(*) AS n, MIN(started_at) AS a, MAX(started_at) AS b
		FROM workouts WHERE member_id = ?1 GROUP BY source, import_id),
	spans AS (SELECT 'weight' AS kind, * FROM w UNION ALL SELECT 'meal', * FROM m UNION ALL SELECT 'workout', * FROM o)
SELECT s.kind, s.source,
	COALESCE(CASE WHEN json_valid(i.summary) THEN json_extract(i.summary, '$.profile') END, '') AS profile,
	SUM(s.n), MIN(s.a), MAX(s.b)
FROM spans s LEFT JOIN imports i ON i.id = s.import_id
GROUP BY s.kind, s.source, profile
UNION ALL
SELECT 'body_scan', source, '', COUNT(*), MIN(scanned_at), MAX(scanned_at)
FROM body_scans WHERE member_id = ?1 GROUP BY source`

// RecordSpans returns the member's records per kind, source and importing
// app (aggregates only: fast on years of daily records).
func (db *DB) RecordSpans(ctx context.Context, member string) ([]RecordSpan, error) {
	out, err := All(ctx, db.Read, func(row Scanner) (RecordSpan, error) {
		var s RecordSpan
		var first, last string
		if err := row.Scan(&s.Kind, &s.Source, &s.Profile, &s.Count, &first, &last); err != nil {
			return s, err
		}
		var err error
		if s.First, err = ParseTime(first); err != nil {
			return s, err
		}
		s.Last, err = ParseTime(last)
		return s, err
	}, recordSpansSQL, member)
	if err != nil {
		return nil, fmt.Errorf("store: record spans: %w", err)
	}
	return out, nil
}

// TypeCount is how many of a member's workouts have one type.
type TypeCount struct {
	Type  string
	Count int
}

// WorkoutTypeCounts returns the member's workout types (lower-cased and
// trimmed) with their counts, most first, at most limit.
func (db *DB) WorkoutTypeCounts(ctx context.Context, member string, limit int) ([]TypeCount, error) {
	out, err := All(ctx, db.Read, func(row Scanner) (TypeCount, error) {
		var t TypeCount
		return t, row.Scan(&t.Type, &t.Count)
	}, `SELECT lower(trim(type)) AS t, COUNT(*) AS n FROM workouts WHERE member_id = ?
		GROUP BY t ORDER BY n DESC, t LIMIT ?`, member, limit)
	if err != nil {
		return nil, fmt.Errorf("store: workout types: %w", err)
	}
	return out, nil
}

// WeightMonth is the average of a member's weigh-ins in one month.
type WeightMonth struct {
	Month    string // YYYY-MM
	AvgKg    float64
	Readings int
}

// WeightMonths returns the member's monthly weight averages, oldest first.
// Months are UTC calendar months (the stored instants' prefix): a weigh-in
// in a month's first or last hours may count for the month beside its
// local one, which a month's average does not notice.
func (db *DB) WeightMonths(ctx context.Context, member string) ([]WeightMonth, error) {
	out, err := All(ctx, db.Read, func(row Scanner) (WeightMonth, error) {
		var m WeightMonth
		return m, row.Scan(&m.Month, &m.AvgKg, &m.Readings)
	}, `SELECT substr(measured_at, 1, 7) AS month, AVG(weight_kg), COUNT(*) FROM weight_readings
		WHERE member_id = ? GROUP BY month ORDER BY month`, member)
	if err != nil {
		return nil, fmt.Errorf("store: weight months: %w", err)
	}
	return out, nil
}
