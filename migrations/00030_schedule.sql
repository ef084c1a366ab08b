-- +goose Up
-- Scheduled tasks (DESIGN §5). SQLite is the source of truth; gocron only fires.
-- Times are TEXT in UTC, fixed width "2006-01-02T15:04:05.000Z".
CREATE TABLE scheduled_tasks (
    id             INTEGER PRIMARY KEY,
    description    TEXT NOT NULL CHECK (length(description) BETWEEN 1 AND 2000),
    kind           TEXT NOT NULL CHECK (kind IN ('once','recurring','interval','heartbeat')),
    -- once: RFC 3339 instant; recurring: 5-field cron (household zone); interval/heartbeat: whole minutes
    schedule       TEXT NOT NULL,
    agent_id       TEXT NOT NULL,
    -- '' for a freeform action or a heartbeat
    assignment_id  TEXT NOT NULL DEFAULT '',
    -- NULL = all members (assignment target) or none (heartbeat)
    member_id      TEXT REFERENCES members(id) ON DELETE CASCADE,
    -- the freeform action's prompt ('' for assignments and heartbeats)
    prompt         TEXT NOT NULL DEFAULT '',
    status         TEXT NOT NULL DEFAULT 'active'
                   CHECK (status IN ('active','paused','completed','error','pending_approval','expired')),
    status_reason  TEXT NOT NULL DEFAULT '',
    pause_note     TEXT NOT NULL DEFAULT '',
    paused_at      TEXT,
    overlap_policy TEXT NOT NULL DEFAULT 'skip' CHECK (overlap_policy IN ('skip','queue')),
    catchup_policy TEXT NOT NULL DEFAULT 'once' CHECK (catchup_policy IN ('skip','once')),
    created_by     TEXT NOT NULL DEFAULT 'user' CHECK (created_by IN ('user','agent')),
    created_by_run INTEGER,
    keep           INTEGER NOT NULL DEFAULT 0,
    expires_at     TEXT,
    last_run_at    TEXT,
    -- the slot the task fires at next; for a paused task the slot it would have fired at
    next_run_at    TEXT,
    run_count      INTEGER NOT NULL DEFAULT 0,
    last_run_id    INTEGER,
    created_at     TEXT NOT NULL,
    updated_at     TEXT NOT NULL
);
CREATE INDEX scheduled_tasks_status_next ON scheduled_tasks(status, next_run_at);
CREATE INDEX scheduled_tasks_member ON scheduled_tasks(member_id, created_by, status);

-- The ledger: one row per slot of a task that fired, was skipped or was missed.
-- UNIQUE(task_id, scheduled_for) is the "never twice" guard.
CREATE TABLE task_fires (
    id            INTEGER PRIMARY KEY,
    task_id       INTEGER NOT NULL REFERENCES scheduled_tasks(id) ON DELETE CASCADE,
    scheduled_for TEXT NOT NULL,
    via           TEXT NOT NULL CHECK (via IN ('schedule','catchup','manual','heartbeat')),
    outcome       TEXT NOT NULL CHECK (outcome IN ('running','queued','ran','failed','interrupted',
                                                   'missed','skipped_overlap','skipped_paused','skipped_budget')),
    reason        TEXT NOT NULL DEFAULT '',
    run_id        INTEGER,
    todo_id       INTEGER,
    attempts      INTEGER NOT NULL DEFAULT 0,
    started_at    TEXT,
    finished_at   TEXT,
    at            TEXT NOT NULL,
    UNIQUE (task_id, scheduled_for)
);
CREATE INDEX task_fires_open ON task_fires(outcome) WHERE outcome IN ('running','queued');
CREATE INDEX task_fires_at ON task_fires(at);

-- The coach's to-do list, worked through by the heartbeat when the agent is idle.
CREATE TABLE agent_todos (
    id         INTEGER PRIMARY KEY,
    agent_id   TEXT NOT NULL,
    member_id  TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    text       TEXT NOT NULL CHECK (length(text) BETWEEN 1 AND 2000),
    status     TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending','in_progress','done')),
    note       TEXT NOT NULL DEFAULT '',
    attempts   INTEGER NOT NULL DEFAULT 0,
    created_by TEXT NOT NULL DEFAULT 'user' CHECK (created_by IN ('user','agent')),
    run_id     INTEGER,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    done_at    TEXT
);
CREATE INDEX agent_todos_next ON agent_todos(agent_id, status, created_at, id);
CREATE INDEX agent_todos_member ON agent_todos(member_id, status);

-- Defaults created once: a default the admin deleted is not re-created.
CREATE TABLE schedule_defaults (
    name       TEXT PRIMARY KEY,
    task_id    INTEGER,
    created_at TEXT NOT NULL
);

-- +goose Down
DROP TABLE schedule_defaults;
DROP TABLE agent_todos;
DROP TABLE task_fires;
DROP TABLE scheduled_tasks;
