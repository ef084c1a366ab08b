-- +goose Up
-- Screen layouts (internal/screen): a grid of widget placements per
-- orientation, kept as JSON (screen.Layout) and versioned like agent
-- definitions. The shipped layouts live in the binary; a row here is the
-- household's own layout or its edit of a shipped one (same slug).
-- Household-level, not member data. Times are TEXT in UTC.
CREATE TABLE screen_layouts (
    slug       TEXT PRIMARY KEY CHECK (length(slug) BETWEEN 1 AND 40 AND slug NOT GLOB '*[^a-z0-9-]*'),
    version    INTEGER NOT NULL CHECK (version >= 1),
    body       TEXT NOT NULL CHECK (json_valid(body)),
    updated_at TEXT NOT NULL
);

-- Every saved version, for the history and a roll-back.
CREATE TABLE screen_layout_versions (
    slug     TEXT NOT NULL,
    version  INTEGER NOT NULL,
    body     TEXT NOT NULL CHECK (json_valid(body)),
    saved_at TEXT NOT NULL,
    PRIMARY KEY (slug, version)
);

-- One row: the layout a screen with no layout of its own shows.
CREATE TABLE screen_settings (
    id             INTEGER PRIMARY KEY CHECK (id = 1),
    default_layout TEXT NOT NULL,
    updated_at     TEXT NOT NULL
);

-- The layout an enrolled screen shows (NULL: the household default).
ALTER TABLE devices ADD COLUMN layout TEXT;

-- +goose Down
ALTER TABLE devices DROP COLUMN layout;
DROP TABLE screen_settings;
DROP TABLE screen_layout_versions;
DROP TABLE screen_layouts;
