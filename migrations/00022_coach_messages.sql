-- +goose Up
-- Messages from the coach (or another agent) to a member: the output of a
-- scheduled action or a to-do meant for them, a definition's send_message
-- hook. Shown as "From your coach" on their dashboard until dismissed.
CREATE TABLE coach_messages (
    id           INTEGER PRIMARY KEY,
    member_id    TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    agent_id     TEXT NOT NULL,
    source       TEXT NOT NULL DEFAULT '',  -- what sent it: schedule, heartbeat, tool, hook, demo…
    run_id       INTEGER,                   -- the run that wrote it (no foreign key: runs may be pruned)
    text         TEXT NOT NULL CHECK (length(text) BETWEEN 1 AND 4000),
    created_at   TEXT NOT NULL,
    dismissed_at TEXT
);
CREATE INDEX coach_messages_member ON coach_messages(member_id, created_at);

-- +goose Down
DROP TABLE coach_messages;
