package web_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"hearth/internal/content"
	"hearth/internal/content/plextest"
	"hearth/internal/dashboard"
	"hearth/internal/testkit"
)

const plexToken = "web-T0KEN-9f8e7d"

// withPlex configures Hearth for the fake Plex server, section 3.
func withPlex(srv *plextest.Server, token string) appOption {
	return func(s *appSpec) {
		s.env["PLEX_URL"], s.env["PLEX_TOKEN"], s.env["PLEX_SECTION"] = srv.URL, token, "3"
	}
}

// waitPlexSync waits for the sync Hearth starts with to be recorded.
func waitPlexSync(t *testing.T, cat *content.Catalog) content.PlexSync {
	t.Helper()
	var last content.PlexSync
	testkit.WaitFor(t, testkit.Patience, "the Plex sync at start", func() bool {
		s, ok, err := cat.LastPlexSync(context.Background())
		last = s
		return ok || err != nil
	})
	return last
}

// Previews of Plex items show on the Up next card and the content page:
// their <img> points at Hearth's /plex/thumb/<ratingKey>, which answers the
// picture Plex has (fetched once, with the token in a header), while the
// token is in no page and no answer's headers.
func TestPlexThumbnailsAreServedThroughHearth(t *testing.T) {
	sec := plextest.Library("3", "Fitness", 1, 3)
	srv := plextest.New(t, plexToken, sec)
	jpg := plextest.JPEG(320, 180)
	srv.SetImage(sec.Episodes[0].Thumb, plextest.Image{ContentType: "image/jpeg", Body: jpg})
	k := newKioskWith(t, withPlex(srv, plexToken))
	if s := waitPlexSync(t, k.app.Catalog); !s.OK() || s.Added != 3 {
		t.Fatalf("sync at start: %+v", s)
	}
	doc := sampleDoc("Morning.")
	doc.Curated.UpNext.Primary = &dashboard.ContentRef{ContentID: "plex:10000", Title: "Workout 1", Duration: 30}
	k.putDoc("ada", today(), doc)

	_, page := k.get("/m/ada")
	i := strings.Index(page, `id="upnext"`)
	if i < 0 {
		t.Fatal("no Up next card")
	}
	card := page[i : i+strings.Index(page[i:], "</a>")]
	if !strings.Contains(card, `src="/plex/thumb/10000"`) {
		t.Errorf("the Up next card's picture is not Hearth's route:\n%s", card)
	}
	_, content := k.get("/content/plex:10000?m=ada")
	if !strings.Contains(content, `<img class="poster" src="/plex/thumb/10000"`) {
		t.Errorf("the content page's picture is not Hearth's route")
	}
	for name, body := range map[string]string{"dashboard": page, "content page": content} {
		if strings.Contains(body, plexToken) || strings.Contains(body, "X-Plex-Token") || strings.Contains(body, "/library/metadata/") {
			t.Errorf("the %s shows the token or a Plex path", name)
		}
	}

	resp, body := thumb(t, k, "/plex/thumb/10000", "")
	if resp.StatusCode != 200 || !bytes.Equal(body, jpg) || resp.Header.Get("Content-Type") != "image/jpeg" ||
		resp.Header.Get("Cache-Control") != "private, max-age=86400" || resp.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Fatalf("thumb: %d %q %q, %d bytes", resp.StatusCode, resp.Header.Get("Content-Type"), resp.Header.Get("Cache-Control"), len(body))
	}
	for name, vs := range resp.Header {
		if strings.Contains(strings.Join(vs, " "), plexToken) || strings.HasPrefix(strings.ToLower(name), "x-plex") {
			t.Errorf("answer header %s: %q", name, vs)
		}
	}
	// The browser's copy is checked with the ETag, and Plex is asked once.
	again, _ := thumb(t, k, "/plex/thumb/10000", resp.Header.Get("ETag"))
	if again.StatusCode != http.StatusNotModified {
		t.Errorf("If-None-Match: %d, want 304", again.StatusCode)
	}
	thumb(t, k, "/plex/thumb/10000", "")
	if n := srv.Count(sec.Episodes[0].Thumb); n != 1 {
		t.Errorf("Plex was asked %d times for the picture, want 1", n)
	}

	// Not in the catalog (no open proxy): a placeholder, and Plex is not asked.
	before := len(srv.Requests())
	for _, path := range []string{"/plex/thumb/99999", "/plex/thumb/..%2F..%2Fidentity", "/plex/thumb/ember-core-01"} {
		resp, body := thumb(t, k, path, "")
		if resp.StatusCode != 404 || resp.Header.Get("Content-Type") != "image/svg+xml" || !bytes.HasPrefix(body, []byte("<svg")) ||
			resp.Header.Get("Cache-Control") != "no-store" {
			t.Errorf("%s: %d %q %q", path, resp.StatusCode, resp.Header.Get("Content-Type"), body)
		}
	}
	if len(srv.Requests()) != before {
		t.Errorf("unknown thumbnails reached Plex: %+v", srv.Requests()[before:])
	}
	// Plex down: what is cached still shows; the rest is a placeholder, 503.
	srv.SetImage(sec.Episodes[1].Thumb, plextest.Image{ContentType: "image/jpeg", Body: jpg})
	srv.SetDown(true)
	if resp, _ := thumb(t, k, "/plex/thumb/10000", ""); resp.StatusCode != 200 {
		t.Errorf("cached thumb with Plex down: %d", resp.StatusCode)
	}
	if resp, body := thumb(t, k, "/plex/thumb/10001", ""); resp.StatusCode != 503 || !bytes.HasPrefix(body, []byte("<svg")) {
		t.Errorf("thumb with Plex down: %d %q", resp.StatusCode, body)
	}
	srv.SetDown(false)
	if resp, body := thumb(t, k, "/plex/thumb/10001", ""); resp.StatusCode != 200 || !bytes.Equal(body, jpg) {
		t.Errorf("thumb with Plex back: %d", resp.StatusCode)
	}
	for _, r := range srv.Requests() {
		if r.TokenInURL != "" || strings.Contains(r.Query, plexToken) {
			t.Errorf("the token went to Plex in a URL: %+v", r)
		}
	}
}

func thumb(t *testing.T, k *kiosk, path, etag string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, k.srv.URL+path, nil)
	if etag != "" {
		req.Header.Set("If-None-Match", etag)
	}
	resp, err := k.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, b
}

// Admin → Catalog shows the last sync: a wrong token says so; "Sync now"
// with the right one shows what it did.
func TestAdminCatalogShowsThePlexSync(t *testing.T) {
	srv := plextest.New(t, plexToken, plextest.Library("3", "Fitness", 1, 3))
	env := newAdminEnv(t, withPlex(srv, "wrong-"+plexToken))
	waitPlexSync(t, env.cat)
	code, page := env.page("/admin/catalog")
	if code != 200 {
		t.Fatalf("GET /admin/catalog: %d", code)
	}
	mustContain(t, "failed sync", page, `id="plex-sync"`, "Last sync of section 3", "when Hearth started",
		"Failed: Plex rejected the token (HTTP 401) for /library/sections/3/all: the token is wrong or was revoked; check the Plex token (Admin → Integrations, or PLEX_TOKEN)",
		"Sync section 3 now")
	mustNotContain(t, "failed sync", page, plexToken)

	// The token is fixed in Plex's settings (here: the server takes it now).
	srv.Set(func(s *plextest.Server) { s.Token = "wrong-" + plexToken })
	resp, page := env.form("/admin/catalog/plex-sync", nil, false)
	if resp.StatusCode != 200 {
		t.Fatalf("sync now: %d", resp.StatusCode)
	}
	mustContain(t, "sync now", page, "Plex sync of section 3 (Fitness): 3 episodes and movies seen; 3 added",
		"Last sync of section 3 (Fitness)", "from this page", "<td>3</td>")
	mustNotContain(t, "sync now", page, "Failed:", plexToken)

	// Without the CSRF token nothing is synced.
	before := len(srv.Requests())
	req, _ := http.NewRequest(http.MethodPost, env.srv.URL+"/admin/catalog/plex-sync", nil)
	if resp, err := env.client.Do(req); err != nil || resp.StatusCode != http.StatusForbidden {
		t.Errorf("POST without CSRF: %v %v", resp.StatusCode, err)
	}
	if len(srv.Requests()) != before {
		t.Error("a POST without CSRF reached Plex")
	}
}
