package web_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"hearth/internal/app"
	"hearth/web"
)

// pageAs fetches path as a browser with its own cookie jar (its own CSRF
// token) and the given headers.
func pageAs(t *testing.T, k *kiosk, jar http.CookieJar, path string, hdr map[string]string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, k.srv.URL+path, nil)
	for n, v := range hdr {
		req.Header.Set(n, v)
	}
	c := &http.Client{Jar: jar, Transport: &http.Transport{DisableCompression: true}}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if b, err = io.ReadAll(zr); err != nil {
			t.Fatal(err)
		}
	}
	return resp, string(b)
}

func tokenOf(t *testing.T, k *kiosk, jar http.CookieJar) string {
	for _, c := range jar.Cookies(mustURL(t, k.srv.URL)) {
		if c.Name == "hearth_csrf" {
			return c.Value
		}
	}
	t.Fatal("no CSRF cookie")
	return ""
}

// TestDashboardPageRenderedOnce: the dashboard page is served from one
// rendering per change, yet every client gets its own CSRF token in every
// place a token stands, byte for byte what a fresh render gives; the ETag
// answers 304 until the member's data changes; gzip decodes to the same
// page.
func TestDashboardPageRenderedOnce(t *testing.T) {
	k := newKiosk(t)
	// The same household served without sharing (a hub without
	// generations): every request renders, as before the cache.
	fresh := newKioskWith(t, withOptions(func(o *app.Options) { o.Deps = func(d *web.Deps) { d.Live = struct{ web.Live }{d.Live} } }))

	jarA, _ := cookiejar.New(nil)
	jarB, _ := cookiejar.New(nil)
	jarF, _ := cookiejar.New(nil)
	pageAs(t, k, jarA, "/", nil)
	pageAs(t, k, jarB, "/", nil)
	pageAs(t, fresh, jarF, "/", nil)
	ta, tb, tf := tokenOf(t, k, jarA), tokenOf(t, k, jarB), tokenOf(t, fresh, jarF)

	respA, a := pageAs(t, k, jarA, "/m/ada", nil)
	_, b := pageAs(t, k, jarB, "/m/ada", nil)
	_, f := pageAs(t, fresh, jarF, "/m/ada", nil)
	if n := strings.Count(a, ta); n < 3 || strings.Contains(a, tb) {
		t.Fatalf("client A's page holds its token %d times (signals and forms expected), B's token: %v", n, strings.Contains(a, tb))
	}
	if strings.Count(b, tb) != strings.Count(a, ta) || strings.Contains(b, ta) {
		t.Fatal("client B's page does not hold B's token where A's holds A's")
	}
	norm := func(s, tok string) string { return strings.ReplaceAll(s, tok, "TOKEN") }
	if norm(a, ta) != norm(b, tb) {
		t.Fatal("two clients' pages differ in more than their tokens")
	}
	// A fresh render has no stream version (nothing shared to name); the
	// cached page names its full patch set (kiosk_stream_first_test.go).
	unversioned := regexp.MustCompile(`(/live/m/ada)\?v=[0-9a-z]+`)
	if !unversioned.MatchString(a) {
		t.Fatal("the cached page's stream URL carries no version")
	}
	if a := unversioned.ReplaceAllString(a, "$1"); norm(a, ta) != norm(f, tf) {
		x, y := norm(a, ta), norm(f, tf)
		i := 0
		for i < len(x) && i < len(y) && x[i] == y[i] {
			i++
		}
		t.Fatalf("the cached page differs from a fresh render at byte %d:\ncached …%s…\nfresh  …%s…", i, x[max(0, i-80):min(len(x), i+80)], y[max(0, i-80):min(len(y), i+80)])
	}
	if cl := respA.Header.Get("Content-Length"); cl != itoa(int64(len(a))) {
		t.Errorf("Content-Length %s for a %d-byte page", cl, len(a))
	}

	etag := respA.Header.Get("ETag")
	if etag == "" || respA.Header.Get("Cache-Control") != "private, no-cache" {
		t.Fatalf("ETag %q Cache-Control %q", etag, respA.Header.Get("Cache-Control"))
	}
	if resp, body := pageAs(t, k, jarA, "/m/ada", map[string]string{"If-None-Match": etag}); resp.StatusCode != http.StatusNotModified || body != "" {
		t.Fatalf("unchanged page: %d, %d bytes", resp.StatusCode, len(body))
	}
	// Another client's copy carries another token: its ETag must not match.
	if resp, _ := pageAs(t, k, jarB, "/m/ada", map[string]string{"If-None-Match": etag}); resp.StatusCode != http.StatusOK {
		t.Fatalf("client B revalidating with A's ETag: %d", resp.StatusCode)
	}

	respZ, z := pageAs(t, k, jarA, "/m/ada", map[string]string{"Accept-Encoding": "gzip"})
	if respZ.Header.Get("Content-Encoding") != "gzip" || z != a || respZ.Header.Get("ETag") == etag {
		t.Fatalf("gzip: encoding %q, same page %v, ETag %q", respZ.Header.Get("Content-Encoding"), z == a, respZ.Header.Get("ETag"))
	}

	// Past the copies kept per token (a household has a few screens), pages
	// are spliced per request: still each client's own token.
	for range 40 {
		jar, _ := cookiejar.New(nil)
		pageAs(t, k, jar, "/", nil)
		tok := tokenOf(t, k, jar)
		_, p := pageAs(t, k, jar, "/m/ada", nil)
		if norm(p, tok) != norm(a, ta) {
			t.Fatal("a page spliced past the kept copies differs from the others")
		}
	}

	k.post("/m/ada/weight", formOf("weight", "71.3"), "")
	resp, after := pageAs(t, k, jarA, "/m/ada", map[string]string{"If-None-Match": etag})
	if resp.StatusCode != http.StatusOK || !strings.Contains(after, "71.3") || resp.Header.Get("ETag") == etag {
		t.Fatalf("after a weigh-in: %d, shows 71.3: %v, ETag %q (was %q)", resp.StatusCode, strings.Contains(after, "71.3"), resp.Header.Get("ETag"), etag)
	}
}

func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// TestStreamPatchesEncodedOnce: three screens showing one member get the
// dashboard's patches from one encoding, each with its own CSRF token in
// the forms and the _csrf signal, and each sees a change.
func TestStreamPatchesEncodedOnce(t *testing.T) {
	renders := new(atomic.Int64)
	k := newKioskWith(t, withOptions(func(o *app.Options) { o.PatchRenders = renders }))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	type screen struct {
		tok string
		r   *sseReader
	}
	var screens []screen
	for range 3 {
		jar, _ := cookiejar.New(nil)
		pageAs(t, k, jar, "/", nil)
		tok := tokenOf(t, k, jar)
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, k.srv.URL+"/live/m/ada", nil)
		req.Header.Set("Datastar-Request", "true")
		resp, err := (&http.Client{Jar: jar}).Do(req)
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("stream: %v %v", resp, err)
		}
		defer resp.Body.Close()
		screens = append(screens, screen{tok, &sseReader{r: bufio.NewReader(resp.Body)}})
	}
	for i, sc := range screens {
		var all strings.Builder
		for !strings.Contains(all.String(), `"_ka"`) {
			ev, err := sc.r.next()
			if err != nil {
				t.Fatal(err)
			}
			all.WriteString(ev)
		}
		got := all.String()
		if !strings.Contains(got, `"_csrf":"`+sc.tok+`"`) || !strings.Contains(got, `value="`+sc.tok+`"`) {
			t.Fatalf("screen %d: its token is not in the _csrf signal and the forms", i)
		}
		for j, other := range screens {
			if j != i && strings.Contains(got, other.tok) {
				t.Fatalf("screen %d got screen %d's token", i, j)
			}
		}
	}
	if n := renders.Load(); n != 1 {
		t.Errorf("three screens connecting to one member encoded the full patch set %d times, want once", n)
	}
	k.post("/m/ada/weight", formOf("weight", "71.3"), "")
	for _, sc := range screens {
		sc.r.until(t, 2*time.Second, "71.3")
	}
}
