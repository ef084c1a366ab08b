package app

import (
	"context"
	"database/sql"
	"log/slog"
	"time"

	"hearth/internal/household"
	"hearth/internal/store"
	"hearth/web/admin"
)

// tzSource says where the running zone came from, for Admin → Household.
func (c Config) tzSource() string {
	switch {
	case c.TZExplicit:
		return admin.TZFromConfig
	case c.tzSaved:
		return admin.TZFromSettings
	}
	return ""
}

// householdZone applies the time zone chosen on Admin → Household to cfg,
// unless HEARTH_TZ or -tz named one (cfg.TZExplicit), which wins.
//
// The zone is applied here, at start, and nowhere else: about fifteen
// services take it when they are built (the scheduler's cron jobs, the
// program calendar, the dashboard store, the coach, backups, the importer,
// the web layer) and keep it for "today". Changing it under them would
// need each to read it through a shared holder, and the scheduler to
// re-register every cron job; a day's boundaries moving while a day's
// documents, streaks and fires are kept by the old ones is worse than a
// restart. So the admin page says the change takes effect when Hearth
// restarts, and until then every part of Hearth agrees on one zone.
func householdZone(ctx context.Context, cfg Config, db *store.DB, log *slog.Logger) (Config, error) {
	if cfg.TZExplicit {
		return cfg, nil
	}
	st, err := household.ReadSettings(ctx, db)
	if err != nil {
		return cfg, err
	}
	if st.TimeZone == "" {
		return cfg, nil
	}
	loc, err := time.LoadLocation(st.TimeZone)
	if err != nil { // stored by a Hearth whose zone database knew it
		log.Warn("the household time zone set in Admin → Household is unknown here; using HEARTH_TZ's default",
			"time_zone", st.TimeZone, "tz", cfg.Location.String(), "err", err)
		return cfg, nil
	}
	log.Info("household time zone from Admin → Household", "tz", st.TimeZone)
	cfg.TZName, cfg.Location, cfg.tzSaved = st.TimeZone, loc, true
	return cfg, nil
}

// SavedTimeZone is the zone chosen on Admin → Household in cfg's database,
// for a command that runs beside the server and reads "household time"
// (hearth import): "" when HEARTH_TZ or -tz was given (it wins), when none
// was chosen, or when the database cannot tell yet (none, or older).
func SavedTimeZone(ctx context.Context, cfg Config) string {
	if cfg.TZExplicit {
		return ""
	}
	var tz string
	err := store.ReadFile(ctx, cfg.DBPath, func(ctx context.Context, db *sql.DB) error {
		return db.QueryRowContext(ctx, `SELECT time_zone FROM household_settings WHERE id = 1`).Scan(&tz)
	})
	if err != nil {
		return ""
	}
	if _, err := time.LoadLocation(tz); err != nil {
		return ""
	}
	return tz
}
