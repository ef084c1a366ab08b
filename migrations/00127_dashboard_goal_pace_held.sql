-- +goose Up
-- The coach held back any pace toward a lower goal weight when it wrote
-- this document (a health condition, a minor, low body weight or intake):
-- the weight widget holds it back too. A column, not a document field, so
-- the document stays exactly what schema.json describes and a model writes.
ALTER TABLE dashboards ADD COLUMN goal_pace_held INTEGER NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE dashboards DROP COLUMN goal_pace_held;
