-- +goose Up
-- Hearth's own export re-imports body scans by their source and key like
-- weigh-ins, meals and workouts (internal/importer, own.go): the ledger
-- remembers what an import wrote for them too, so a scan the member
-- changed or deleted is kept as they left it. SQLite cannot alter a CHECK:
-- the table is rebuilt (nothing references it).
CREATE TABLE import_ledger_new (
    member_id   TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    kind        TEXT NOT NULL CHECK (kind IN ('weight','meal','workout','body_scan')),
    source      TEXT NOT NULL,
    source_key  TEXT NOT NULL,
    values_hash TEXT NOT NULL,
    import_id   INTEGER NOT NULL,
    PRIMARY KEY (member_id, kind, source, source_key)
) WITHOUT ROWID;
INSERT INTO import_ledger_new SELECT member_id, kind, source, source_key, values_hash, import_id FROM import_ledger;
DROP TABLE import_ledger;
ALTER TABLE import_ledger_new RENAME TO import_ledger;

-- +goose Down
CREATE TABLE import_ledger_old (
    member_id   TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    kind        TEXT NOT NULL CHECK (kind IN ('weight','meal','workout')),
    source      TEXT NOT NULL,
    source_key  TEXT NOT NULL,
    values_hash TEXT NOT NULL,
    import_id   INTEGER NOT NULL,
    PRIMARY KEY (member_id, kind, source, source_key)
) WITHOUT ROWID;
INSERT INTO import_ledger_old SELECT member_id, kind, source, source_key, values_hash, import_id FROM import_ledger
    WHERE kind != 'body_scan';
DROP TABLE import_ledger;
ALTER TABLE import_ledger_old RENAME TO import_ledger;
