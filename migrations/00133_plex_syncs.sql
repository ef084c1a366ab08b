-- +goose Up
-- The outcome of each Plex sync (internal/content, plexrecord.go), shown on
-- Admin → Catalog and by `hearth plex sync`: a wrong token, a missing or
-- empty section and a listing that ended short are said there, not only in
-- the server log. Only the newest rows are kept.
--
-- origin: what started it (start = the server starting with PLEX_SECTION,
-- cli = `hearth plex sync`, admin = Admin → Catalog's "Sync now").
-- items_removed: Plex items in the catalog that the section no longer
-- lists (kept: workouts and playlists name them).
-- warnings: JSON array of strings. error: '' when the sync succeeded.
CREATE TABLE plex_syncs (
    id                INTEGER PRIMARY KEY,
    section           TEXT NOT NULL CHECK (length(section) BETWEEN 1 AND 40),
    section_title     TEXT NOT NULL DEFAULT '',
    origin            TEXT NOT NULL CHECK (origin IN ('start', 'cli', 'admin')),
    started_at        TEXT NOT NULL,
    finished_at       TEXT NOT NULL,
    items_seen        INTEGER NOT NULL DEFAULT 0,
    items_added       INTEGER NOT NULL DEFAULT 0,
    items_updated     INTEGER NOT NULL DEFAULT 0,
    items_unchanged   INTEGER NOT NULL DEFAULT 0,
    items_removed     INTEGER NOT NULL DEFAULT 0,
    items_skipped     INTEGER NOT NULL DEFAULT 0,
    programs_added    INTEGER NOT NULL DEFAULT 0,
    programs_updated  INTEGER NOT NULL DEFAULT 0,
    warnings          TEXT NOT NULL DEFAULT '[]',
    error             TEXT NOT NULL DEFAULT ''
);

-- +goose Down
DROP TABLE plex_syncs;
