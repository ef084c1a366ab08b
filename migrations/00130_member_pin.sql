-- +goose Up
-- A member's PIN for shared screens (internal/household SetPIN): it unlocks
-- their private figures, chat and corrections on one screen for a few
-- minutes. Only a bcrypt hash is kept; NULL: no PIN.
ALTER TABLE members ADD COLUMN pin_hash TEXT;

-- +goose Down
ALTER TABLE members DROP COLUMN pin_hash;
