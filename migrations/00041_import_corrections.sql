-- +goose Up
-- Imports that update in place (internal/importer, README "Corrections").

-- The import that last wrote a row, so a record repeated inside one file is
-- told apart from one an earlier import brought ("repeated in file" vs
-- "duplicate").
ALTER TABLE weight_readings ADD COLUMN import_id INTEGER;
ALTER TABLE meals ADD COLUMN import_id INTEGER;
ALTER TABLE workouts ADD COLUMN import_id INTEGER;

-- Workout distance (Apple totalDistance / distance statistics, CSV distance
-- columns), stored in km like every other metric value.
ALTER TABLE workouts ADD COLUMN distance_km REAL CHECK (distance_km IS NULL OR distance_km >= 0);

-- What an import wrote, per entry and natural key (weight: time; meal: local
-- date + name; workout: start + type). values_hash is a hash of the values
-- the import stored: a row whose current values hash differently was changed
-- by the member and is not overwritten by a corrected file; a key with a
-- ledger entry and no row was deleted by the member and is not brought back.
CREATE TABLE import_ledger (
    member_id   TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    kind        TEXT NOT NULL CHECK (kind IN ('weight','meal','workout')),
    source      TEXT NOT NULL,
    source_key  TEXT NOT NULL,
    values_hash TEXT NOT NULL,
    import_id   INTEGER NOT NULL,
    PRIMARY KEY (member_id, kind, source, source_key)
) WITHOUT ROWID;

-- CSV rows of the running import, collected by natural key before they are
-- merged into entries (a meal is the sum of its food rows, a Strong or Hevy
-- workout the group of its sets). Emptied when the import's transaction ends.
CREATE TABLE import_staged (
    import_id INTEGER NOT NULL,
    nkey      TEXT NOT NULL,    -- natural key
    ckey      TEXT NOT NULL,    -- content key: an exact repeat of a row is "repeated in file"
    line      INTEGER NOT NULL,
    at        TEXT NOT NULL,
    s1        TEXT NOT NULL DEFAULT '',  -- meal name | workout type
    s2        TEXT NOT NULL DEFAULT '',  -- workout title
    s3        TEXT NOT NULL DEFAULT '',  -- workout content id
    n1 REAL, n2 REAL, n3 REAL, n4 REAL, n5 REAL, n6 REAL,
    PRIMARY KEY (import_id, nkey, ckey)
) WITHOUT ROWID;

-- Apple dietary samples: whether the slot came from the record's own meal
-- (a "Meal" metadata entry, or its food correlation) rather than its time.
ALTER TABLE import_samples ADD COLUMN slot_explicit INTEGER NOT NULL DEFAULT 0;

-- Meal slots whose samples moved during an import (a sample regrouped by its
-- meal), recomputed with the slots the import added to.
CREATE TABLE import_touched (
    import_id INTEGER NOT NULL,
    slot_key  TEXT NOT NULL,
    PRIMARY KEY (import_id, slot_key)
) WITHOUT ROWID;

-- Body-composition readings without a weigh-in nearby become body scans
-- with only the figure they have: body_scans is rebuilt with nullable
-- figures by Go migration 42 (internal/store/bodyscans.go), which keeps
-- migration 70's unique source-key index whichever of the two runs first.

-- CSV rows imported before natural keys were keyed by a hash of their
-- values; weigh-ins and workouts get their natural key here (a later
-- re-import then updates instead of adding a copy). Meals are keyed by the
-- household-local date, which SQL does not know: the importer adopts such
-- rows when it meets them (see importer README).
UPDATE OR IGNORE weight_readings SET source_key = 'w|' || measured_at WHERE source = 'csv';
UPDATE OR IGNORE workouts SET source_key = 'wo|' || started_at || '|' || type WHERE source = 'csv';

-- +goose Down
DROP TABLE import_touched;
DROP TABLE import_staged;
DROP TABLE import_ledger;
ALTER TABLE import_samples DROP COLUMN slot_explicit;
ALTER TABLE workouts DROP COLUMN distance_km;
ALTER TABLE workouts DROP COLUMN import_id;
ALTER TABLE meals DROP COLUMN import_id;
ALTER TABLE weight_readings DROP COLUMN import_id;
