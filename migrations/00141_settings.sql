-- +goose Up
-- Integration settings saved on Admin → Integrations (internal/settings):
-- one row per setting name, e.g. 'homeassistant.url'. The environment
-- (and flags) win over a row here; a missing row is the default.
--
-- value holds a plain setting. A secret (a token) is never stored in
-- plain text: secret holds a version byte, a fresh 12-byte nonce and the
-- AES-256-GCM ciphertext (the name as additional data), under a key derived
-- from secret.key in the data directory, which backups do not hold.
CREATE TABLE settings (
    name       TEXT PRIMARY KEY CHECK (length(name) BETWEEN 1 AND 100),
    value      TEXT NOT NULL DEFAULT '' CHECK (length(value) <= 4096),
    secret     BLOB CHECK (secret IS NULL OR length(secret) BETWEEN 29 AND 8192),
    updated_at TEXT NOT NULL,
    CHECK (secret IS NULL OR value = '')
);

-- +goose Down
DROP TABLE settings;
