package app

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// get serves one GET in-process as a browser on this machine.
func get(t *testing.T, a *App, path string) string {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, "http://127.0.0.1:8080"+path, nil)
	req.RemoteAddr = "127.0.0.1:40000"
	rec := httptest.NewRecorder()
	a.Echo.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		t.Fatalf("GET %s: %d", path, rec.Code)
	}
	b, _ := io.ReadAll(rec.Body)
	return string(b)
}

// The zone chosen on Admin → Household is applied when Hearth starts, to
// every service (the kiosk's clock shows it); HEARTH_TZ, when given, wins.
func TestHouseholdTimeZoneAppliesAtStartUnlessHearthTZ(t *testing.T) {
	ctx := context.Background()
	cfg := testConfig(t)
	cfg.Demo = false
	cfg.Location, cfg.TZName = nil, "" // as LoadConfig leaves it without HEARTH_TZ, below
	env := map[string]string{"HEARTH_DATA": cfg.DataDir, "HEARTH_DB": cfg.DBPath}
	load := func() Config {
		t.Helper()
		c, err := LoadConfig(nil, func(k string) string { return env[k] }, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	start := func(c Config) *App {
		t.Helper()
		a, err := New(ctx, c, nil)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}

	a := start(load())
	if _, err := a.Household.SetTimeZone(ctx, "Pacific/Auckland"); err != nil {
		t.Fatal(err)
	}
	// Not yet: the running Hearth keeps its zone until it restarts.
	if page := get(t, a, "/"); strings.Contains(page, "Pacific/Auckland") {
		t.Fatal("the zone changed before a restart")
	}
	if page := get(t, a, "/admin/household"); !strings.Contains(page, "Pacific/Auckland is saved and takes effect when Hearth restarts") {
		t.Fatal("the admin page does not say the zone waits for a restart")
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}

	b := start(load())
	if got := b.cfg.Location.String(); got != "Pacific/Auckland" {
		t.Fatalf("after a restart Hearth runs in %s", got)
	}
	if page := get(t, b, "/"); !strings.Contains(page, `data-hearth-tz="Pacific/Auckland"`) {
		t.Fatal("the kiosk's clock is not in the household zone")
	}
	if page := get(t, b, "/admin/household"); !strings.Contains(page, "Hearth runs in <strong>Pacific/Auckland</strong>.") ||
		strings.Contains(page, "takes effect when Hearth restarts.</strong>") {
		t.Fatal("the admin page does not show the applied zone")
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}

	env["HEARTH_TZ"] = "Asia/Tokyo"
	c := start(load())
	defer c.Close()
	if got := c.cfg.Location.String(); got != "Asia/Tokyo" {
		t.Fatalf("with HEARTH_TZ Hearth runs in %s", got)
	}
	if page := get(t, c, "/"); !strings.Contains(page, `data-hearth-tz="Asia/Tokyo"`) {
		t.Fatal("HEARTH_TZ did not win on the kiosk")
	}
	page := get(t, c, "/admin/household")
	if !strings.Contains(page, "Hearth runs in <strong>Asia/Tokyo</strong>, set by <code>HEARTH_TZ</code>") ||
		!strings.Contains(page, `value="Asia/Tokyo" placeholder="e.g. Europe/Berlin" autocomplete="off" spellcheck="false" disabled`) {
		t.Fatal("the admin page does not show HEARTH_TZ winning with the field disabled")
	}
}

// HEARTH_TZ or -tz, given, is an override; the default "Local" is not.
func TestTZExplicit(t *testing.T) {
	for _, c := range []struct {
		args []string
		env  string
		want bool
	}{{nil, "", false}, {nil, "UTC", true}, {[]string{"-tz", "Local"}, "", true}, {[]string{"-tz=Europe/Paris"}, "", true}} {
		cfg, err := LoadConfig(c.args, func(k string) string {
			if k == "HEARTH_TZ" {
				return c.env
			}
			return ""
		}, io.Discard)
		if err != nil || cfg.TZExplicit != c.want {
			t.Errorf("args %q, HEARTH_TZ %q: TZExplicit %v (%v), want %v", c.args, c.env, cfg.TZExplicit, err, c.want)
		}
	}
}
