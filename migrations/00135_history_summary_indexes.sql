-- +goose Up
-- Covering indexes for a member's history summary (internal/history,
-- summary.go; store.RecordSpans, WorkoutTypeCounts, WeightMonths): counts,
-- first and last dates per source and import, workout types and monthly
-- weight averages read from the index alone. Without them the summary of
-- ten years of daily records looked up every row (about 24 ms; with them
-- see BENCHMARKS.md).
CREATE INDEX weight_member_source ON weight_readings(member_id, source, import_id, measured_at, weight_kg);
CREATE INDEX meals_member_source ON meals(member_id, source, import_id, eaten_at);
CREATE INDEX workouts_member_source ON workouts(member_id, source, import_id, started_at, type);

-- +goose Down
DROP INDEX workouts_member_source;
DROP INDEX meals_member_source;
DROP INDEX weight_member_source;
