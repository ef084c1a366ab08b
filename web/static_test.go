package web_test

import (
	"bytes"
	"compress/gzip"
	"hearth/internal/app"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/andybalholm/brotli"
)

// assetGet fetches path with the given request headers.
func assetGet(t *testing.T, k *kiosk, path string, hdr map[string]string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, k.srv.URL+path, nil)
	for n, v := range hdr {
		req.Header.Set(n, v)
	}
	// A bare transport: the default one would ask for and undo gzip itself.
	resp, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, b
}

// TestStaticAssetsHashedAndCompressed: pages link content-hashed URLs that
// are cached for a year; the plain name is revalidated by ETag; text files
// come brotli- or gzip-compressed to clients that accept it and decode to
// the file's bytes; an old hash still gets today's file (not immutable).
func TestStaticAssetsHashedAndCompressed(t *testing.T) {
	js := []byte(strings.Repeat("console.log('hearth');\n", 200))
	// Named as files the page links, so the test reads their URLs from it.
	fsys := fstest.MapFS{"hearth.js": {Data: js}, "favicon.svg": {Data: []byte("<svg/>")}}
	k := newKioskWith(t, withOptions(func(o *app.Options) { o.Static = fsys }))
	_, page := k.get("/")
	linked := func(pattern string) string {
		t.Helper()
		m := regexp.MustCompile(`(?:href|src)="(` + pattern + `)"`).FindStringSubmatch(page)
		if m == nil {
			t.Fatalf("the page links no %s", pattern)
		}
		return m[1]
	}
	url := linked(`/static/hearth\.[0-9a-f]{10}\.js`)
	svg := linked(`/static/favicon\.[0-9a-f]{10}\.svg`)

	resp, b := assetGet(t, k, url, nil)
	if resp.StatusCode != 200 || !bytes.Equal(b, js) {
		t.Fatalf("GET %s: %d, %d bytes", url, resp.StatusCode, len(b))
	}
	if cc := resp.Header.Get("Cache-Control"); cc != "public, max-age=31536000, immutable" {
		t.Errorf("hashed URL Cache-Control = %q", cc)
	}
	if ct := resp.Header.Get("Content-Type"); !strings.Contains(ct, "javascript") {
		t.Errorf("Content-Type = %q", ct)
	}

	resp, b = assetGet(t, k, url, map[string]string{"Accept-Encoding": "gzip, deflate, br"})
	if resp.Header.Get("Content-Encoding") != "br" || resp.Header.Get("Vary") != "Accept-Encoding" {
		t.Fatalf("br: Content-Encoding %q Vary %q", resp.Header.Get("Content-Encoding"), resp.Header.Get("Vary"))
	}
	if plain, err := io.ReadAll(brotli.NewReader(bytes.NewReader(b))); err != nil || !bytes.Equal(plain, js) || len(b) >= len(js)/4 {
		t.Fatalf("br body: %d bytes compressed, decoded equal %v (%v)", len(b), bytes.Equal(plain, js), err)
	}
	resp, b = assetGet(t, k, url, map[string]string{"Accept-Encoding": "gzip, br;q=0"})
	if resp.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("br;q=0 must fall back to gzip, got %q", resp.Header.Get("Content-Encoding"))
	}
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if plain, _ := io.ReadAll(zr); !bytes.Equal(plain, js) {
		t.Fatal("gzip body does not decode to the file")
	}

	resp, _ = assetGet(t, k, "/static/hearth.js", nil)
	etag := resp.Header.Get("ETag")
	if resp.StatusCode != 200 || resp.Header.Get("Cache-Control") != "no-cache" || etag == "" {
		t.Fatalf("plain name: %d Cache-Control %q ETag %q", resp.StatusCode, resp.Header.Get("Cache-Control"), etag)
	}
	if resp, b = assetGet(t, k, "/static/hearth.js", map[string]string{"If-None-Match": etag}); resp.StatusCode != http.StatusNotModified || len(b) != 0 {
		t.Fatalf("If-None-Match: %d, %d bytes", resp.StatusCode, len(b))
	}
	resp, b = assetGet(t, k, "/static/hearth.0123456789.js", nil)
	if resp.StatusCode != 200 || !bytes.Equal(b, js) || resp.Header.Get("Cache-Control") != "no-cache" {
		t.Fatalf("old hash: %d Cache-Control %q", resp.StatusCode, resp.Header.Get("Cache-Control"))
	}
	resp, b = assetGet(t, k, svg, map[string]string{"Accept-Encoding": "gzip, br"})
	if resp.Header.Get("Content-Encoding") != "" || string(b) != "<svg/>" {
		t.Fatalf("a file too small to gain from compression is sent as is: %q %q", resp.Header.Get("Content-Encoding"), b)
	}
	for _, p := range []string{"/static/nope.js", "/static/hearth.zzzzzzzzzz.js", "/static/../static.go"} {
		if resp, _ := assetGet(t, k, p, nil); resp.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", p, resp.StatusCode)
		}
	}
}

// TestPagesLinkHashedAssets: the kiosk page links the real assets by
// hashed URL, and each of them is served.
func TestPagesLinkHashedAssets(t *testing.T) {
	k := newKiosk(t) // the app serves static.FS
	_, page := k.get("/m/ada")
	links := regexp.MustCompile(`(?:href|src)="(/static/[^"]+)"`).FindAllStringSubmatch(page, -1)
	if len(links) < 3 {
		t.Fatalf("page links %d static files", len(links))
	}
	for _, l := range links {
		if !regexp.MustCompile(`\.[0-9a-f]{10}\.[a-z]+$`).MatchString(l[1]) {
			t.Errorf("%s is not content-hashed", l[1])
		}
		if resp, b := assetGet(t, k, l[1], nil); resp.StatusCode != 200 || len(b) == 0 {
			t.Errorf("GET %s: %d", l[1], resp.StatusCode)
		}
	}
}
