package web_test

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"hearth/internal/household"
)

// settingsOf reads the stored household settings.
func settingsOf(t *testing.T, env *adminEnv) household.Settings {
	t.Helper()
	st, err := env.app.Household.Settings(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// zoneInput is the time zone field as the page renders it.
var zoneInput = regexp.MustCompile(`<input name="time_zone"[^>]*>`)

// Admin → Household sets the household time zone: a bad name is refused
// on its field with what was typed kept, a good one is stored and said to
// apply when Hearth restarts.
func TestAdminHouseholdTimeZone(t *testing.T) {
	env := newAdminEnv(t, withEnv("HEARTH_TZ", "")) // no HEARTH_TZ: the admin chooses
	code, page := env.page("/admin/household")
	if code != http.StatusOK || !strings.Contains(page, `id="time-zone"`) || !strings.Contains(page, "Hearth runs in") {
		t.Fatalf("household page: %d, no time zone card", code)
	}
	if in := zoneInput.FindString(page); in == "" || strings.Contains(in, "disabled") {
		t.Fatalf("time zone field: %q", in)
	}
	if !strings.Contains(page, `<option value="Europe/Berlin">`) {
		t.Error("no zone suggestions")
	}

	resp, body := env.form("/admin/settings/time-zone", url.Values{"time_zone": {"Mars/Olympus_Mons"}}, false)
	if resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("bad zone: %d", resp.StatusCode)
	}
	in := zoneInput.FindString(body)
	if !strings.Contains(in, `value="Mars/Olympus_Mons"`) || !strings.Contains(in, "aria-invalid") ||
		!strings.Contains(body, "is not a time zone Hearth knows") {
		t.Fatalf("bad zone: the form lost the input or the reason: %q", in)
	}
	if st := settingsOf(t, env); st.TimeZone != "" {
		t.Fatalf("a refused zone was stored: %+v", st)
	}

	resp, _ = env.form("/admin/settings/time-zone", url.Values{"time_zone": {" Europe/Berlin "}}, false)
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/admin/household?saved=time-zone#time-zone" {
		t.Fatalf("save: %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
	if st := settingsOf(t, env); st.TimeZone != "Europe/Berlin" {
		t.Fatalf("stored %+v", st)
	}
	_, page = env.page("/admin/household?saved=time-zone")
	if !strings.Contains(zoneInput.FindString(page), `value="Europe/Berlin"`) || !strings.Contains(page, "Saved.") ||
		!strings.Contains(page, "Europe/Berlin is saved and takes effect when Hearth restarts") {
		t.Fatal("the saved zone is not shown as waiting for a restart")
	}

	// A post without the field is not the form: it clears nothing.
	if resp, _ = env.form("/admin/settings/time-zone", url.Values{}, false); resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("post without the field: %d", resp.StatusCode)
	}
	if st := settingsOf(t, env); st.TimeZone != "Europe/Berlin" {
		t.Fatalf("a post without the field changed the zone: %+v", st)
	}

	// Cleared: back to the server's own zone, nothing waits for a restart.
	if resp, _ = env.form("/admin/settings/time-zone", url.Values{"time_zone": {""}}, false); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("clear: %d", resp.StatusCode)
	}
	if _, page = env.page("/admin/household"); strings.Contains(page, "takes effect when Hearth restarts.</strong>") {
		t.Fatal("a cleared zone still waits for a restart")
	}
}

// HEARTH_TZ (or -tz) wins: the page says so, the field is disabled and a
// post is refused without storing anything.
func TestAdminTimeZoneEnvOverride(t *testing.T) {
	env := newAdminEnv(t, withEnv("HEARTH_TZ", "America/New_York"))
	_, page := env.page("/admin/household")
	in := zoneInput.FindString(page)
	if !strings.Contains(in, "disabled") || !strings.Contains(in, `value="America/New_York"`) ||
		!strings.Contains(page, "Hearth runs in <strong>America/New_York</strong>, set by <code>HEARTH_TZ</code>") {
		t.Fatalf("override not shown: %q", in)
	}
	resp, body := env.form("/admin/settings/time-zone", url.Values{"time_zone": {"Europe/Berlin"}}, false)
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, "is set by HEARTH_TZ") {
		t.Fatalf("post under an override: %d", resp.StatusCode)
	}
	if st := settingsOf(t, env); st.TimeZone != "" {
		t.Fatalf("stored under an override: %+v", st)
	}
}

// The night schedule: refused fields are named and kept, a saved one
// reaches the kiosk's pages as plain attributes and makes open screens
// reload.
func TestAdminNightSchedule(t *testing.T) {
	env := newAdminEnv(t)
	resp, body := env.form("/admin/settings/night", url.Values{"night_mode": {"dim"}, "night_from": {"22:00"}, "night_to": {"25:30"}}, false)
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, "must be a time of day like 06:30") ||
		!strings.Contains(body, `name="night_to" type="time" value="25:30" aria-invalid`) || !strings.Contains(body, `value="22:00"`) {
		t.Fatalf("bad night: %d", resp.StatusCode)
	}
	if st := settingsOf(t, env); st.Night.On() {
		t.Fatalf("a refused night was stored: %+v", st)
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	k := &kiosk{t: t, srv: env.srv, client: browser(0)}
	home, stream := k.openStream(ctx, "/live/household")
	defer stream.Body.Close()
	home.until(t, 5*time.Second, `"_ka"`)

	resp, _ = env.form("/admin/settings/night", url.Values{"night_mode": {"blank"}, "night_from": {"21:30"}, "night_to": {"6:45"}}, false)
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("save night: %d", resp.StatusCode)
	}
	if st := settingsOf(t, env); st.Night != (household.Night{Mode: "blank", From: "21:30", To: "06:45"}) {
		t.Fatalf("stored %+v", st.Night)
	}
	home.until(t, 5*time.Second, `id="hearth-reload"`)
	_, page := env.page("/admin/household?saved=night")
	if !strings.Contains(page, "Open screens reload to follow it.") || !strings.Contains(page, `value="21:30"`) {
		t.Fatal("saved night not shown")
	}
	_, page = env.page("/")
	for _, want := range []string{`data-hearth-night-from="21:30"`, `data-hearth-night-to="06:45"`, `data-hearth-night-mode="blank"`,
		`id="night" class="night night-blank" hidden`, "data-hearth-screen"} {
		if !strings.Contains(page, want) {
			t.Errorf("household view lacks %s", want)
		}
	}
	// The member's page carries it too (its rendered-page cache was
	// dropped by the change).
	if _, page = env.page("/m/ada"); !strings.Contains(page, `data-hearth-night-from="21:30"`) {
		t.Error("dashboard lacks the night")
	}
	// Off: no night on the screens.
	env.form("/admin/settings/night", url.Values{"night_mode": {"off"}, "night_from": {"21:30"}, "night_to": {"06:45"}}, false)
	if _, page = env.page("/"); strings.Contains(page, "data-hearth-night") || strings.Contains(page, `id="night"`) {
		t.Error("night off still on the household view")
	}
}

// The night clock on a member's page names their next session.
func TestNightClockNamesTheNextSession(t *testing.T) {
	k := newKiosk(t)
	if _, err := k.hh.SetNight(context.Background(), "dim", "22:00", "06:30"); err != nil {
		t.Fatal(err)
	}
	if _, body := k.post("/m/ada/program", formOf("op", "switch", "program", "ember-core-30"), ""); !strings.Contains(body, "New program started") {
		t.Fatal("no program")
	}
	// The morning the night leads to, by its weekday (household time UTC).
	morning := func() string {
		now := time.Now().UTC()
		if now.Format("15:04") >= "06:30" {
			now = now.AddDate(0, 0, 1)
		}
		return now.Format("Monday")
	}
	before := morning()
	_, page := k.get("/m/ada")
	next := regexp.MustCompile(`<p class="night-next" id="night-next">([A-Z][a-z]+day): ([^<]+)</p>`).FindStringSubmatch(page)
	if next == nil || !(strings.HasSuffix(next[2], " min") || next[2] == "rest day") || (next[1] != before && next[1] != morning()) {
		t.Fatalf("night clock's next session: %q, want %s's", next, before)
	}
	if _, page = k.get("/"); !strings.Contains(page, `id="night"`) || strings.Contains(page, "night-next") {
		t.Error("the household view's night is the clock and date only")
	}
}
