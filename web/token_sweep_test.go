package web_test

// The token sweep: Home Assistant and Plex are configured with a known
// token, once on Admin → Integrations and once through the environment;
// then everything that touches it runs (Test connection, Save, a Plex
// sync and a thumbnail through Hearth's proxy, every GET route
// of the server: admin pages, the JSON API, live streams, a member's
// export), the start log (Config.Summary) is written, a backup is made,
// and the token's bytes must appear in none of it: not in a response,
// not in the captured log, not in the database file or its WAL (the
// token is stored encrypted), not in any entry of the backup archive,
// which does not hold secret.key either (so a backup alone cannot decrypt
// it: restored elsewhere, the token reads as "set but unreadable").

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"hearth/internal/app"
	"hearth/internal/backup"
	"hearth/internal/content/plextest"
	"hearth/internal/export"
	"hearth/internal/settings"
)

// sweepToken is the known token; its middle part is distinctive enough
// that a stray copy (or a prefix of one) is found.
const sweepToken = "eyJhbGciOiJIUzI1NiJ9.TOKEN-SWEEP-7f3c9ad1e6b2.Q2hlY2s"

// lockedBuffer is a log sink the server's goroutines write concurrently.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) Bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return bytes.Clone(b.buf.Bytes())
}

// tokenFree fails t when data, or any file inside it (a zip, a gzipped
// tar), holds the token.
func tokenFree(t *testing.T, what string, data []byte) {
	t.Helper()
	for _, needle := range []string{sweepToken, "TOKEN-SWEEP-7f3c9ad1e6b2"} {
		if i := bytes.Index(data, []byte(needle)); i >= 0 {
			t.Errorf("%s holds the token: …%q…", what, data[max(0, i-60):min(len(data), i+len(needle)+20)])
			return
		}
	}
	switch {
	case bytes.HasPrefix(data, []byte("PK\x03\x04")):
		zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Errorf("%s: %v", what, err)
			return
		}
		for _, f := range zr.File {
			rc, err := f.Open()
			if err != nil {
				t.Errorf("%s/%s: %v", what, f.Name, err)
				continue
			}
			b, _ := io.ReadAll(rc)
			_ = rc.Close()
			tokenFree(t, what+"/"+f.Name, b)
		}
	case bytes.HasPrefix(data, []byte{0x1f, 0x8b}):
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			t.Errorf("%s: %v", what, err)
			return
		}
		tr := tar.NewReader(zr)
		for {
			h, err := tr.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Errorf("%s: %v", what, err)
				return
			}
			if filepath.Base(h.Name) == settings.KeyFileName {
				t.Errorf("%s holds %s: with it the archive decrypts the token", what, h.Name)
			}
			b, _ := io.ReadAll(tr)
			tokenFree(t, what+"/"+h.Name, b)
		}
	}
}

func TestTokenSweep(t *testing.T) {
	for _, via := range []string{"admin", "environment"} {
		t.Run(via, func(t *testing.T) { tokenSweep(t, via == "environment") })
	}
}

func tokenSweep(t *testing.T, viaEnv bool) {
	ctx := context.Background()
	ha := newFakeHA(t, sweepToken, 5)
	sec := plextest.Library("3", "Fitness", 1, 2)
	px := plextest.New(t, sweepToken, sec)
	px.SetImage(sec.Episodes[0].Thumb, plextest.Image{ContentType: "image/jpeg", Body: plextest.JPEG(64, 36)})
	logs := &lockedBuffer{}
	logger := slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	opts := []appOption{withDemo(), withLogger(logger)}
	env := map[string]string{"HEARTH_DATA": t.TempDir(), "HEARTH_DEMO": "1"}
	if viaEnv {
		env["HEARTH_HA_URL"], env["HEARTH_HA_TOKEN"] = ha.URL, sweepToken
		opts = append(opts, withEnv("HEARTH_HA_URL", ha.URL), withEnv("HEARTH_HA_TOKEN", sweepToken))
		env["PLEX_URL"], env["PLEX_TOKEN"], env["PLEX_SECTION"] = px.URL, sweepToken, "3"
		opts = append(opts, withPlex(px, sweepToken))
	}
	// The start log, as `hearth` writes it.
	cfg, err := app.LoadConfig(nil, func(k string) string { return env[k] }, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	logger.Info("hearth starting", cfg.Summary()...)
	s := sweepOver(t, opts...)
	s.documents() // the coach's runs and prompts are part of what is swept

	form := func(path string, datastar bool, kv ...string) *http.Response {
		t.Helper()
		v := url.Values{}
		for i := 0; i+1 < len(kv); i += 2 {
			v.Set(kv[i], kv[i+1])
		}
		rec := s.do(swReq{method: http.MethodPost, path: path, ctype: "application/x-www-form-urlencoded",
			body: []byte(v.Encode()), datastar: datastar})
		tokenFree(t, "POST "+path, rec.Body.Bytes())
		tokenFree(t, "POST "+path+" headers", []byte(strings.Join(headerLines(rec.Header()), "\n")))
		if !strings.Contains(rec.Body.String(), "Connected: ") && strings.HasSuffix(path, "/test") {
			t.Fatalf("POST %s did not connect (the sweep would prove nothing): %.400s", path, rec.Body.String())
		}
		return rec.Result()
	}
	typedToken := sweepToken
	if viaEnv {
		typedToken = ""
	}
	form("/admin/integrations/homeassistant/test", true, "ha_url", ha.URL, "ha_token", typedToken)
	form("/admin/integrations/homeassistant", false, "ha_url", ha.URL, "ha_token", typedToken)
	form("/admin/integrations/homeassistant", true, "ha_url", ha.URL, "ha_token", typedToken)
	form("/admin/integrations/homeassistant/test", true, "ha_url", ha.URL, "ha_token", "")
	form("/admin/integrations/homeassistant/test", false, "ha_url", ha.URL, "ha_token", "")
	if !ha.sawToken() {
		t.Fatal("Home Assistant never received the token")
	}
	if !viaEnv {
		if tok, err := s.app.Settings.Secret(ctx, "homeassistant.token"); err != nil || tok != sweepToken {
			t.Fatalf("the token was not saved: %v", err)
		}
	}

	// Plex: the card, a sync (Admin → Catalog's Sync now) and a
	// thumbnail through Hearth's proxy, fetched with the token.
	form("/admin/integrations/plex/test", true, "plex_url", px.URL, "plex_token", typedToken, "plex_section", "3")
	form("/admin/integrations/plex", false, "plex_url", px.URL, "plex_token", typedToken, "plex_section", "3")
	form("/admin/integrations/plex", true, "plex_url", px.URL, "plex_token", typedToken, "plex_section", "3")
	form("/admin/integrations/plex/test", true, "plex_url", px.URL, "plex_token", "", "plex_section", "3")
	form("/admin/integrations/plex/test", false, "plex_url", px.URL, "plex_token", "", "plex_section", "3")
	if rec := form("/admin/catalog/plex-sync", false); rec.StatusCode != http.StatusOK {
		t.Fatalf("Plex sync now: %d", rec.StatusCode)
	}
	rec := s.do(swReq{method: http.MethodGet, path: "/plex/thumb/10000"})
	if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != "image/jpeg" {
		t.Fatalf("the thumbnail through Hearth: %d %q", rec.Code, rec.Header().Get("Content-Type"))
	}
	tokenFree(t, "GET /plex/thumb/10000 headers", []byte(strings.Join(headerLines(rec.Header()), "\n")))
	if px.Count(sec.Episodes[0].Thumb) != 1 || px.Count("/library/sections/3/all") == 0 {
		t.Fatalf("Plex was not asked for the sync and the picture: %+v", px.Requests())
	}
	for _, r := range px.Requests() {
		if r.Path != "/identity" && r.Token != sweepToken {
			t.Fatalf("Plex was asked without the token (the sweep would prove nothing): %+v", r)
		}
	}
	if !viaEnv {
		if tok, err := s.app.Settings.Secret(ctx, "plex.token"); err != nil || tok != sweepToken {
			t.Fatalf("the Plex token was not saved: %v", err)
		}
	}

	// Every GET route: admin pages, the API, the kiosk, live streams, the export.
	n, ok := 0, 0
	for _, rt := range s.app.Echo.Routes() {
		if rt.Method != http.MethodGet {
			continue
		}
		n++
		path := s.fill(rt.Path, "")
		rec := s.do(swReq{method: http.MethodGet, path: path})
		tokenFree(t, "GET "+path, rec.Body.Bytes())
		if rec.Code == http.StatusOK {
			ok++
		}
		if path == "/admin/integrations" && (rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "Home Assistant")) {
			t.Fatalf("GET /admin/integrations: %d", rec.Code)
		}
	}
	if n < 40 || ok < 30 {
		t.Fatalf("only %d GET routes swept, %d of them answered 200", n, ok)
	}
	t.Logf("swept %d GET routes (%d answered 200)", n, ok)
	// A member's export, as `hearth export` and Admin → Household write it.
	var zipBuf bytes.Buffer
	if err := export.Member(ctx, s.app.DB, s.dir, "maya", s.app.DB.Now(), &zipBuf); err != nil {
		t.Fatal(err)
	}
	if zipBuf.Len() < 100 {
		t.Fatalf("export of %d bytes", zipBuf.Len())
	}
	tokenFree(t, "export", zipBuf.Bytes())

	// A backup: the archive holds the database (the token encrypted), not secret.key.
	arch, err := s.app.Backups.Run(ctx, backup.TriggerManual)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(arch.Path)
	if err != nil {
		t.Fatal(err)
	}
	tokenFree(t, "backup "+arch.Name, raw)

	// The database itself and its WAL, and the log.
	for _, p := range []string{s.app.DB.Path, s.app.DB.Path + "-wal"} {
		if b, err := os.ReadFile(p); err == nil {
			tokenFree(t, filepath.Base(p), b)
		}
	}
	if err := s.app.DB.Checkpoint(ctx); err == nil {
		b, _ := os.ReadFile(s.app.DB.Path)
		tokenFree(t, "database after checkpoint", b)
	}
	if len(logs.Bytes()) == 0 || !bytes.Contains(logs.Bytes(), []byte("ha_token")) || !bytes.Contains(logs.Bytes(), []byte("plex_token")) {
		t.Fatal("no start log captured")
	}
	tokenFree(t, "log", logs.Bytes())
}

func headerLines(h http.Header) []string {
	var out []string
	for k, vs := range h {
		out = append(out, k+": "+strings.Join(vs, ", "))
	}
	return out
}
