-- +goose Up
-- Times are TEXT in UTC, fixed width "2006-01-02T15:04:05.000Z", so text order is time order.
-- Everything is metric; the member's unit preference only affects display.
CREATE TABLE members (
    id              TEXT PRIMARY KEY CHECK (id GLOB '[a-z0-9]*' AND length(id) BETWEEN 1 AND 40),
    name            TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 80),
    color           TEXT NOT NULL DEFAULT '#4f8cff',
    avatar          TEXT NOT NULL DEFAULT '',
    unit            TEXT NOT NULL DEFAULT 'kg' CHECK (unit IN ('kg','lb')),
    calories_target REAL,
    protein_g       REAL,
    carbs_g         REAL,
    fat_g           REAL,
    goal_weight_kg  REAL,
    height_cm       REAL,
    birth_date      TEXT,
    sex             TEXT CHECK (sex IS NULL OR sex IN ('female','male')),
    activity_level  TEXT CHECK (activity_level IS NULL OR activity_level IN ('sedentary','light','moderate','active','very_active')),
    private_figures INTEGER NOT NULL DEFAULT 0,
    created_at      TEXT NOT NULL
);

CREATE TABLE weight_readings (
    id           INTEGER PRIMARY KEY,
    member_id    TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    measured_at  TEXT NOT NULL,
    weight_kg    REAL NOT NULL CHECK (weight_kg > 0),
    body_fat_pct REAL CHECK (body_fat_pct IS NULL OR (body_fat_pct >= 0 AND body_fat_pct <= 100)),
    lean_mass_kg REAL,
    source       TEXT NOT NULL DEFAULT 'manual',
    source_key   TEXT,
    created_at   TEXT NOT NULL
);
CREATE INDEX weight_member_time ON weight_readings(member_id, measured_at);
CREATE UNIQUE INDEX weight_source_key ON weight_readings(member_id, source, source_key);

CREATE TABLE meals (
    id         INTEGER PRIMARY KEY,
    member_id  TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    eaten_at   TEXT NOT NULL,
    name       TEXT NOT NULL,
    calories   REAL NOT NULL CHECK (calories >= 0),
    protein_g  REAL NOT NULL DEFAULT 0,
    carbs_g    REAL NOT NULL DEFAULT 0,
    fat_g      REAL NOT NULL DEFAULT 0,
    source     TEXT NOT NULL DEFAULT 'manual',
    source_key TEXT,
    created_at TEXT NOT NULL
);
CREATE INDEX meals_member_time ON meals(member_id, eaten_at);
CREATE UNIQUE INDEX meals_source_key ON meals(member_id, source, source_key);

CREATE TABLE workouts (
    id           INTEGER PRIMARY KEY,
    member_id    TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    started_at   TEXT NOT NULL,
    type         TEXT NOT NULL,
    title        TEXT NOT NULL DEFAULT '',
    duration_min REAL NOT NULL CHECK (duration_min >= 0),
    avg_hr       INTEGER,
    max_hr       INTEGER,
    energy_kcal  REAL,
    content_id   TEXT,
    source       TEXT NOT NULL DEFAULT 'manual',
    source_key   TEXT,
    created_at   TEXT NOT NULL
);
CREATE INDEX workouts_member_time ON workouts(member_id, started_at);
CREATE UNIQUE INDEX workouts_source_key ON workouts(member_id, source, source_key);

CREATE TABLE body_scans (
    id           INTEGER PRIMARY KEY,
    member_id    TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    scanned_at   TEXT NOT NULL,
    body_fat_pct REAL NOT NULL,
    lean_mass_kg REAL NOT NULL,
    fat_mass_kg  REAL,
    bone_mass_kg REAL,
    visceral_fat REAL,
    source       TEXT NOT NULL DEFAULT 'manual',
    source_key   TEXT,
    created_at   TEXT NOT NULL
);
CREATE INDEX scans_member_time ON body_scans(member_id, scanned_at);

CREATE TABLE goals (
    id          INTEGER PRIMARY KEY,
    member_id   TEXT NOT NULL REFERENCES members(id) ON DELETE CASCADE,
    kind        TEXT NOT NULL,
    description TEXT NOT NULL,
    target      REAL,
    unit        TEXT NOT NULL DEFAULT '',
    target_date TEXT,
    status      TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active','achieved','dropped')),
    created_at  TEXT NOT NULL
);
CREATE INDEX goals_member ON goals(member_id, status);

-- +goose Down
DROP TABLE goals;
DROP TABLE body_scans;
DROP TABLE workouts;
DROP TABLE meals;
DROP TABLE weight_readings;
DROP TABLE members;
