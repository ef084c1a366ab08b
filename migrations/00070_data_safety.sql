-- +goose Up
-- Data safety (internal/backup, issue 21). Times are TEXT in UTC, fixed
-- width "2006-01-02T15:04:05.000Z".

-- One row per backup the server made (nightly or "back up now"); the admin
-- and the kiosk's admin badge report the newest failure from here. A row
-- still 'running' at start was cut short and becomes 'interrupted'.
CREATE TABLE backup_runs (
    id          INTEGER PRIMARY KEY,
    trigger     TEXT NOT NULL CHECK (trigger IN ('schedule','manual','catchup')),
    status      TEXT NOT NULL CHECK (status IN ('running','ok','failed','interrupted')),
    started_at  TEXT NOT NULL,
    finished_at TEXT,
    archive     TEXT NOT NULL DEFAULT '',
    bytes       INTEGER NOT NULL DEFAULT 0,
    error       TEXT NOT NULL DEFAULT ''
);
CREATE INDEX backup_runs_started ON backup_runs(started_at);

-- How many scheduled backups retention keeps (one row, edited in Admin → Backups).
CREATE TABLE backup_settings (
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    keep_daily  INTEGER NOT NULL CHECK (keep_daily BETWEEN 1 AND 366),
    keep_weekly INTEGER NOT NULL CHECK (keep_weekly BETWEEN 0 AND 520),
    updated_at  TEXT NOT NULL
);

-- Body scans re-imported from an export (CSV kind csv-body-scans) are keyed
-- like weigh-ins, meals and workouts, so importing twice adds nothing.
CREATE UNIQUE INDEX body_scans_source_key ON body_scans(member_id, source, source_key);

-- +goose Down
DROP INDEX body_scans_source_key;
DROP TABLE backup_settings;
DROP TABLE backup_runs;
