package web_test

import (
	"bufio"
	"context"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The first events of a dashboard's stream: the page names the full patch
// set it was rendered with (?v= in its stream URL); a first request whose
// version is current gets no widget patches (the browser used to parse and
// morph ~22 KB of identical DOM right after load), while a stale version,
// a reconnect or no version gets every widget from current state.

var streamVersionRE = regexp.MustCompile(`/live/m/ada\?v=([0-9a-z]+)`)

// pageVersion fetches the dashboard as the kiosk's browser and returns the
// page and the version its stream URL carries.
func pageVersion(t *testing.T, k *kiosk) (page, version string) {
	t.Helper()
	code, page := k.get("/m/ada")
	if code != http.StatusOK {
		t.Fatalf("GET /m/ada: %d", code)
	}
	m := streamVersionRE.FindStringSubmatch(page)
	if m == nil {
		t.Fatal("the dashboard's stream URL carries no ?v= version")
	}
	return page, m[1]
}

// firstEvents opens the stream at path (with hdr) and returns its events up
// to and including the first keep-alive, which ends the first batch.
func firstEvents(t *testing.T, k *kiosk, ctx context.Context, path string, hdr map[string]string) ([]string, *sseReader) {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, k.srv.URL+path, nil)
	req.Header.Set("Datastar-Request", "true")
	req.Header.Set("Accept", "text/event-stream")
	for n, v := range hdr {
		req.Header.Set(n, v)
	}
	resp, err := k.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d", path, resp.StatusCode)
	}
	s := &sseReader{r: bufio.NewReader(resp.Body)}
	var evs []string
	done := make(chan error, 1)
	go func() {
		for {
			ev, err := s.next()
			if err != nil {
				done <- err
				return
			}
			evs = append(evs, ev)
			if strings.Contains(ev, `"_ka":`) {
				done <- nil
				return
			}
		}
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("stream ended before its first keep-alive: %v", err)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("no keep-alive within 3 s")
	}
	return evs, s
}

func countPatches(evs []string) int {
	n := 0
	for _, ev := range evs {
		if strings.Contains(ev, "event: datastar-patch-elements") {
			n++
		}
	}
	return n
}

// The full set: every widget, the switcher and the privacy toggle.
var fullSetIDs = []string{`id="w-weight"`, `id="w-nutrition"`, `id="w-body"`, `id="w-workouts"`, `id="curated"`, `id="w-playlist"`, `id="coach"`, `id="switcher"`, `id="privacy"`}

func assertFullSet(t *testing.T, what string, evs []string) {
	t.Helper()
	all := strings.Join(evs, "")
	for _, id := range fullSetIDs {
		if !strings.Contains(all, id) {
			t.Errorf("%s: the first events do not patch %s", what, id)
		}
	}
}

func TestStreamSkipsTheFullPatchThePageHas(t *testing.T) {
	k := newKiosk(t)
	k.putDoc("ada", today(), sampleDoc("Morning."))
	_, v := pageVersion(t, k)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	evs, s := firstEvents(t, k, ctx, "/live/m/ada?v="+v, nil)
	if n := countPatches(evs); n != 0 {
		t.Fatalf("the page is current, yet the stream's first events patch %d elements:\n%s", n, strings.Join(evs, ""))
	}
	// The first event marks the connection (its id comes back as
	// Last-Event-ID on a retry) and gives the page's header the token.
	if !strings.Contains(evs[0], "id: connected") || !strings.Contains(evs[0], `"_csrf":"`+k.csrf+`"`) {
		t.Fatalf("first event %q: want id connected and the client's _csrf", evs[0])
	}
	// Still live: a change reaches the page.
	k.post("/m/ada/weight", formOf("weight", "68.3"), "")
	s.until(t, 2*time.Second, `id="w-weight"`, "68.3")
}

func TestStreamSendsTheFullPatchWhenThePageIsStale(t *testing.T) {
	k := newKiosk(t)
	k.putDoc("ada", today(), sampleDoc("Morning."))
	_, v := pageVersion(t, k)
	// A weigh-in between the page and its stream: the page's widgets are old.
	k.post("/m/ada/weight", formOf("weight", "68.3"), "")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	evs, _ := firstEvents(t, k, ctx, "/live/m/ada?v="+v, nil)
	assertFullSet(t, "stale page", evs)
	if !strings.Contains(strings.Join(evs, ""), "68.3") {
		t.Error("stale page: the full patch does not carry the new weigh-in")
	}
}

func TestStreamReconnectGetsTheFullPatch(t *testing.T) {
	k := newKiosk(t)
	k.putDoc("ada", today(), sampleDoc("Morning."))
	_, v := pageVersion(t, k)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// A retry of the same stream (Datastar reuses the URL, ?v= and all, and
	// sends the id of the last event it saw): whatever the version says,
	// the page may have missed changes or got part of a patch set.
	evs, _ := firstEvents(t, k, ctx, "/live/m/ada?v="+v, map[string]string{"Last-Event-ID": "connected"})
	assertFullSet(t, "reconnect", evs)
	// No version (another page, an old page): everything, as before.
	evs, _ = firstEvents(t, k, ctx, "/live/m/ada", nil)
	assertFullSet(t, "no version", evs)
	// A version from elsewhere (another server's, a made-up one).
	evs, _ = firstEvents(t, k, ctx, "/live/m/ada?v=0"+v, nil)
	assertFullSet(t, "unknown version", evs)
}

// TestPageHoldsWhatTheFullPatchSends is the skip's premise: the page shows
// byte for byte the elements the full patch set would send, so a matching
// version means the patch would change nothing. It also keeps the patches
// on the page's content-hashed static URLs (the coach's avatar was linked
// as plain /static/coach.svg in patches: a second download after every
// full patch).
func TestPageHoldsWhatTheFullPatchSends(t *testing.T) {
	k := newKiosk(t)
	k.putDoc("ada", today(), sampleDoc("Morning."))
	page, _ := pageVersion(t, k)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	evs, _ := firstEvents(t, k, ctx, "/live/m/ada", nil)
	n := 0
	for _, ev := range evs {
		if !strings.Contains(ev, "event: datastar-patch-elements") {
			continue
		}
		var lines []string
		for _, l := range strings.Split(strings.TrimSuffix(ev, "\n"), "\n") {
			if rest, ok := strings.CutPrefix(l, "data: elements "); ok {
				lines = append(lines, rest)
			}
		}
		html := strings.Join(lines, "\n")
		if !strings.Contains(page, html) {
			t.Errorf("the page does not hold this patch's elements verbatim:\n%.300s…", html)
		}
		n++
	}
	if n < len(fullSetIDs) {
		t.Fatalf("%d element patches in the full set, want %d", n, len(fullSetIDs))
	}
	if strings.Contains(strings.Join(evs, ""), `"/static/coach.svg"`) {
		t.Error("a patch links /static/coach.svg, the page its content-hashed URL")
	}
}
