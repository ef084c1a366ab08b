-- +goose Up
-- Per-member workout program state (internal/program). Tool-owned facts, not
-- agent memory. Rows are kept as history; at most one active or paused row per member.
CREATE TABLE program_states (
    id          INTEGER PRIMARY KEY,
    member_id   TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    program_id  TEXT NOT NULL,
    status      TEXT NOT NULL CHECK (status IN ('active','paused','completed','abandoned')),
    start_date  TEXT NOT NULL,             -- YYYY-MM-DD, household calendar
    anchor_date TEXT NOT NULL,             -- schedule anchor: anchor_day is due on anchor_date
    anchor_day  INTEGER NOT NULL CHECK (anchor_day >= 1),
    current_day INTEGER NOT NULL CHECK (current_day >= 1),
    pattern     TEXT NOT NULL,             -- 'daily' or weekdays 'mon,tue,thu'
    note        TEXT NOT NULL DEFAULT '',
    paused_at   TEXT,
    ended_at    TEXT,
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL
);
CREATE UNIQUE INDEX program_states_current ON program_states(member_id) WHERE status IN ('active','paused');
CREATE INDEX program_states_member ON program_states(member_id, id);

CREATE TABLE program_substitutions (
    id       INTEGER PRIMARY KEY,
    state_id INTEGER NOT NULL REFERENCES program_states(id) ON DELETE CASCADE,
    day      INTEGER NOT NULL CHECK (day >= 1),
    original TEXT NOT NULL DEFAULT '',
    actual   TEXT NOT NULL CHECK (length(actual) BETWEEN 1 AND 200),
    reason   TEXT NOT NULL DEFAULT '',
    at       TEXT NOT NULL
);
CREATE INDEX program_substitutions_state ON program_substitutions(state_id, day);

-- +goose Down
DROP TABLE program_substitutions;
DROP TABLE program_states;
