-- +goose Up
-- Device tokens (internal/devices): the household may require that kiosk
-- screens and scripts of the household API (/api/v1) carry a device token.
-- Household-level, not member data. Only SHA-256 hashes of tokens and
-- enrolment codes are stored: a copy of the database (a backup) holds no
-- usable secret. Times are TEXT in UTC, fixed width "2006-01-02T15:04:05.000Z".

-- One row: whether screens and the household API need a device token
-- (0 = the trusted-network default: no row, or 0).
CREATE TABLE device_settings (
    id            INTEGER PRIMARY KEY CHECK (id = 1),
    require_token INTEGER NOT NULL CHECK (require_token IN (0, 1)),
    updated_at    TEXT NOT NULL
);

-- A screen waiting for its enrolment link to be opened has code_hash and
-- code_expires_at; once enrolled (or a script, enrolled at creation) it has
-- token_hash instead. Revoking deletes the row.
CREATE TABLE devices (
    id              INTEGER PRIMARY KEY,
    name            TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 60),
    kind            TEXT NOT NULL CHECK (kind IN ('screen', 'script')),
    token_hash      TEXT UNIQUE,
    code_hash       TEXT UNIQUE,
    code_expires_at TEXT,
    created_at      TEXT NOT NULL,
    enrolled_at     TEXT,
    last_seen_at    TEXT,
    CHECK ((token_hash IS NULL) <> (code_hash IS NULL)),
    CHECK ((code_hash IS NULL) = (code_expires_at IS NULL))
);

-- +goose Down
DROP TABLE devices;
DROP TABLE device_settings;
