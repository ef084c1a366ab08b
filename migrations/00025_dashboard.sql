-- +goose Up
-- One document per member and local day; older days stay as history.
CREATE TABLE dashboards (
    member_id  TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    day        TEXT NOT NULL, -- YYYY-MM-DD in the household time zone
    run_id     INTEGER,
    document   TEXT NOT NULL CHECK (json_valid(document)),
    sources    TEXT NOT NULL DEFAULT '', -- provenance, e.g. "weight, meals, 3 notes"
    created_at TEXT NOT NULL,
    PRIMARY KEY (member_id, day)
);

CREATE TABLE prompt_answers (
    id            INTEGER PRIMARY KEY,
    member_id     TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    day           TEXT NOT NULL,
    prompt_id     TEXT NOT NULL,
    question      TEXT NOT NULL,
    answer        TEXT NOT NULL,
    kind          TEXT NOT NULL CHECK (kind IN ('tap','text','voice')),
    voice_memo_id INTEGER,
    answered_at   TEXT NOT NULL,
    processed_at  TEXT, -- set when a coach run has turned the answer into memory or updates
    UNIQUE (member_id, day, prompt_id)
);

CREATE TABLE voice_memos (
    id         INTEGER PRIMARY KEY,
    member_id  TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    day        TEXT NOT NULL,
    prompt_id  TEXT NOT NULL DEFAULT '',
    path       TEXT NOT NULL,
    mime       TEXT NOT NULL,
    size       INTEGER NOT NULL,
    transcript TEXT NOT NULL DEFAULT '',
    status     TEXT NOT NULL DEFAULT 'stored' CHECK (status IN ('stored','transcribed','failed')),
    created_at TEXT NOT NULL
);
CREATE INDEX voice_memos_member ON voice_memos(member_id, created_at);

CREATE TABLE content_consumed (
    id          INTEGER PRIMARY KEY,
    member_id   TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    content_id  TEXT NOT NULL,
    consumed_at TEXT NOT NULL,
    source      TEXT NOT NULL DEFAULT 'done_tap'
);
CREATE INDEX consumed_member ON content_consumed(member_id, consumed_at);

-- Per-member playlist built on the kiosk, in play order.
CREATE TABLE playlist_items (
    member_id  TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    position   INTEGER NOT NULL,
    content_id TEXT NOT NULL,
    PRIMARY KEY (member_id, position)
);

-- +goose Down
DROP TABLE playlist_items;
DROP TABLE content_consumed;
DROP TABLE voice_memos;
DROP TABLE prompt_answers;
DROP TABLE dashboards;
