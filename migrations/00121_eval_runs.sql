-- +goose Up
-- Runs of the coach's eval suite from Admin → Evals (internal/eval): which
-- definition version and runtime, the figures (summary JSON) and the whole
-- report (JSON: every scenario's checks and graded plans). Scenario
-- households are invented: nothing here is member data. A run the server
-- stopped during is marked interrupted at the next start.
-- Times are TEXT in UTC, fixed width "2006-01-02T15:04:05.000Z".
CREATE TABLE eval_runs (
    id                 INTEGER PRIMARY KEY AUTOINCREMENT,
    agent_id           TEXT NOT NULL,
    definition_version INTEGER NOT NULL CHECK (definition_version >= 1),
    definition_label   TEXT NOT NULL,
    runtime            TEXT NOT NULL,
    status             TEXT NOT NULL CHECK (status IN ('running', 'done', 'failed', 'interrupted')),
    started_at         TEXT NOT NULL,
    finished_at        TEXT,
    scenarios          INTEGER NOT NULL DEFAULT 0,
    -- the scenario-id pattern the run was limited to ('' = the whole suite)
    filter             TEXT NOT NULL DEFAULT '',
    summary            TEXT,
    report             TEXT,
    error              TEXT NOT NULL DEFAULT ''
);
CREATE INDEX eval_runs_started ON eval_runs(started_at);

-- +goose Down
DROP TABLE eval_runs;
