-- +goose Up
-- A client request id is unique on its own (issue 42): the browser and
-- scripts make it random (a UUID, a ULID, 16 to 128 characters), so one id
-- names one request whatever the member or route. Keyed by (member, route,
-- id), the same id sent for Maya and then for Theo was two fresh requests
-- and both ran; keyed by the id alone, the second is a different request
-- under a used id and is refused (422 key_reused), never run or replayed.
-- member_id stays as attribution: erasing a member deletes the replies
-- recorded for requests on their data (it is set when the reply is
-- recorded, also for routes without a member in the path).
-- Rows from before: when one id was used under several members or routes,
-- the oldest use keeps it (the receipts are kept 48 hours only).
CREATE TABLE request_keys_new (
    key          TEXT NOT NULL PRIMARY KEY,
    member_id    TEXT NOT NULL,            -- whose data the request touched, '' for none or several
    kind         TEXT NOT NULL,            -- method and route, e.g. 'POST /m/:member/weight'
    body_hash    TEXT NOT NULL,
    status       INTEGER NOT NULL DEFAULT 0, -- 0 while the first request runs
    content_type TEXT NOT NULL DEFAULT '',
    location     TEXT NOT NULL DEFAULT '',
    response     BLOB,
    created_at   TEXT NOT NULL
);
INSERT OR IGNORE INTO request_keys_new (key, member_id, kind, body_hash, status, content_type, location, response, created_at)
    SELECT key, member_id, kind, body_hash, status, content_type, location, response, created_at
    FROM request_keys ORDER BY created_at, rowid;
DROP TABLE request_keys;
ALTER TABLE request_keys_new RENAME TO request_keys;
CREATE INDEX request_keys_created ON request_keys(created_at);
CREATE INDEX request_keys_member ON request_keys(member_id);

-- +goose Down
CREATE TABLE request_keys_old (
    member_id    TEXT NOT NULL,
    kind         TEXT NOT NULL,
    key          TEXT NOT NULL,
    body_hash    TEXT NOT NULL,
    status       INTEGER NOT NULL DEFAULT 0,
    content_type TEXT NOT NULL DEFAULT '',
    location     TEXT NOT NULL DEFAULT '',
    response     BLOB,
    created_at   TEXT NOT NULL,
    PRIMARY KEY (member_id, kind, key)
);
INSERT INTO request_keys_old SELECT member_id, kind, key, body_hash, status, content_type, location, response, created_at FROM request_keys;
DROP TABLE request_keys;
ALTER TABLE request_keys_old RENAME TO request_keys;
CREATE INDEX request_keys_created ON request_keys(created_at);
