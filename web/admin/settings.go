package admin

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"hearth/internal/apperr"
	"hearth/internal/household"
	"hearth/views"
	"hearth/views/adminview"
	"hearth/web/httpkit"
)

// Where the running household time zone came from (Options.TZSource).
const (
	TZFromConfig   = "config"   // HEARTH_TZ or -tz: it wins over Admin → Household
	TZFromSettings = "settings" // Admin → Household, applied at start
)

// commonZones fill the time zone field's suggestions; any IANA name Go
// knows is accepted.
var commonZones = []string{"UTC",
	"Europe/London", "Europe/Dublin", "Europe/Lisbon", "Europe/Paris", "Europe/Berlin", "Europe/Amsterdam", "Europe/Brussels",
	"Europe/Zurich", "Europe/Vienna", "Europe/Rome", "Europe/Madrid", "Europe/Stockholm", "Europe/Oslo", "Europe/Copenhagen",
	"Europe/Helsinki", "Europe/Warsaw", "Europe/Prague", "Europe/Athens", "Europe/Istanbul", "Europe/Kyiv", "Europe/Moscow",
	"America/New_York", "America/Toronto", "America/Chicago", "America/Denver", "America/Phoenix", "America/Los_Angeles",
	"America/Vancouver", "America/Anchorage", "Pacific/Honolulu", "America/Mexico_City", "America/Bogota", "America/Sao_Paulo",
	"America/Argentina/Buenos_Aires", "Africa/Lagos", "Africa/Cairo", "Africa/Johannesburg", "Africa/Nairobi", "Asia/Dubai",
	"Asia/Kolkata", "Asia/Bangkok", "Asia/Singapore", "Asia/Shanghai", "Asia/Hong_Kong", "Asia/Tokyo", "Asia/Seoul",
	"Australia/Perth", "Australia/Adelaide", "Australia/Brisbane", "Australia/Sydney", "Pacific/Auckland"}

// nightModes are the night schedule's choices.
var nightModes = []views.Option{{Value: household.NightOff, Label: "Off"},
	{Value: household.NightDim, Label: "Dim to a clock"}, {Value: household.NightBlank, Label: "Blank (black screen)"}}

// zoneName names a running zone for the page ("Local" is the server's own).
func zoneName(loc *time.Location) string {
	if loc == nil || loc == time.Local || loc.String() == "Local" {
		abbr, _ := time.Now().In(time.Local).Zone()
		return "the server's own zone (" + abbr + ")"
	}
	return loc.String()
}

// settingsCards fills the time zone and night cards from what is stored;
// zone and night (non-nil) are a failed or saved form to show instead.
func (s *householdPages) settingsCards(c echo.Context, zone, night *views.FormState) (*adminview.HouseholdSettings, error) {
	if s.settings == nil {
		return nil, nil
	}
	st, err := s.settings.Settings(c.Request().Context())
	if err != nil {
		return nil, err
	}
	hs := &adminview.HouseholdSettings{Running: zoneName(s.opt.Location), Override: s.opt.TZSource == TZFromConfig,
		Zones: commonZones, Modes: nightModes,
		Zone:  views.FormState{Values: map[string]string{"time_zone": st.TimeZone}},
		Night: views.FormState{Values: map[string]string{"night_mode": st.Night.Mode, "night_from": st.Night.From, "night_to": st.Night.To}}}
	if hs.Override {
		hs.Zone.Values["time_zone"] = s.opt.Location.String()
	}
	running := ""
	if s.opt.TZSource == TZFromSettings {
		running = s.opt.Location.String()
	}
	// What the next start changes: the stored choice differs from what
	// the running zone came from.
	switch {
	case hs.Override:
	case st.TimeZone != running && st.TimeZone != "":
		hs.Pending = st.TimeZone
	case st.TimeZone != running:
		hs.Pending = zoneName(time.Local)
	}
	if zone != nil {
		hs.Zone = *zone
	}
	if night != nil {
		hs.Night = *night
	}
	return hs, nil
}

// renderHousehold renders Admin → Household with these settings forms.
func (s *householdPages) renderHousehold(c echo.Context, status int, zone, night *views.FormState) error {
	// A new member's figures are private on shared screens unless the
	// admin unticks it (their PIN, set on their page, unlocks a screen).
	p, err := s.householdPage(c, views.FormState{Values: map[string]string{"unit": "kg", "color": "#4f8cff", "private_figures": "1"}})
	if err != nil {
		return err
	}
	if p.Settings, err = s.settingsCards(c, zone, night); err != nil {
		return err
	}
	return httpkit.Render(c, status, adminview.AdminHouseholdPage(p))
}

// adminTimeZone saves the household time zone (applied when Hearth
// restarts); refused while HEARTH_TZ or -tz sets it.
func (s *householdPages) adminTimeZone(c echo.Context) error {
	typed := map[string]string{"time_zone": c.FormValue("time_zone")}
	var err error
	_, sent := c.Request().Form["time_zone"]
	switch {
	case s.opt.TZSource == TZFromConfig:
		err = apperr.FieldErrors(map[string]string{"time_zone": "is set by HEARTH_TZ (or -tz) where Hearth starts, which wins; " +
			"remove it there to choose the zone here"})
	case !sent: // an empty field clears the zone; no field at all is not this form
		err = apperr.FieldErrors(map[string]string{"time_zone": "is missing from the form"})
	default:
		_, err = s.settings.SetTimeZone(c.Request().Context(), typed["time_zone"])
	}
	if err == nil {
		return c.Redirect(http.StatusSeeOther, "/admin/household?saved=time-zone#time-zone")
	}
	fs, err := formFailure(err, typed)
	if err != nil {
		return err
	}
	return s.renderHousehold(c, http.StatusBadRequest, &fs, nil)
}

// adminNight saves the screens' night schedule; open screens reload to
// follow it.
func (s *householdPages) adminNight(c echo.Context) error {
	typed := httpkit.FormValues(c, "night_mode", "night_from", "night_to")
	_, err := s.settings.SetNight(c.Request().Context(), typed["night_mode"], typed["night_from"], typed["night_to"])
	if err == nil {
		return c.Redirect(http.StatusSeeOther, "/admin/household?saved=night#night")
	}
	fs, err := formFailure(err, typed)
	if err != nil {
		return err
	}
	return s.renderHousehold(c, http.StatusBadRequest, nil, &fs)
}
