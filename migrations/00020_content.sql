-- +goose Up
-- The workout content catalog (internal/content). Items are never deleted by
-- imports (dashboards and workouts keep referring to them); imports upsert by id.
CREATE TABLE content_items (
    id           TEXT PRIMARY KEY CHECK (id GLOB 'local:?*' OR id GLOB 'plex:?*'),
    title        TEXT NOT NULL CHECK (length(title) BETWEEN 1 AND 200),
    program_id   TEXT NOT NULL DEFAULT '',
    day          INTEGER NOT NULL DEFAULT 0 CHECK (day >= 0),
    duration_min INTEGER NOT NULL CHECK (duration_min > 0),
    kind         TEXT NOT NULL,
    thumbnail    TEXT NOT NULL DEFAULT '',
    play_url     TEXT NOT NULL DEFAULT '',
    tags         TEXT NOT NULL DEFAULT '[]', -- JSON array of strings
    summary      TEXT NOT NULL DEFAULT '',
    source       TEXT NOT NULL DEFAULT 'file',
    source_thumb TEXT NOT NULL DEFAULT '', -- token-free path on the source server (Plex); never rendered
    media_path   TEXT NOT NULL DEFAULT '', -- token-free media part path on the source server (Plex)
    created_at   TEXT NOT NULL,
    updated_at   TEXT NOT NULL
);
CREATE INDEX content_items_kind ON content_items(kind);
CREATE INDEX content_items_program ON content_items(program_id, day);

CREATE TABLE content_programs (
    id          TEXT PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 64),
    title       TEXT NOT NULL CHECK (length(title) BETWEEN 1 AND 200),
    description TEXT NOT NULL DEFAULT '',
    source      TEXT NOT NULL DEFAULT 'file',
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL
);

-- One row per program day, numbered 1..N without gaps; a rest day has no content.
CREATE TABLE content_program_days (
    program_id TEXT NOT NULL REFERENCES content_programs(id) ON DELETE CASCADE,
    day        INTEGER NOT NULL CHECK (day >= 1),
    content_id TEXT REFERENCES content_items(id),
    rest       INTEGER NOT NULL DEFAULT 0 CHECK (rest IN (0, 1)),
    note       TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (program_id, day),
    CHECK ((rest = 1 AND content_id IS NULL) OR (rest = 0 AND content_id IS NOT NULL))
);
CREATE INDEX content_program_days_content ON content_program_days(content_id);

-- +goose Down
DROP TABLE content_program_days;
DROP TABLE content_programs;
DROP TABLE content_items;
