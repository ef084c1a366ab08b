-- +goose Up
-- The figures a day's briefing quotes, each with the fact it came from
-- (JSON [{"fact": "weight.current", "text": "70.5 kg"}]): at render time a
-- figure that changed since the coach wrote it is replaced by the live one.
ALTER TABLE dashboards ADD COLUMN quotes TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(quotes));

-- +goose Down
ALTER TABLE dashboards DROP COLUMN quotes;
