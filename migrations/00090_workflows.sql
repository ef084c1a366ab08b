-- +goose Up
-- Durable workflows (internal/workflow): one row per run, one per step
-- result, each written as the step completes, so a run survives kill -9 and
-- continues from its last completed step. Times are TEXT in UTC.

CREATE TABLE workflow_runs (
    id          INTEGER PRIMARY KEY,
    workflow_id TEXT NOT NULL,
    -- Fingerprint of the definition's graph the run started on.
    version     TEXT NOT NULL,
    member_id   TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    status      TEXT NOT NULL CHECK (status IN ('running','suspended','success','failed','paused')),
    triggered_by TEXT NOT NULL CHECK (triggered_by IN ('schedule','manual','api','agent')),
    input       TEXT NOT NULL,
    state       TEXT NOT NULL DEFAULT '{}',
    output      TEXT,
    error       TEXT NOT NULL DEFAULT '',
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL,
    finished_at TEXT
);
CREATE INDEX workflow_runs_member ON workflow_runs(member_id, status);
CREATE INDEX workflow_runs_status ON workflow_runs(status);
CREATE INDEX workflow_runs_workflow ON workflow_runs(workflow_id, id);

-- One row per step (a loop iteration or a nested workflow's step has its
-- own path): what went in, what came out, the state it set, what it asked
-- and the answer it got. agent_run_ids lists the engine runs (attempts)
-- that executed it, an interrupted one included.
CREATE TABLE workflow_steps (
    run_id          INTEGER NOT NULL REFERENCES workflow_runs(id) ON DELETE CASCADE,
    path            TEXT NOT NULL,
    step_id         TEXT NOT NULL,
    seq             INTEGER NOT NULL,
    status          TEXT NOT NULL CHECK (status IN ('running','success','failed','suspended')),
    attempts        INTEGER NOT NULL DEFAULT 1,
    input           TEXT NOT NULL,
    output          TEXT,
    state_patch     TEXT,
    suspend_payload TEXT,
    resume_data     TEXT,
    error           TEXT NOT NULL DEFAULT '',
    agent_run_ids   TEXT NOT NULL DEFAULT '[]',
    started_at      TEXT NOT NULL,
    finished_at     TEXT,
    PRIMARY KEY (run_id, path)
);
CREATE INDEX workflow_steps_waiting ON workflow_steps(status) WHERE status = 'suspended';

-- The engine run of a workflow attempt names its workflow run.
ALTER TABLE agent_runs ADD COLUMN workflow_run_id INTEGER REFERENCES workflow_runs(id) ON DELETE SET NULL;

-- +goose Down
ALTER TABLE agent_runs DROP COLUMN workflow_run_id;
DROP TABLE workflow_steps;
DROP TABLE workflow_runs;
