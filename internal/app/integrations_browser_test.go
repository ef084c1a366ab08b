package app_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"hearth/internal/app"
)

// haForBrowser answers the Home Assistant REST calls the connection test
// makes, as documented (https://developers.home-assistant.io/docs/api/rest/):
// a Bearer token on every call, else 401; GET /api/ → {"message": "API
// running."}; GET /api/config → the configuration with "version"; GET
// /api/states → an array of state objects.
func haForBrowser(t *testing.T, token string) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+token {
			http.Error(w, "401: Unauthorized", http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/api/":
			_, _ = w.Write([]byte(`{"message": "API running."}`))
		case "/api/config":
			_, _ = w.Write([]byte(`{"version": "2026.8.1", "location_name": "Home"}`))
		case "/api/states":
			_ = json.NewEncoder(w).Encode([]map[string]any{
				{"entity_id": "light.kitchen", "state": "on", "attributes": map[string]any{}},
				{"entity_id": "sensor.scale_weight", "state": "71.2", "attributes": map[string]any{"unit_of_measurement": "kg"}}})
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// In a browser, Test connection and a refused Save answer in place: what
// was typed, the token too, stays in the fields; a good Save shows the
// token only as "set" and empties its field.
func TestIntegrationsPageInBrowser(t *testing.T) {
	const token = "browser-typed-token-51c2"
	browser := newBrowser(t, 1280, 900)
	ha := haForBrowser(t, token)
	dir := t.TempDir()
	srv := startApp(t, app.Config{Addr: "127.0.0.1:0", DataDir: dir, DBPath: filepath.Join(dir, "hearth.db"),
		Location: time.UTC, KioskIdle: 10 * time.Minute, CatchUp: 12 * time.Hour, Prices: app.DefaultPrices})
	ctx := newTab(t, browser, 60*time.Second)
	do(t, ctx, chromedp.Navigate(srv.url+"/admin/integrations")) // no live stream on this page: not open()
	until(t, ctx, 10*time.Second, `document.readyState === 'complete' && !!document.getElementById('homeassistant')`)
	datastarApplied(t, ctx)
	js(t, ctx, `window.__sameDocument = true`)
	tokenField := `document.querySelector('input[name=ha_token]').value`

	do(t, ctx, chromedp.SendKeys(chromedp.CSS(`input[name=ha_url]`), ha.URL), chromedp.SendKeys(chromedp.CSS(`input[name=ha_token]`), token),
		chromedp.Click(chromedp.CSS(`#homeassistant button[formaction]`)))
	until(t, ctx, 10*time.Second, `document.getElementById('ha-result').textContent.includes('Connected: Home Assistant 2026.8.1, 2 entities')`)
	until(t, ctx, time.Second, `window.__sameDocument === true && `+tokenField+` === `+strconv.Quote(token))
	if v, _ := srv.app.Settings.Get(context.Background(), "homeassistant.url"); v != "" {
		t.Fatalf("Test connection saved the URL %q", v)
	}

	// A refused save: the error on the field, what was typed kept, nothing saved.
	js(t, ctx, `document.querySelector('input[name=ha_url]').value = 'ftp://homeassistant.local'`)
	do(t, ctx, chromedp.Click(chromedp.CSS(`#homeassistant button[type=submit]:not([formaction])`)))
	until(t, ctx, 10*time.Second, `document.getElementById('ha_url-error').textContent.includes('http://')`)
	until(t, ctx, time.Second, `window.__sameDocument === true && `+tokenField+` === `+strconv.Quote(token)+
		` && document.querySelector('input[name=ha_url]').value === 'ftp://homeassistant.local'`)
	if v, _ := srv.app.Settings.Get(context.Background(), "homeassistant.url"); v != "" {
		t.Fatalf("a refused save stored the URL %q", v)
	}

	// Fixed and saved: the token is "set" and its field empty.
	js(t, ctx, `document.querySelector('input[name=ha_url]').value = `+strconv.Quote(ha.URL))
	do(t, ctx, chromedp.Click(chromedp.CSS(`#homeassistant button[type=submit]:not([formaction])`)))
	until(t, ctx, 10*time.Second, `document.getElementById('ha-token-state').textContent.includes('Saved token: set')`)
	until(t, ctx, time.Second, tokenField+` === '' && document.getElementById('ha-result').textContent.includes('saved')`)
	if tok, err := srv.app.Settings.Secret(context.Background(), "homeassistant.token"); err != nil || tok != token {
		t.Fatalf("saved token: %v", err)
	}
	// The new card is live: a test with the empty field uses the saved token.
	datastarApplied(t, ctx)
	do(t, ctx, chromedp.Click(chromedp.CSS(`#homeassistant button[formaction]`)))
	until(t, ctx, 10*time.Second, `window.__sameDocument === true && document.getElementById('ha-result').textContent.includes('Connected')`)
}
