package household

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"hearth/internal/apperr"
	"hearth/internal/live"
	"hearth/internal/store"
)

// Settings are the household-wide settings of Admin → Household.
type Settings struct {
	// TimeZone is the IANA time zone the admin chose; "" = none chosen
	// (HEARTH_TZ, or the server's zone). Hearth reads it at start.
	TimeZone string
	// Night is the wall screens' night schedule.
	Night Night
}

// Night modes.
const (
	NightOff   = "off"
	NightDim   = "dim"   // a big clock (and what the morning holds) on black
	NightBlank = "blank" // black; a tap still wakes the screen
)

// Night is the wall screens' night schedule: from From to To (HH:MM in
// the household's time zone; To may be past midnight) a kiosk page dims
// to a clock or goes black, until a tap wakes it for a while. Off keeps
// the times typed for when it is turned on again.
type Night struct {
	Mode     string
	From, To string
}

// On reports whether the screens have a night.
func (n Night) On() bool { return n.Mode == NightDim || n.Mode == NightBlank }

// clockTime is HH:MM or H:MM, 00:00 to 23:59.
var clockTime = regexp.MustCompile(`^([01]?[0-9]|2[0-3]):([0-5][0-9])$`)

// parseClock normalises a time of day to HH:MM ("" stays "").
func parseClock(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", true
	}
	// <input type="time"> sends HH:MM:SS when seconds are shown.
	if len(s) == 8 && strings.HasSuffix(s, ":00") {
		s = s[:5]
	}
	m := clockTime.FindStringSubmatch(s)
	if m == nil {
		return "", false
	}
	if len(m[1]) == 1 {
		m[1] = "0" + m[1]
	}
	return m[1] + ":" + m[2], true
}

// ParseNight validates a night schedule as the admin form posts it
// (fields night_mode, night_from, night_to); a refusal names the field.
func ParseNight(mode, from, to string) (Night, error) {
	errs := fieldErrs{}
	n := Night{Mode: strings.TrimSpace(mode)}
	errs.check(n.Mode == NightOff || n.On(), "night_mode", "must be off, dim or blank")
	var ok bool
	n.From, ok = parseClock(from)
	errs.check(ok, "night_from", "must be a time of day like 22:00")
	fromOK := ok
	n.To, ok = parseClock(to)
	errs.check(ok, "night_to", "must be a time of day like 06:30")
	if n.On() {
		errs.check(n.From != "", "night_from", "is needed for a night: when does the screen dim?")
		errs.check(n.To != "", "night_to", "is needed for a night: when does the screen wake?")
		errs.check(!fromOK || n.From == "" || n.From != n.To, "night_to", "must differ from the start")
	}
	if err := errs.err(); err != nil {
		return Night{}, err
	}
	return n, nil
}

// ParseTimeZone validates a household time zone as the admin typed it
// (field time_zone): an IANA name Go knows (Europe/Berlin, UTC), returned
// as Go names it; "" clears the choice.
func ParseTimeZone(name string) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return "", nil
	}
	bad := func(msg string) error { return apperr.FieldErrors(map[string]string{"time_zone": msg}) }
	if len(name) > 64 || !utf8.ValidString(name) {
		return "", bad("is too long for a time zone name")
	}
	if name == "Local" {
		return "", bad(`"Local" is the server's own zone; leave the field empty for it, or name a zone like Europe/Berlin`)
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return "", bad("is not a time zone Hearth knows; use an IANA name like Europe/Berlin, America/New_York or UTC")
	}
	return loc.String(), nil
}

// Settings reads the household settings (every default when none were saved).
func (s *Service) Settings(ctx context.Context) (Settings, error) {
	return ReadSettings(ctx, s.db)
}

// ReadSettings reads the household settings from db: the app reads the
// time zone before it builds the services that use it.
func ReadSettings(ctx context.Context, db *store.DB) (Settings, error) {
	st := Settings{Night: Night{Mode: NightOff}}
	err := db.Read.QueryRowContext(ctx, `SELECT time_zone, night_mode, night_from, night_to FROM household_settings WHERE id = 1`).
		Scan(&st.TimeZone, &st.Night.Mode, &st.Night.From, &st.Night.To)
	if errors.Is(err, sql.ErrNoRows) {
		return st, nil
	}
	if err != nil {
		return st, fmt.Errorf("household: read settings: %w", err)
	}
	return st, nil
}

// SetTimeZone stores the household time zone (ParseTimeZone's rules; ""
// clears it). Hearth applies it at its next start.
func (s *Service) SetTimeZone(ctx context.Context, name string) (Settings, error) {
	tz, err := ParseTimeZone(name)
	if err != nil {
		return Settings{}, err
	}
	_, err = s.db.Write.ExecContext(ctx, `INSERT INTO household_settings (id, time_zone, updated_at) VALUES (1, ?, ?)
		ON CONFLICT (id) DO UPDATE SET time_zone = excluded.time_zone, updated_at = excluded.updated_at`,
		tz, store.FormatTime(s.now()))
	if err != nil {
		return Settings{}, fmt.Errorf("household: save time zone: %w", err)
	}
	return s.Settings(ctx) // nothing on the screens changes before a restart
}

// SetNight stores the screens' night schedule (ParseNight's rules) and
// tells open screens, which reload to follow it.
func (s *Service) SetNight(ctx context.Context, mode, from, to string) (Settings, error) {
	n, err := ParseNight(mode, from, to)
	if err != nil {
		return Settings{}, err
	}
	_, err = s.db.Write.ExecContext(ctx, `INSERT INTO household_settings (id, night_mode, night_from, night_to, updated_at)
		VALUES (1, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET night_mode = excluded.night_mode,
		night_from = excluded.night_from, night_to = excluded.night_to, updated_at = excluded.updated_at`,
		n.Mode, n.From, n.To, store.FormatTime(s.now()))
	if err != nil {
		return Settings{}, fmt.Errorf("household: save night schedule: %w", err)
	}
	if s.pub != nil {
		s.pub.Publish(live.TopicHousehold, live.KindSettings, nil)
	}
	return s.Settings(ctx)
}
