-- +goose Up
-- What Hearth learned about each model endpoint (internal/agent/llm.Profile,
-- stored as JSON): the server family, the structured-output mode and schema
-- dialect that work, whether tools work, the context size, and why each
-- setting changed. Admin → Model shows it; Reset deletes the row.
CREATE TABLE model_endpoints (
    base_url   TEXT NOT NULL,
    model      TEXT NOT NULL,
    profile    TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (base_url, model)
);

-- What a run's model calls had to adapt to (a refused schema, tools off,
-- a trimmed prompt), shown on the run page.
ALTER TABLE agent_runs ADD COLUMN model_notes TEXT NOT NULL DEFAULT '[]';

-- +goose Down
ALTER TABLE agent_runs DROP COLUMN model_notes;
DROP TABLE model_endpoints;
