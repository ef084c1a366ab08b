-- +goose Up
-- Declarative agent definitions (internal/agent/definition, seed 003).
-- Append-only: an edit inserts a new version; rollback only clears is_active
-- (with who and when). The current definition of an agent is its newest
-- active version. JSON columns hold the lists and objects as edited.
-- Times are TEXT in UTC, fixed width "2006-01-02T15:04:05.000Z".
CREATE TABLE agent_definitions (
    version_id       INTEGER PRIMARY KEY AUTOINCREMENT,
    agent_id         TEXT NOT NULL CHECK (length(agent_id) BETWEEN 1 AND 64),
    -- 1, 2, 3, ... per agent
    version          INTEGER NOT NULL CHECK (version >= 1),
    system_prompt    TEXT NOT NULL DEFAULT '',
    user_template    TEXT NOT NULL DEFAULT '',
    model            TEXT NOT NULL DEFAULT '',
    temperature      REAL,
    max_tokens       INTEGER NOT NULL DEFAULT 0,
    max_iterations   INTEGER NOT NULL DEFAULT 8,
    max_retries      INTEGER NOT NULL DEFAULT 2,
    tool_ids         TEXT NOT NULL DEFAULT '[]',
    context_types    TEXT NOT NULL DEFAULT '[]',
    -- NULL: free-text output
    output_schema    TEXT,
    validation_rules TEXT NOT NULL DEFAULT '[]',
    sub_agents       TEXT NOT NULL DEFAULT '[]',
    hooks            TEXT NOT NULL DEFAULT '{}',
    tool_hooks       TEXT NOT NULL DEFAULT '{}',
    is_active        INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
    created_at       TEXT NOT NULL,
    created_by       TEXT NOT NULL DEFAULT '',
    change_note      TEXT NOT NULL DEFAULT '',
    deactivated_at   TEXT,
    deactivated_by   TEXT NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX agent_definitions_version ON agent_definitions(agent_id, version);
CREATE INDEX agent_definitions_active ON agent_definitions(agent_id, is_active, version);

-- +goose StatementBegin
CREATE TRIGGER agent_definitions_append_only
BEFORE UPDATE OF version_id, agent_id, version, system_prompt, user_template, model, temperature, max_tokens,
    max_iterations, max_retries, tool_ids, context_types, output_schema, validation_rules, sub_agents, hooks,
    tool_hooks, created_at, created_by, change_note ON agent_definitions
BEGIN
    SELECT RAISE(ABORT, 'agent_definitions is append-only: insert a new version');
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER agent_definitions_no_delete
BEFORE DELETE ON agent_definitions
BEGIN
    SELECT RAISE(ABORT, 'agent_definitions is append-only: deactivate a version instead');
END;
-- +goose StatementEnd

-- Runs of declarative invokes (assignment_id 'invoke') are, like chat runs,
-- not limited to one active run per (agent, member): try-it and a scheduled
-- invoke, or two sub-agent pipelines, may overlap.
DROP INDEX agent_runs_active;
CREATE UNIQUE INDEX agent_runs_active ON agent_runs(agent_id, assignment_id, member_id)
    WHERE status IN ('queued','running') AND assignment_id NOT IN ('', 'invoke');

-- +goose Down
DROP INDEX agent_runs_active;
CREATE UNIQUE INDEX agent_runs_active ON agent_runs(agent_id, assignment_id, member_id)
    WHERE status IN ('queued','running') AND assignment_id <> '';
DROP TRIGGER agent_definitions_no_delete;
DROP TRIGGER agent_definitions_append_only;
DROP TABLE agent_definitions;
