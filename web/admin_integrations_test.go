package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

const haToken = "eyJhbGciOiJIUzI1NiJ9.integrations-page-token.Zk3q"

// haSaved reads what the settings table holds for Home Assistant.
func haSaved(t *testing.T, env *adminEnv) (urlValue string, secret []byte) {
	t.Helper()
	_ = env.db.Read.QueryRow(`SELECT value FROM settings WHERE name = 'homeassistant.url'`).Scan(&urlValue)
	_ = env.db.Read.QueryRow(`SELECT secret FROM settings WHERE name = 'homeassistant.token'`).Scan(&secret)
	return urlValue, secret
}

func TestAdminIntegrationsHomeAssistant(t *testing.T) {
	ha := newFakeHA(t, haToken, 3)
	env := newAdminEnv(t)
	ctx := context.Background()

	code, page := env.page("/admin/integrations")
	if code != http.StatusOK {
		t.Fatalf("GET /admin/integrations: %d", code)
	}
	for _, want := range []string{"Home Assistant", `name="ha_url"`, `type="password"`, "Saved token: <strong>unset",
		`href="/admin/integrations/sensors"`, `href="/admin/integrations"`, "The model endpoint"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}

	// Test connection with what is typed: connects, saves nothing.
	_, body := env.form("/admin/integrations/homeassistant/test", url.Values{"ha_url": {ha.URL}, "ha_token": {haToken}}, true)
	if !strings.Contains(body, "Connected: Home Assistant "+fakeHAVersion+", 3 entities") {
		t.Fatalf("test connection: %.400s", body)
	}
	if !ha.sawToken() {
		t.Fatal("the fake saw no request with the token")
	}
	if u, s := haSaved(t, env); u != "" || s != nil {
		t.Fatalf("a test saved settings: %q %x", u, s)
	}
	// A wrong token, an unreachable address, a scheme that is not http(s).
	_, body = env.form("/admin/integrations/homeassistant/test", url.Values{"ha_url": {ha.URL}, "ha_token": {"wrong"}}, true)
	if !strings.Contains(body, "Could not connect") || !strings.Contains(body, "(401)") {
		t.Errorf("wrong token: %.400s", body)
	}
	_, body = env.form("/admin/integrations/homeassistant/test", url.Values{"ha_url": {"http://127.0.0.1:1"}, "ha_token": {haToken}}, true)
	if !strings.Contains(body, "unreachable") {
		t.Errorf("unreachable: %.400s", body)
	}
	_, body = env.form("/admin/integrations/homeassistant/test", url.Values{"ha_url": {"ftp://ha.local"}, "ha_token": {haToken}}, true)
	if !strings.Contains(body, "must start with http:// or https://") || !strings.Contains(body, `id="ha_url-error"`) {
		t.Errorf("ftp URL: %.400s", body)
	}
	if strings.Contains(body, haToken) {
		t.Error("a refused test answered with the token")
	}

	// A refused save (plain form): 400, the URL as typed, the token not echoed, nothing stored.
	resp, body := env.form("/admin/integrations/homeassistant", url.Values{"ha_url": {"javascript:alert(1)"}, "ha_token": {haToken}}, false)
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, "must start with http://") ||
		!strings.Contains(body, "paste it again") || strings.Contains(body, haToken) {
		t.Fatalf("refused save: %d %.600s", resp.StatusCode, body)
	}
	if u, s := haSaved(t, env); u != "" || s != nil {
		t.Fatalf("a refused save stored: %q %x", u, s)
	}
	// A Datastar save that is refused patches only the messages.
	_, body = env.form("/admin/integrations/homeassistant", url.Values{"ha_url": {"ftp://x"}, "ha_token": {haToken}}, true)
	if !strings.Contains(body, "ha-result") || strings.Contains(body, `name="ha_url"`) || strings.Contains(body, haToken) {
		t.Fatalf("refused Datastar save should patch messages only: %.600s", body)
	}

	// Save: the URL as typed, the token encrypted; the page says only "set".
	resp, _ = env.form("/admin/integrations/homeassistant", url.Values{"ha_url": {ha.URL + "/"}, "ha_token": {haToken}}, false)
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("save: %d", resp.StatusCode)
	}
	u, secret := haSaved(t, env)
	if u != ha.URL || len(secret) == 0 || strings.Contains(string(secret), haToken) {
		t.Fatalf("stored url %q, secret %x", u, secret)
	}
	_, page = env.page("/admin/integrations?saved=homeassistant")
	if !strings.Contains(page, "Saved token: <strong>set") || !strings.Contains(page, "settings saved") ||
		!strings.Contains(page, `value="`+ha.URL+`"`) || strings.Contains(page, haToken) || !strings.Contains(page, "Remove token") {
		t.Fatalf("page after save: %.2000s", page)
	}
	// An empty token field keeps the saved token: a test with it connects.
	_, body = env.form("/admin/integrations/homeassistant/test", url.Values{"ha_url": {ha.URL}, "ha_token": {""}}, true)
	if !strings.Contains(body, "Connected: Home Assistant") {
		t.Fatalf("test with the saved token: %.400s", body)
	}
	_, body = env.form("/admin/integrations/homeassistant", url.Values{"ha_url": {ha.URL}, "ha_token": {""}}, true)
	if !strings.Contains(body, "settings saved") || !strings.Contains(body, "Saved token: <strong>set") {
		t.Fatalf("Datastar save keeping the token: %.600s", body)
	}
	if tok, err := env.app.Settings.Secret(ctx, "homeassistant.token"); err != nil || tok != haToken {
		t.Fatalf("the token after a save with an empty field: %v", err)
	}

	// Without the CSRF token nothing changes.
	req, _ := http.NewRequest(http.MethodPost, env.srv.URL+"/admin/integrations/homeassistant/remove-token", strings.NewReader(""))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if resp, err := env.client.Do(req); err != nil || resp.StatusCode != http.StatusForbidden {
		t.Fatalf("remove without CSRF: %v %v", resp, err)
	}
	if _, s := haSaved(t, env); s == nil {
		t.Fatal("a post without the CSRF token removed the token")
	}

	// Remove token.
	resp, _ = env.form("/admin/integrations/homeassistant/remove-token", nil, false)
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("remove token: %d", resp.StatusCode)
	}
	if _, s := haSaved(t, env); s != nil {
		t.Fatal("the token is still saved")
	}
	if _, page = env.page("/admin/integrations"); !strings.Contains(page, "Saved token: <strong>unset") {
		t.Fatal("the page does not say the token is unset")
	}
}

// With HEARTH_HA_URL and HEARTH_HA_TOKEN set, the fields say so and are
// read-only; a save leaves them to the environment.
func TestAdminIntegrationsEnvironmentWins(t *testing.T) {
	ha := newFakeHA(t, haToken, 2)
	env := newAdminEnv(t, withEnv("HEARTH_HA_URL", ha.URL), withEnv("HEARTH_HA_TOKEN", haToken))
	_, page := env.page("/admin/integrations")
	for _, want := range []string{"Set by <code>HEARTH_HA_URL</code>", "Set by <code>HEARTH_HA_TOKEN</code>", `value="` + ha.URL + `"`, "readonly"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(page, haToken) {
		t.Fatal("the page shows the environment's token")
	}
	resp, _ := env.form("/admin/integrations/homeassistant", url.Values{"ha_url": {"http://other.example:8123"}, "ha_token": {"other"}}, false)
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("save: %d", resp.StatusCode)
	}
	if u, s := haSaved(t, env); u != "" || s != nil {
		t.Fatalf("saved over the environment: %q %x", u, s)
	}
	_, body := env.form("/admin/integrations/homeassistant/test", url.Values{"ha_url": {"http://other.example:8123"}, "ha_token": {""}}, true)
	if !strings.Contains(body, "Connected: Home Assistant "+fakeHAVersion+", 2 entities") {
		t.Fatalf("test with the environment's settings: %.400s", body)
	}
}
