-- +goose Up
-- The household's sensors as data (issue 37 §3): a Home Assistant entity
-- mapped to a member and a record kind, polled on a schedule.
CREATE TABLE sensor_mappings (
    id         INTEGER PRIMARY KEY,
    entity_id  TEXT NOT NULL,
    member_id  TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    kind       TEXT NOT NULL CHECK (kind IN ('weight','body_fat','steps','sleep')),
    created_at TEXT NOT NULL,
    -- The last state time imported: the next poll reads history after it
    -- (NULL: never polled; the first poll reads the last 30 days).
    cursor_at  TEXT,
    -- The last poll's outcome, for Admin → Integrations → Sensors.
    polled_at  TEXT,
    poll_added INTEGER NOT NULL DEFAULT 0,
    poll_error TEXT,
    UNIQUE (entity_id, member_id, kind)
);
CREATE INDEX sensor_mappings_member ON sensor_mappings(member_id);

-- One figure per member, local day and kind (steps, hours of sleep), with
-- where it came from; written through the import ledger like weigh-ins.
CREATE TABLE daily_figures (
    id          INTEGER PRIMARY KEY,
    member_id   TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    day         TEXT NOT NULL, -- the household's local day, YYYY-MM-DD
    kind        TEXT NOT NULL CHECK (kind IN ('steps','sleep')),
    value       REAL NOT NULL CHECK (value >= 0),
    unit        TEXT NOT NULL, -- steps | h
    measured_at TEXT NOT NULL, -- the reading that set the value
    source      TEXT NOT NULL,
    source_key  TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    import_id   INTEGER
);
CREATE UNIQUE INDEX daily_figures_source_key ON daily_figures(member_id, source, source_key);
CREATE INDEX daily_figures_member_day ON daily_figures(member_id, kind, day);

-- The ledger remembers daily figures too.
CREATE TABLE import_ledger_new (
    member_id   TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    kind        TEXT NOT NULL CHECK (kind IN ('weight','meal','workout','body_scan','daily_figure')),
    source      TEXT NOT NULL,
    source_key  TEXT NOT NULL,
    values_hash TEXT NOT NULL,
    import_id   INTEGER NOT NULL,
    PRIMARY KEY (member_id, kind, source, source_key)
) WITHOUT ROWID;
INSERT INTO import_ledger_new SELECT member_id, kind, source, source_key, values_hash, import_id FROM import_ledger;
DROP TABLE import_ledger;
ALTER TABLE import_ledger_new RENAME TO import_ledger;

-- +goose Down
CREATE TABLE import_ledger_old (
    member_id   TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    kind        TEXT NOT NULL CHECK (kind IN ('weight','meal','workout','body_scan')),
    source      TEXT NOT NULL,
    source_key  TEXT NOT NULL,
    values_hash TEXT NOT NULL,
    import_id   INTEGER NOT NULL,
    PRIMARY KEY (member_id, kind, source, source_key)
) WITHOUT ROWID;
INSERT INTO import_ledger_old SELECT member_id, kind, source, source_key, values_hash, import_id FROM import_ledger
    WHERE kind != 'daily_figure';
DROP TABLE import_ledger;
ALTER TABLE import_ledger_old RENAME TO import_ledger;
DROP TABLE daily_figures;
DROP TABLE sensor_mappings;
