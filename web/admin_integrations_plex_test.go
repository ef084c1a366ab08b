package web_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"hearth/internal/content"
	"hearth/internal/content/plextest"
	"hearth/internal/settings"
	"hearth/internal/store"
)

const plexPageToken = "plex-page-T0KEN-4c1d2e"

// plexSaved reads what the settings table holds for Plex.
func plexSaved(t *testing.T, env *adminEnv) (urlValue, section string, secret []byte) {
	t.Helper()
	_ = env.db.Read.QueryRow(`SELECT value FROM settings WHERE name = 'plex.url'`).Scan(&urlValue)
	_ = env.db.Read.QueryRow(`SELECT value FROM settings WHERE name = 'plex.section'`).Scan(&section)
	_ = env.db.Read.QueryRow(`SELECT secret FROM settings WHERE name = 'plex.token'`).Scan(&secret)
	return urlValue, section, secret
}

func TestAdminIntegrationsPlex(t *testing.T) {
	sec := plextest.Library("3", "Fitness", 2, 3)
	srv := plextest.New(t, plexPageToken, sec, plextest.Section{Key: "7", Title: "Movies", Type: "movie"})
	env := newAdminEnv(t)
	ctx := context.Background()

	_, page := env.page("/admin/integrations")
	mustContain(t, "page", page, `id="plex"`, `name="plex_url"`, `name="plex_token" type="password"`, "Saved token: <strong>unset",
		`name="plex_section" type="text"`)

	// Test connection with what is typed: who the server is, its sections,
	// the chosen section's size; nothing saved.
	typed := url.Values{"plex_url": {srv.URL}, "plex_token": {plexPageToken}, "plex_section": {"3"}}
	_, body := env.form("/admin/integrations/plex/test", typed, true)
	mustContain(t, "test", body, "Connected: Plex Media Server 1.42.2.10156-f737b826c (machine abc123machine), 2 library sections; section 3 holds 2 items.",
		`id="plex-section-field"`, `<option value="3" selected>Fitness (show, id 3)</option>`, "Movies (movie, id 7)")
	if u, s, tok := plexSaved(t, env); u != "" || s != "" || tok != nil {
		t.Fatalf("a test saved settings: %q %q %x", u, s, tok)
	}
	// A wrong token (the identity needs none, the sections do), an address nothing answers at, a bad URL.
	_, body = env.form("/admin/integrations/plex/test", url.Values{"plex_url": {srv.URL}, "plex_token": {"wrong"}, "plex_section": {"3"}}, true)
	mustContain(t, "wrong token", body, "Could not connect", "Plex rejected the token (HTTP 401)")
	_, body = env.form("/admin/integrations/plex/test", url.Values{"plex_url": {"http://127.0.0.1:1"}, "plex_token": {plexPageToken}}, true)
	mustContain(t, "unreachable", body, "Could not connect", "Plex did not answer")
	_, body = env.form("/admin/integrations/plex/test", url.Values{"plex_url": {"ftp://plex"}, "plex_token": {plexPageToken}}, true)
	mustContain(t, "ftp", body, `id="plex_url-error"`, "http://host:32400")
	mustNotContain(t, "refused test", body, plexPageToken)

	// A refused save: 400, the URL as typed, the token not echoed, nothing stored.
	resp, body := env.form("/admin/integrations/plex", url.Values{"plex_url": {srv.URL}, "plex_token": {plexPageToken}, "plex_section": {"../3"}}, false)
	if resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("refused save: %d", resp.StatusCode)
	}
	mustContain(t, "refused save", body, "must be a library section id", "paste it again", `value="`+srv.URL+`"`)
	mustNotContain(t, "refused save", body, plexPageToken)
	if u, _, tok := plexSaved(t, env); u != "" || tok != nil {
		t.Fatalf("a refused save stored: %q %x", u, tok)
	}

	// Save: the token encrypted, the page says only "set" and fills the select from the server.
	resp, _ = env.form("/admin/integrations/plex", typed, false)
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("save: %d", resp.StatusCode)
	}
	u, s, secret := plexSaved(t, env)
	if u != srv.URL || s != "3" || len(secret) == 0 || bytes.Contains(secret, []byte(plexPageToken)) {
		t.Fatalf("stored %q %q %x", u, s, secret)
	}
	_, page = env.page("/admin/integrations?saved=plex")
	mustContain(t, "after save", page, "Plex settings saved.", `id="plex-token-state">Saved token: <strong>set`,
		`<option value="3" selected>Fitness (show, id 3)</option>`, "/admin/integrations/plex/remove-token")
	mustNotContain(t, "after save", page, plexPageToken)

	// An empty token field keeps the saved token.
	keep := url.Values{"plex_url": {srv.URL}, "plex_token": {""}, "plex_section": {"7"}}
	_, body = env.form("/admin/integrations/plex/test", keep, true)
	mustContain(t, "test with the saved token", body, "Connected: Plex Media Server", "section 7 holds 0 items")
	_, body = env.form("/admin/integrations/plex", keep, true)
	mustContain(t, "Datastar save keeping the token", body, "Plex settings saved.", "Saved token: <strong>set")
	if tok, err := env.app.Settings.Secret(ctx, "plex.token"); err != nil || tok != plexPageToken {
		t.Fatalf("the token after a save with an empty field: %v", err)
	}
	if _, s, _ := plexSaved(t, env); s != "7" {
		t.Fatalf("section %q after choosing 7", s)
	}

	// Without the CSRF token nothing changes.
	req, _ := http.NewRequest(http.MethodPost, env.srv.URL+"/admin/integrations/plex/remove-token", strings.NewReader(""))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if resp, err := env.client.Do(req); err != nil || resp.StatusCode != http.StatusForbidden {
		t.Fatalf("remove without CSRF: %v %v", resp, err)
	}
	if _, _, tok := plexSaved(t, env); tok == nil {
		t.Fatal("a post without the CSRF token removed the token")
	}
	// Remove token: the card says unset, and Plex is no longer configured.
	if resp, _ := env.form("/admin/integrations/plex/remove-token", nil, false); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("remove token: %d", resp.StatusCode)
	}
	if _, _, tok := plexSaved(t, env); tok != nil {
		t.Fatal("the token is still saved")
	}
	_, page = env.page("/admin/integrations?saved=plex-token-removed")
	mustContain(t, "after remove", page, "The Plex token was removed.", `id="plex-token-state">Saved token: <strong>unset`)
	_, page = env.page("/admin/catalog")
	mustNotContain(t, "catalog after remove", page, "Sync section")
}

// With PLEX_URL, PLEX_TOKEN and PLEX_SECTION set, the fields say so and
// are read-only; a save leaves them to the environment, a test uses them.
func TestAdminIntegrationsPlexEnvironmentWins(t *testing.T) {
	srv := plextest.New(t, plexPageToken, plextest.Library("3", "Fitness", 1, 2))
	env := newAdminEnv(t, withPlex(srv, plexPageToken))
	waitPlexSync(t, env.cat)
	_, page := env.page("/admin/integrations")
	mustContain(t, "page", page, "Set by <code>PLEX_URL</code>", "Set by <code>PLEX_TOKEN</code>", "Set by <code>PLEX_SECTION</code>",
		`value="`+srv.URL+`"`, `name="plex_section" type="text" value="3" readonly`)
	mustNotContain(t, "page", page, plexPageToken, "/admin/integrations/plex/remove-token")
	resp, _ := env.form("/admin/integrations/plex", url.Values{"plex_url": {"http://other.example:32400"}, "plex_token": {"other"}, "plex_section": {"9"}}, false)
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("save: %d", resp.StatusCode)
	}
	if u, s, tok := plexSaved(t, env); u != "" || s != "" || tok != nil {
		t.Fatalf("saved over the environment: %q %q %x", u, s, tok)
	}
	_, body := env.form("/admin/integrations/plex/test", url.Values{"plex_url": {"http://other.example:32400"}, "plex_token": {""}}, true)
	mustContain(t, "test with the environment", body, "Connected: Plex Media Server", "section 3 holds 1 item.")
}

// Settings saved on the page are used at once, without a restart: Sync
// now on Admin → Catalog syncs the saved section with the saved token,
// and the thumbnails are fetched with them.
func TestPlexSettingsFromThePageApplyWithoutRestart(t *testing.T) {
	sec := plextest.Library("3", "Fitness", 1, 2)
	srv := plextest.New(t, plexPageToken, sec)
	jpg := plextest.JPEG(64, 36)
	srv.SetImage(sec.Episodes[0].Thumb, plextest.Image{ContentType: "image/jpeg", Body: jpg})
	env := newAdminEnv(t)

	// Not configured yet: Sync now says where to set it; a thumbnail is a placeholder.
	resp, page := env.form("/admin/catalog/plex-sync", nil, false)
	if resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("sync unconfigured: %d", resp.StatusCode)
	}
	mustContain(t, "unconfigured", page, "set its URL, token and library section on Admin → Integrations")

	if resp, _ := env.form("/admin/integrations/plex", url.Values{"plex_url": {srv.URL}, "plex_token": {plexPageToken}, "plex_section": {"3"}}, false); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("save: %d", resp.StatusCode)
	}
	_, page = env.page("/admin/catalog")
	mustContain(t, "catalog", page, "Sync section 3 now")
	resp, page = env.form("/admin/catalog/plex-sync", nil, false)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("sync now: %d", resp.StatusCode)
	}
	mustContain(t, "sync now", page, "Plex sync of section 3 (Fitness): 2 episodes and movies seen; 2 added")
	mustNotContain(t, "sync now", page, plexPageToken)

	get := func(path string) (*http.Response, []byte) {
		t.Helper()
		resp, err := env.client.Get(env.srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, b
	}
	if resp, body := get("/plex/thumb/10000"); resp.StatusCode != http.StatusOK || !bytes.Equal(body, jpg) {
		t.Fatalf("thumbnail with the page's settings: %d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	for _, r := range srv.Requests() {
		if r.Path != "/identity" && r.Token != plexPageToken {
			t.Errorf("Plex was asked without the saved token: %+v", r)
		}
		if r.TokenInURL != "" {
			t.Errorf("the token went to Plex in a URL: %+v", r)
		}
	}
}

// Settings saved on the page (here: in the data directory before Hearth
// starts) drive the sync at start, as PLEX_* do.
func TestPlexSyncAtStartFromSavedSettings(t *testing.T) {
	srv := plextest.New(t, plexPageToken, plextest.Library("3", "Fitness", 1, 2))
	dir := t.TempDir()
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(dir, "hearth.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	st := settings.New(db, dir)
	for name, v := range map[string]string{"plex.url": srv.URL, "plex.section": "3"} {
		if err := st.Set(ctx, name, v); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.SetSecret(ctx, "plex.token", plexPageToken); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	ta := newTestApp(t, withEnv("HEARTH_DATA", dir))
	if s := waitPlexSync(t, ta.app.Catalog); !s.OK() || s.Added != 2 || s.Origin != content.PlexSyncAtStart || s.Section != "3" {
		t.Fatalf("sync at start from saved settings: %+v", s)
	}
}
