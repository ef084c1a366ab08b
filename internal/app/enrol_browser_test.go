package app_test

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"hearth/internal/app"
)

// A tablet enrolled in Chromium: with device tokens on, the kiosk shows
// "not enrolled"; the enrolment link the admin made opens a page whose
// button leaves the SameSite=Strict device cookie, after which the
// household view loads and its live stream connects (the cookie rides on
// the redirect, the page and the stream); revoked, a reload is refused.
func TestEnrolAScreenInBrowser(t *testing.T) {
	browser := newBrowser(t, 1024, 768)
	ln, err := net.Listen("tcp", "127.0.0.1:0") // a real port: the link is made from the listen address
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	dir := t.TempDir()
	srv := startApp(t, app.Config{Addr: addr, DataDir: dir, DBPath: filepath.Join(dir, "hearth.db"), Location: time.UTC,
		Demo: true, KioskIdle: 10 * time.Minute, CatchUp: 12 * time.Hour, Prices: app.DefaultPrices, AdminPassword: "hunter2"})

	// The admin, on a laptop (an HTTP client here).
	jar, _ := cookiejar.New(nil)
	admin := &http.Client{Jar: jar, Timeout: 10 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	post := func(path string, form url.Values) string {
		t.Helper()
		u, _ := url.Parse(srv.url)
		for _, ck := range jar.Cookies(u) {
			if ck.Name == "hearth_csrf" {
				form.Set("_csrf", ck.Value)
			}
		}
		req, _ := http.NewRequest(http.MethodPost, srv.url+path, strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Sec-Fetch-Site", "same-origin")
		resp, err := admin.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode >= 400 {
			t.Fatalf("POST %s: %d %.300s", path, resp.StatusCode, b)
		}
		return string(b)
	}
	if resp, err := admin.Get(srv.url + "/admin/login"); err != nil {
		t.Fatal(err)
	} else {
		resp.Body.Close()
	}
	post("/admin/login", url.Values{"password": {"hunter2"}})
	post("/admin/screens/tokens", url.Values{"require": {"on"}})
	page := post("/admin/screens", url.Values{"kind": {"screen"}, "name": {"Hall tablet"}})
	m := regexp.MustCompile(`id="enrol-link">([^<]+)<`).FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no enrolment link: %.1000s", page)
	}
	link := m[1]
	if !strings.HasPrefix(link, srv.url+"/enrol/") {
		t.Fatalf("enrolment link %q is not on %s", link, srv.url)
	}

	ctx, cancel := context.WithTimeout(browser, 60*time.Second)
	defer cancel()
	do(t, ctx, chromedp.Navigate(srv.url+"/"))
	until(t, ctx, 10*time.Second, `document.getElementById('not-enrolled')`)
	shots := os.Getenv("HEARTH_ARTIFACTS") != ""
	if shots {
		screenshot(t, ctx, artifacts(t), "kiosk-not-enrolled.png", false)
	}
	do(t, ctx, chromedp.Navigate(link))
	until(t, ctx, 10*time.Second, `document.getElementById('enrol-name')?.textContent === 'Hall tablet'`)
	if shots {
		screenshot(t, ctx, artifacts(t), "kiosk-enrol.png", false)
	}
	click(t, ctx, "#enrol-confirm")
	until(t, ctx, 10*time.Second, `location.pathname === '/' && document.getElementById('tiles') && document.body.dataset.hearthLive === '1'`)
	var tiles string
	if err := eval(ctx, `document.getElementById('tiles').textContent`, &tiles); err != nil || !strings.Contains(tiles, "Maya") {
		t.Fatalf("household view after enrolling: %q %v", tiles, err)
	}

	list, err := srv.app.Devices.List(context.Background())
	if err != nil || len(list) != 1 || list[0].Pending {
		t.Fatalf("devices: %+v %v", list, err)
	}
	post("/admin/screens/"+strconv.FormatInt(list[0].ID, 10)+"/revoke", url.Values{})
	do(t, ctx, chromedp.Navigate(srv.url+"/m/maya"))
	until(t, ctx, 10*time.Second, `document.getElementById('not-enrolled')`)
}
