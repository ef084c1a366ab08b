-- +goose Up
-- What started a workflow run beyond its trigger ("task:12" for a scheduled
-- task), so every attempt's engine run carries it, one continued after a
-- crash included (agent_runs.origin).
ALTER TABLE workflow_runs ADD COLUMN origin TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE workflow_runs DROP COLUMN origin;
