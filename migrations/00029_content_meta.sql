-- +goose Up
-- Content metadata the coach decides with (internal/content meta.go):
-- intensity (low, moderate, high), impact (low, high) and the body areas an
-- item loads (a JSON array; NULL when the catalog does not say, so the
-- kind's guess applies). meta_edited marks metadata an admin set in the
-- catalog page: imports and Plex syncs keep it.
ALTER TABLE content_items ADD COLUMN intensity TEXT NOT NULL DEFAULT ''
    CHECK (intensity IN ('', 'low', 'moderate', 'high'));
ALTER TABLE content_items ADD COLUMN impact TEXT NOT NULL DEFAULT ''
    CHECK (impact IN ('', 'low', 'high'));
ALTER TABLE content_items ADD COLUMN areas TEXT;
ALTER TABLE content_items ADD COLUMN meta_edited INTEGER NOT NULL DEFAULT 0 CHECK (meta_edited IN (0, 1));

-- +goose Down
ALTER TABLE content_items DROP COLUMN meta_edited;
ALTER TABLE content_items DROP COLUMN areas;
ALTER TABLE content_items DROP COLUMN impact;
ALTER TABLE content_items DROP COLUMN intensity;
