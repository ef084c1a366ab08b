package app_test

import (
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hearth/internal/agent"
	"hearth/internal/app"
	"hearth/internal/household"
)

// demoApp serves a fresh demo household (its members' plans for today were
// prepared at first start).
func demoApp(t *testing.T) *running {
	t.Helper()
	dir := t.TempDir()
	return startApp(t, app.Config{Addr: "127.0.0.1:0", DataDir: dir, DBPath: filepath.Join(dir, "hearth.db"),
		Location: time.UTC, Demo: true, KioskIdle: 10 * time.Minute, CatchUp: 12 * time.Hour, Prices: app.DefaultPrices})
}

// newMember adds a member who joined today: no plan yet.
func newMember(t *testing.T, srv *running, id, name string) {
	t.Helper()
	if _, err := srv.app.Household.CreateMember(context.Background(), household.MemberInput{ID: id, Name: name}); err != nil {
		t.Fatal(err)
	}
}

func hasToday(t *testing.T, srv *running, member string) bool {
	t.Helper()
	_, err := srv.app.Dashboards.Get(context.Background(), member, srv.app.Dashboards.Day(time.Now()))
	return err == nil
}

// "Prepare my day now": tapping it on a dashboard without today's plan runs
// the coach for that member; the plan arrives over the live stream, no reload.
func TestPrepareDayInBrowser(t *testing.T) {
	browser := newBrowser(t, 1280, 800)
	srv := demoApp(t)
	newMember(t, srv, "nova", "Nova")
	ctx, cancel := context.WithTimeout(browser, 60*time.Second)
	defer cancel()
	open(t, ctx, srv.url+"/m/nova")
	until(t, ctx, 3*time.Second, `document.querySelector('#coach .chip').textContent.includes('not prepared yet')`)
	js(t, ctx, `window.__noReload = true`)
	click(t, ctx, "#prepare button")
	took := until(t, ctx, 15*time.Second, `!document.getElementById('prepare') &&
		document.querySelector('#coach .chip').textContent.includes('prepared ') &&
		document.getElementById('briefing').textContent.length > 20 &&
		document.getElementById('upnext')`)
	until(t, ctx, 3*time.Second, `document.getElementById('flash').textContent.includes('Your day is ready')`)
	js(t, ctx, `if (!window.__noReload) throw new Error('the page reloaded')`)
	t.Logf("plan on screen %v after the tap", took.Round(time.Millisecond))
	if !hasToday(t, srv, "nova") {
		t.Fatal("want today's document for nova")
	}
	runs, err := srv.app.Agents.Runs().List(context.Background(), agent.RunFilter{Member: "nova"})
	if err != nil || len(runs) != 1 || runs[0].Trigger != agent.TriggerManual || runs[0].Status != agent.StatusSucceeded {
		t.Fatalf("runs for nova: %+v %v", runs, err)
	}
}

// Without JavaScript the form posts and redirects back; without the CSRF
// token nothing runs.
func TestPrepareDayForm(t *testing.T) {
	srv := demoApp(t)
	newMember(t, srv, "nova", "Nova")
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Get(srv.url + "/m/nova")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	var token string
	u, _ := url.Parse(srv.url)
	for _, ck := range jar.Cookies(u) {
		if ck.Name == "hearth_csrf" {
			token = ck.Value
		}
	}
	if token == "" {
		t.Fatal("no CSRF cookie from the dashboard page")
	}
	post := func(form url.Values) *http.Response {
		req, _ := http.NewRequest(http.MethodPost, srv.url+"/m/nova/prepare", strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", srv.url)
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	if resp := post(url.Values{}); resp.StatusCode != http.StatusForbidden {
		t.Fatalf("no token: status %d, want 403", resp.StatusCode)
	}
	if hasToday(t, srv, "nova") {
		t.Fatal("a refused request prepared the day")
	}
	if resp := post(url.Values{"_csrf": {token}}); resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/m/nova" {
		t.Fatalf("status %d to %q, want 303 to /m/nova", resp.StatusCode, resp.Header.Get("Location"))
	}
	st, err := srv.app.Dashboards.Get(context.Background(), "nova", srv.app.Dashboards.Day(time.Now()))
	if err != nil || st.Document.Coach.Briefing == "" {
		t.Fatalf("today's document for nova: %+v %v", st, err)
	}
	// A second tap while today's plan exists answers with it: no new run.
	if resp := post(url.Values{"_csrf": {token}}); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("second tap: %d", resp.StatusCode)
	}
	if runs, _ := srv.app.Agents.Runs().List(context.Background(), agent.RunFilter{Member: "nova"}); len(runs) != 1 {
		t.Fatalf("%d runs for nova after two taps, want 1", len(runs))
	}
	// Prepared: the page no longer offers it.
	resp, err = c.Get(srv.url + "/m/nova")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var b strings.Builder
	_, _ = io.Copy(&b, resp.Body)
	if strings.Contains(b.String(), `id="prepare"`) {
		t.Fatal("the prepared dashboard still offers to prepare the day")
	}
}
