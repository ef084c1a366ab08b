-- +goose Up
-- Client request ids (idempotency keys): the Datastar client re-sends a POST
-- when the connection fails after the request left, so every creating
-- request carries an id the browser generated; a repeat is answered with the
-- recorded response instead of doing the work twice. Kept 48 hours.
CREATE TABLE request_keys (
    member_id    TEXT NOT NULL,            -- the route's member, '' for admin and other routes
    kind         TEXT NOT NULL,            -- method and route, e.g. 'POST /m/:member/weight'
    key          TEXT NOT NULL,
    body_hash    TEXT NOT NULL,
    status       INTEGER NOT NULL DEFAULT 0, -- 0 while the first request runs
    content_type TEXT NOT NULL DEFAULT '',
    location     TEXT NOT NULL DEFAULT '',
    response     BLOB,
    created_at   TEXT NOT NULL,
    PRIMARY KEY (member_id, kind, key)
);
CREATE INDEX request_keys_created ON request_keys(created_at);

-- +goose Down
DROP TABLE request_keys;
