-- +goose Up
-- The health coach's notes on a member: insights, milestones, decisions
-- (log_coaching_note, and the daily-dashboard run's own notes). History only.
CREATE TABLE coaching_notes (
    id         INTEGER PRIMARY KEY,
    member_id  TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    note       TEXT NOT NULL CHECK (length(note) BETWEEN 1 AND 1000),
    run_id     INTEGER, -- the agent run that wrote it, if any
    created_at TEXT NOT NULL
);
CREATE INDEX coaching_notes_member ON coaching_notes(member_id, created_at);

-- +goose Down
DROP TABLE coaching_notes;
