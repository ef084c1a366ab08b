package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"hearth/internal/homeassistant/hatest"
	"hearth/internal/sensors"
	"hearth/internal/store/storetest"
	"hearth/internal/testkit"
)

func withHomeAssistant(srv *hatest.Server) appOption {
	return func(s *appSpec) {
		s.env["HEARTH_HA_URL"], s.env["HEARTH_HA_TOKEN"] = srv.URL(), haToken
	}
}

// Admin → Integrations → Sensors: pick a scale from Home Assistant's
// sensors, map it, poll now, see the weigh-in, remove the mapping; a bad
// form comes back as typed; nothing changes without the CSRF token.
func TestAdminSensorsMapPollAndRemove(t *testing.T) {
	ha := hatest.New(t, haToken)
	yesterday := time.Now().Add(-24 * time.Hour) // the database's clock is the real one here
	ha.SetState("sensor.scale_weight", "80.4", map[string]any{"unit_of_measurement": "kg"}, yesterday)
	ha.SetState("sensor.hall_temperature", "20.5", map[string]any{"unit_of_measurement": "°C"}, yesterday)
	env := newAdminEnv(t, withHomeAssistant(ha))
	const page = "/admin/integrations/sensors"

	code, body := env.page(page)
	if code != http.StatusOK {
		t.Fatalf("GET %s: %d", page, code)
	}
	mustContain(t, "the empty page", body, "No sensors are mapped yet.", `<datalist id="ha-entities">`,
		`<option value="sensor.scale_weight">sensor.scale_weight (kg)</option>`, "sensor.hall_temperature")
	mustNotContain(t, "the empty page", body, `id="ha-not-configured"`, haToken)

	// A typo comes back with what was typed and the field's error.
	resp, body := env.form(page, url.Values{"entity": {"Scale Weight"}, "member": {"ada"}, "kind": {"weight"}}, false)
	if resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("a bad entity: %d", resp.StatusCode)
	}
	mustContain(t, "a bad entity", body, `value="Scale Weight"`, "not an entity id", `<option value="ada" selected>`,
		`<option value="weight" selected>`)

	// Without the CSRF token nothing is mapped.
	req, _ := http.NewRequest(http.MethodPost, env.srv.URL+page, strings.NewReader("entity=sensor.scale_weight&member=ada&kind=weight"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if resp, err := env.client.Do(req); err != nil {
		t.Fatal(err)
	} else if resp.Body.Close(); resp.StatusCode != http.StatusForbidden {
		t.Errorf("a post without CSRF: %d", resp.StatusCode)
	}
	if n := count(t, env, `SELECT count(*) FROM sensor_mappings`); n != 0 {
		t.Fatalf("mapped without CSRF: %d", n)
	}

	resp, _ = env.form(page, url.Values{"entity": {"sensor.scale_weight"}, "member": {"ada"}, "kind": {"weight"}}, false)
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != page+"?done=added" {
		t.Fatalf("map: %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
	// The same again is refused, as typed.
	resp, body = env.form(page, url.Values{"entity": {"sensor.scale_weight"}, "member": {"ada"}, "kind": {"weight"}}, false)
	if resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("a second identical mapping: %d", resp.StatusCode)
	}
	mustContain(t, "a second identical mapping", body, "sensor.scale_weight is already mapped to ada as weight")

	// A new mapping is read at once, not at the next poll.
	if n := count(t, env, `SELECT count(*) FROM weight_readings WHERE member_id = 'ada' AND source = 'homeassistant' AND weight_kg = 80.4`); n != 1 {
		t.Fatalf("weigh-ins from Home Assistant once mapped: %d", n)
	}
	_, body = env.page(page + "?done=added")
	mustContain(t, "one mapping", body, "Mapped, and read now", "<code>sensor.scale_weight</code>", "Weight (weigh-ins)", "1 added", "Poll now")
	mustNotContain(t, "one mapping", body, "not yet", haToken)

	resp, _ = env.form(page+"/poll", nil, false)
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("poll now: %d", resp.StatusCode)
	}
	if n := count(t, env, `SELECT count(*) FROM weight_readings WHERE member_id = 'ada' AND source = 'homeassistant' AND weight_kg = 80.4`); n != 1 {
		t.Fatalf("weigh-ins from Home Assistant after Poll now: %d", n)
	}
	_, body = env.page(page + "?done=polled")
	mustContain(t, "after the poll", body, "Polled")
	mustNotContain(t, "after the poll", body, "not yet", haToken)

	var id string
	if err := env.db.Read.QueryRow(`SELECT CAST(id AS TEXT) FROM sensor_mappings`).Scan(&id); err != nil {
		t.Fatal(err)
	}
	resp, _ = env.form(page+"/"+id+"/delete", nil, false)
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("remove: %d", resp.StatusCode)
	}
	resp, body = env.form(page+"/"+id+"/delete", nil, false)
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("removing it again: %d", resp.StatusCode)
	}
	mustContain(t, "removing it again", body, "Nothing was removed", "No sensors are mapped yet.")
	if n := count(t, env, `SELECT count(*) FROM weight_readings WHERE source = 'homeassistant'`); n != 1 {
		t.Errorf("removing the mapping removed its weigh-ins: %d left", n)
	}
}

// Without Home Assistant the page says so and links to Integrations;
// Poll now says nothing was polled; mappings can still be made.
func TestAdminSensorsWithoutHomeAssistant(t *testing.T) {
	env := newAdminEnv(t)
	const page = "/admin/integrations/sensors"
	code, body := env.page(page)
	if code != http.StatusOK {
		t.Fatalf("GET %s: %d", page, code)
	}
	mustContain(t, "not configured", body, `id="ha-not-configured"`, `<a href="/admin/integrations">`)
	resp, _ := env.form(page, url.Values{"entity": {"sensor.scale_weight"}, "member": {"ada"}, "kind": {"weight"}}, false)
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("map: %d", resp.StatusCode)
	}
	_, body = env.page(page)
	mustNotContain(t, "not configured", body, "Poll now", `<datalist`)
	resp, body = env.form(page+"/poll", nil, false)
	if resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("poll without Home Assistant: %d", resp.StatusCode)
	}
	mustContain(t, "poll without Home Assistant", body, "Home Assistant is not configured: nothing was polled.")
}

func count(t *testing.T, env *adminEnv, query string) int {
	t.Helper()
	var n int
	if err := env.db.Read.QueryRow(query).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

// Hearth polls the mapped sensors when it starts (then every 15 minutes
// on the scheduler, internal/schedule's TestEveryRunsAtStartAndThenEachInterval).
func TestSensorsArePolledAtStart(t *testing.T) {
	ha := hatest.New(t, haToken)
	ha.SetState("sensor.scale_weight", "80.4", map[string]any{"unit_of_measurement": "kg"}, time.Now().Add(-time.Hour))
	ta := newTestApp(t, withHomeAssistant(ha))
	storetest.Member(t, ta.app.DB, "ada")
	if _, err := ta.app.Sensors.AddMapping(context.Background(), sensors.MappingInput{EntityID: "sensor.scale_weight", MemberID: "ada",
		Kind: sensors.KindWeight}); err != nil {
		t.Fatal(err)
	}
	ta.serve()
	testkit.WaitFor(t, testkit.Patience, "the weigh-in polled at start", func() bool {
		var n int
		_ = ta.app.DB.Read.QueryRow(`SELECT count(*) FROM weight_readings WHERE member_id = 'ada' AND source = 'homeassistant'`).Scan(&n)
		return n == 1
	})
}
