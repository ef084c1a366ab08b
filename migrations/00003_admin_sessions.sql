-- +goose Up
-- Admin sessions live on the server so that logging out, or changing the
-- admin password, ends them (a signed cookie alone stays valid until it
-- expires). Only a hash of each session token is stored.
CREATE TABLE admin_sessions (
    token_hash TEXT PRIMARY KEY,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL
);
CREATE INDEX admin_sessions_expiry ON admin_sessions(expires_at);

-- The bcrypt hash of the admin password the sessions were issued under: a
-- start with another HEARTH_ADMIN_PASSWORD ends every session.
CREATE TABLE admin_password (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    bcrypt     TEXT NOT NULL,
    changed_at TEXT NOT NULL
);

-- +goose Down
DROP TABLE admin_password;
DROP TABLE admin_sessions;
