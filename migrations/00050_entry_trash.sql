-- +goose Up
-- Entries a member deleted from the kiosk or the API, kept for a day so a
-- delete can be undone: the row as it was (JSON of its columns), restored
-- with the same id, source and import key (so the import ledger sees the
-- entry as it left it).
CREATE TABLE entry_trash (
    id         INTEGER PRIMARY KEY,
    member_id  TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    kind       TEXT NOT NULL CHECK (kind IN ('weight','meal','workout','body-scan')),
    entry_id   INTEGER NOT NULL,
    row        TEXT NOT NULL,
    deleted_at TEXT NOT NULL
);
CREATE INDEX entry_trash_member ON entry_trash(member_id, deleted_at);

-- +goose Down
DROP TABLE entry_trash;
