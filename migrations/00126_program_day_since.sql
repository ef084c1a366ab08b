-- +goose Up
-- When the member reached their current program day (declared, advanced,
-- set, finished): a session done since then finishes that day. Changing the
-- pattern or the pace, pausing or resuming leaves it alone, so a session
-- done before such a change still counts (issue 32: after "Easier" made
-- today a rest day, the next session repeated one already done).
-- Existing rows start from their last update, the marker used until now.
ALTER TABLE program_states ADD COLUMN day_since TEXT NOT NULL DEFAULT '';
UPDATE program_states SET day_since = updated_at;

-- +goose Down
ALTER TABLE program_states DROP COLUMN day_since;
