-- +goose Up
-- How a member follows their program: 'calendar' (each training weekday is
-- the next program day; missed days count as behind) or 'own' (today is
-- always the next undone day, whenever that is).
ALTER TABLE program_states ADD COLUMN pace TEXT NOT NULL DEFAULT 'calendar' CHECK (pace IN ('calendar','own'));

-- +goose Down
ALTER TABLE program_states DROP COLUMN pace;
