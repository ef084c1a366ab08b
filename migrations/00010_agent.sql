-- +goose Up
-- Agent framework (internal/agent): runs, working memory with history, chat threads.
-- Times are TEXT in UTC, fixed width "2006-01-02T15:04:05.000Z".

CREATE TABLE agent_threads (
    id         INTEGER PRIMARY KEY,
    agent_id   TEXT NOT NULL,
    member_id  TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    title      TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX agent_threads_member ON agent_threads(agent_id, member_id, updated_at);

-- One row per assignment or freeform (chat) run. assignment_id is '' for chat.
CREATE TABLE agent_runs (
    id                INTEGER PRIMARY KEY,
    agent_id          TEXT NOT NULL,
    assignment_id     TEXT NOT NULL DEFAULT '',
    member_id         TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    thread_id         INTEGER REFERENCES agent_threads(id) ON DELETE SET NULL,
    triggered_by      TEXT NOT NULL CHECK (triggered_by IN ('schedule','manual','api','agent')),
    status            TEXT NOT NULL CHECK (status IN ('queued','running','succeeded','fell_back','failed','interrupted')),
    phase             TEXT NOT NULL DEFAULT '',
    created_at        TEXT NOT NULL,
    started_at        TEXT,
    finished_at       TEXT,
    timings           TEXT NOT NULL DEFAULT '[]',
    attempts          INTEGER NOT NULL DEFAULT 0,
    model             TEXT NOT NULL DEFAULT '',
    tokens_in         INTEGER NOT NULL DEFAULT 0,
    tokens_out        INTEGER NOT NULL DEFAULT 0,
    cost_usd          REAL NOT NULL DEFAULT 0,
    error             TEXT NOT NULL DEFAULT '',
    fallback_reason   TEXT NOT NULL DEFAULT '',
    output            TEXT,
    prompt            TEXT,
    tool_calls        TEXT NOT NULL DEFAULT '[]',
    validation_errors TEXT NOT NULL DEFAULT '[]',
    input_hash        TEXT NOT NULL DEFAULT '',
    reused_from       INTEGER REFERENCES agent_runs(id) ON DELETE SET NULL
);
CREATE INDEX agent_runs_key ON agent_runs(agent_id, assignment_id, member_id, id);
CREATE INDEX agent_runs_created ON agent_runs(created_at);
CREATE INDEX agent_runs_status ON agent_runs(status);
-- At most one active run per (agent, assignment, member); chat runs are exempt.
CREATE UNIQUE INDEX agent_runs_active ON agent_runs(agent_id, assignment_id, member_id)
    WHERE status IN ('queued','running') AND assignment_id <> '';

CREATE TABLE agent_messages (
    id         INTEGER PRIMARY KEY,
    thread_id  INTEGER NOT NULL REFERENCES agent_threads(id) ON DELETE CASCADE,
    role       TEXT NOT NULL CHECK (role IN ('user','assistant')),
    content    TEXT NOT NULL,
    run_id     INTEGER REFERENCES agent_runs(id) ON DELETE SET NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX agent_messages_thread ON agent_messages(thread_id, id);

-- Working memory: key -> value per (agent, member), optional expiry.
CREATE TABLE agent_memory (
    agent_id   TEXT NOT NULL,
    member_id  TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    key        TEXT NOT NULL,
    value      TEXT NOT NULL,
    expires_at TEXT,
    updated_at TEXT NOT NULL,
    updated_by TEXT NOT NULL,
    PRIMARY KEY (agent_id, member_id, key)
);

-- Every change to memory, by whom ("run:<id>" or "admin:<name>"); undo writes a new row.
CREATE TABLE agent_memory_history (
    id             INTEGER PRIMARY KEY,
    agent_id       TEXT NOT NULL,
    member_id      TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    key            TEXT NOT NULL,
    old_value      TEXT,
    old_expires_at TEXT,
    new_value      TEXT,
    new_expires_at TEXT,
    actor          TEXT NOT NULL,
    run_id         INTEGER REFERENCES agent_runs(id) ON DELETE SET NULL,
    undo_of        INTEGER REFERENCES agent_memory_history(id) ON DELETE SET NULL,
    created_at     TEXT NOT NULL
);
CREATE INDEX agent_memory_history_member ON agent_memory_history(agent_id, member_id, id);

-- +goose Down
DROP TABLE agent_memory_history;
DROP TABLE agent_memory;
DROP TABLE agent_messages;
DROP TABLE agent_runs;
DROP TABLE agent_threads;
