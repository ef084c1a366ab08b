package web_test

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hearth/internal/app"
	"hearth/internal/dashboard"
	"hearth/internal/health"
	"hearth/internal/household"
	"hearth/internal/live"
	"hearth/internal/messages"
	"hearth/internal/program"
	"hearth/internal/store"
	"hearth/internal/store/storetest"
)

// kiosk is the real app (newTestApp) served on a loopback port, with the
// demo catalog loaded and members ada (kg) and bo (lb), no demo household.
type kiosk struct {
	t   *testing.T
	app *app.App
	srv *served
	db  *store.DB
	hub *live.Hub
	ds  *dashboard.Store
	hh  *household.Service
	ps  *program.Service
	ms  *messages.Service
	// dir is the media directory: local:<name> plays <dir>/<name>.mp4.
	dir string
	// client keeps cookies (the CSRF cookie) like a browser.
	client *http.Client
	csrf   string
}

func newKiosk(t *testing.T) *kiosk {
	t.Helper()
	return newKioskWith(t)
}

// newKioskWith is newKiosk with options for the app (a fast keep-alive
// unless set).
func newKioskWith(t *testing.T, opts ...appOption) *kiosk {
	t.Helper()
	fast := withOptions(func(o *app.Options) { o.KeepAlive = 100 * time.Millisecond })
	ta := newTestApp(t, append([]appOption{fast}, opts...)...)
	a, ctx := ta.app, context.Background()
	storetest.Member(t, a.DB, "ada")
	if _, err := a.DB.CreateMember(ctx, health.Member{ID: "bo", Name: "Bo", Unit: health.LB}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Catalog.LoadDemo(ctx); err != nil {
		t.Fatal(err)
	}
	k := &kiosk{t: t, app: a, db: a.DB, hub: a.Hub, ds: a.Dashboards, hh: a.Household, ps: a.Programs, ms: a.Messages,
		dir: filepath.Join(ta.dir, "media"), client: browser(0)}
	if err := os.MkdirAll(k.dir, 0o755); err != nil {
		t.Fatal(err)
	}
	k.srv = ta.serve()
	k.get("/") // sets the CSRF cookie
	u, _ := url.Parse(k.srv.URL)
	for _, c := range k.client.Jar.Cookies(u) {
		if c.Name == "hearth_csrf" {
			k.csrf = c.Value
		}
	}
	if k.csrf == "" {
		t.Fatal("no CSRF cookie after GET /")
	}
	return k
}

// get fetches a page and returns status and body.
func (k *kiosk) get(path string) (int, string) {
	k.t.Helper()
	resp, err := k.client.Get(k.srv.URL + path)
	if err != nil {
		k.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// post sends a form like a browser page would through Datastar (same-origin,
// CSRF header) unless token is "-" (no header) or another value (wrong one).
func (k *kiosk) post(path string, form url.Values, token string) (*http.Response, string) {
	k.t.Helper()
	return k.send(path, form, token, true)
}

// send posts a form, as a Datastar action or as a plain form submission.
func (k *kiosk) send(path string, form url.Values, token string, datastar bool) (*http.Response, string) {
	k.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, k.srv.URL+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	if datastar {
		req.Header.Set("Datastar-Request", "true")
	}
	switch token {
	case "":
		req.Header.Set("X-CSRF-Token", k.csrf)
	case "-":
	default:
		req.Header.Set("X-CSRF-Token", token)
	}
	resp, err := k.client.Do(req)
	if err != nil {
		k.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

func (k *kiosk) putDoc(member, day string, doc dashboard.Document) {
	k.t.Helper()
	ctx := context.Background()
	err := k.db.Tx(ctx, func(tx *store.Tx) error {
		return k.ds.PutTx(ctx, tx, time.Now(), member, day, 7, doc, "weight, meals, 3 notes")
	})
	if err != nil {
		k.t.Fatal(err)
	}
}

func today() string { return time.Now().UTC().Format(time.DateOnly) }

// sampleDoc is a hand-made document like the coach writes, over demo content.
func sampleDoc(briefing string) dashboard.Document {
	return dashboard.Document{
		GeneratedAt: time.Now().Add(-time.Minute).UTC().Truncate(time.Second),
		Curated: dashboard.Curated{
			UpNext: dashboard.UpNext{
				Primary: &dashboard.ContentRef{ContentID: "local:ember-core-01", Title: "Core Ignite", Duration: 15, ProgramContext: "Week 1, Day 1"},
				Alternates: []dashboard.ContentRef{
					{ContentID: "local:ember-core-02", Title: "Plank Ladder", Duration: 18, Reason: "lighter"},
				},
			},
			PlaylistSuggestion: []dashboard.ContentRef{
				{ContentID: "local:ember-core-01", Title: "Core Ignite", Duration: 15},
				{ContentID: "local:ember-core-03", Title: "Rotation Station", Duration: 20},
			},
		},
		Coach: dashboard.Coach{
			Briefing: briefing,
			CTA: []dashboard.CTA{
				{Type: dashboard.CTADataGap, Message: "No weigh-in for 6 days.", Action: dashboard.ActionOpenWeight},
				{Type: dashboard.CTADataGap, Message: "No meals logged yesterday.", Action: dashboard.ActionOpenNutrition},
			},
			Prompts: []dashboard.Prompt{
				{ID: "p1", Type: dashboard.PromptMultipleChoice, Question: "Ready for Core Ignite today?", Options: []string{"Yes, let's go", "Something lighter", "Rest day"}},
				{ID: "p2", Type: dashboard.PromptVoiceMemo, Question: "How is your energy this week?"},
			},
			Feedback: []string{"Three workouts this week, nice consistency."},
		},
	}
}

// sseReader reads Datastar events from a stream.
type sseReader struct {
	r *bufio.Reader
}

// next returns the next event's full text (event line and data lines).
func (s *sseReader) next() (string, error) {
	var b strings.Builder
	for {
		line, err := s.r.ReadString('\n')
		if err != nil {
			return b.String(), err
		}
		if line == "\n" {
			if b.Len() > 0 {
				return b.String(), nil
			}
			continue
		}
		b.WriteString(line)
	}
}

// until reads events until one contains all of want, or the deadline passes.
func (s *sseReader) until(t *testing.T, d time.Duration, want ...string) string {
	t.Helper()
	type res struct {
		ev  string
		err error
	}
	deadline := time.After(d)
	for {
		ch := make(chan res, 1)
		go func() { ev, err := s.next(); ch <- res{ev, err} }()
		select {
		case r := <-ch:
			if r.err != nil {
				t.Fatalf("stream ended waiting for %q: %v", want, r.err)
			}
			ok := true
			for _, w := range want {
				ok = ok && strings.Contains(r.ev, w)
			}
			if ok {
				return r.ev
			}
		case <-deadline:
			t.Fatalf("no event with %q within %v", want, d)
			return ""
		}
	}
}

// openStream starts a live stream request; cancel ends it like a closed tab.
func (k *kiosk) openStream(ctx context.Context, path string) (*sseReader, *http.Response) {
	k.t.Helper()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, k.srv.URL+path, nil)
	req.Header.Set("Datastar-Request", "true")
	req.Header.Set("Accept", "text/event-stream")
	resp, err := k.client.Do(req)
	if err != nil {
		k.t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		k.t.Fatalf("GET %s: %d %s", path, resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	return &sseReader{r: bufio.NewReader(resp.Body)}, resp
}
