// Package history is the long-range read model: a member's records over
// months or years, as the history view shows them (series.go: the weight
// line, nutrition and workouts per day, week or month) and as the coach
// reads them when recent data is missing (summary.go: counts, first and
// last dates, sources, the long-term trend).
//
// The dashboard's read model (internal/dashboard/board) reads a short
// window for today's figures; this package reads whatever span is asked,
// bucketed so that ten years of daily records draw as a few hundred marks.
package history
