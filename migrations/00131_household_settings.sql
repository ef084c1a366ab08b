-- +goose Up
-- Household-wide settings edited on Admin → Household (internal/household,
-- settings.go). One row; no row means every default.
--
-- time_zone is the household's IANA time zone ('' = not set: HEARTH_TZ or
-- the server's zone). It is read at start: HEARTH_TZ or -tz, when given,
-- overrides it.
--
-- night_* is the wall screens' night schedule: between night_from and
-- night_to (HH:MM, household time; night_to may be past midnight) the
-- kiosk dims to a clock ('dim') or goes black ('blank'); 'off' keeps the
-- times the admin typed for when it is turned on again.
CREATE TABLE household_settings (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    time_zone  TEXT NOT NULL DEFAULT '' CHECK (length(time_zone) <= 64),
    night_mode TEXT NOT NULL DEFAULT 'off' CHECK (night_mode IN ('off', 'dim', 'blank')),
    night_from TEXT NOT NULL DEFAULT '' CHECK (night_from = '' OR night_from GLOB '[0-2][0-9]:[0-5][0-9]'),
    night_to   TEXT NOT NULL DEFAULT '' CHECK (night_to = '' OR night_to GLOB '[0-2][0-9]:[0-5][0-9]'),
    updated_at TEXT NOT NULL,
    CHECK (night_mode = 'off' OR (night_from <> '' AND night_to <> '' AND night_from <> night_to))
);

-- +goose Down
DROP TABLE household_settings;
