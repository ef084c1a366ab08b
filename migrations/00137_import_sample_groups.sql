-- +goose Up
-- Apple dietary samples of one food entry go to one meal (internal/importer,
-- "Nutrition"): the samples of one HKCorrelationTypeIdentifierFood, or
-- without one the samples one app wrote at one instant. group_key names the
-- entry ("c:…" a correlation, "s:…" a source at an instant; NULL for samples
-- staged before entries were known, which adopt theirs when an export brings
-- them again). Not indexed: the samples of an "s:" entry share their instant
-- and are found by it (the primary key), those of a correlation are joined
-- while the file is read.
ALTER TABLE import_samples ADD COLUMN group_key TEXT;

-- Entries an import moved samples into (a sample staged by an earlier
-- import, met again): their meal is settled with those the import added to.
CREATE TABLE import_touched_entries (
    import_id INTEGER NOT NULL,
    at        TEXT NOT NULL,
    group_key TEXT NOT NULL,
    PRIMARY KEY (import_id, at, group_key)
) WITHOUT ROWID;

-- +goose Down
DROP TABLE import_touched_entries;
ALTER TABLE import_samples DROP COLUMN group_key;
