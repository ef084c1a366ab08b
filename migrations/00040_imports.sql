-- +goose Up
-- One row per imported file (internal/importer). The row is committed as
-- 'running' before the file's single data transaction starts and is set to
-- 'complete' inside that transaction, so a crash leaves either no records and a
-- 'running' row (marked 'interrupted' at next start) or all records and a
-- 'complete' row.
CREATE TABLE imports (
    id                INTEGER PRIMARY KEY,
    member_id         TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    file_name         TEXT NOT NULL,
    kind              TEXT NOT NULL,
    status            TEXT NOT NULL CHECK (status IN ('running','complete','failed','interrupted')),
    started_at        TEXT NOT NULL,
    finished_at       TEXT,
    bytes             INTEGER NOT NULL DEFAULT 0,
    added             INTEGER NOT NULL DEFAULT 0,
    skipped_duplicate INTEGER NOT NULL DEFAULT 0,
    skipped_unknown   INTEGER NOT NULL DEFAULT 0,
    rejected          INTEGER NOT NULL DEFAULT 0,
    summary           TEXT,  -- JSON of importer.Summary (per-type counts, problems)
    error             TEXT
);
CREATE INDEX imports_member_time ON imports(member_id, started_at);
CREATE INDEX imports_running ON imports(status) WHERE status = 'running';

-- Apple Health quantity samples that are not stored one-to-one: dietary
-- samples (summed into one meal per day and meal slot) and body-fat /
-- lean-mass samples (attached to the weight reading taken at the same time).
-- Each sample is keyed individually, so re-importing the same or an
-- overlapping export adds each sample once and the derived rows are
-- recomputed from the samples, never double-counted.
CREATE TABLE import_samples (
    member_id  TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    kind       TEXT NOT NULL CHECK (kind IN ('energy','protein','carbs','fat','body_fat','lean_mass')),
    at         TEXT NOT NULL,  -- start instant, UTC, store.TimeLayout
    source_key TEXT NOT NULL,
    import_id  INTEGER NOT NULL, -- the import that first added the sample
    slot_key   TEXT,           -- dietary only: 'YYYY-MM-DD:breakfast|lunch|snack|dinner' (record's local time)
    value      REAL NOT NULL,  -- kcal, g, percent or kg
    PRIMARY KEY (member_id, kind, at, source_key)
) WITHOUT ROWID;
CREATE INDEX import_samples_slot ON import_samples(member_id, slot_key) WHERE slot_key IS NOT NULL;
CREATE INDEX import_samples_import ON import_samples(import_id, slot_key);

-- +goose Down
DROP TABLE import_samples;
DROP TABLE imports;
