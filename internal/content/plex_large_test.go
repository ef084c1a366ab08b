package content_test

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"hearth/internal/content"
)

// largePlex serves a show section of shows × episodesPerShow episodes in
// Plex's JSON shape. With paging it honours X-Plex-Container-Start/-Size
// (as Plex Media Server does, reporting offset and totalSize in the body and
// X-Plex-Container-Total-Size in a header); without, it answers every
// listing whole, as one stream. summaryPad makes each episode that much
// bigger.
func largePlex(t *testing.T, shows, episodesPerShow int, paging bool, summaryPad int) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var requests atomic.Int64
	pad := strings.Repeat("x", summaryPad)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		if r.Header.Get("X-Plex-Token") != plexToken {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/identity" {
			fmt.Fprint(w, `{"MediaContainer":{"size":0,"machineIdentifier":"bigmachine","version":"1.40.0.7998"}}`)
			return
		}
		if r.URL.Path != "/library/sections/7/all" {
			t.Errorf("unexpected request %s", r.URL)
			http.NotFound(w, r)
			return
		}
		episodes := r.URL.Query().Get("type") == "4"
		total := shows
		if episodes {
			total = shows * episodesPerShow
		}
		start, size := 0, total
		if paging {
			if v, err := strconv.Atoi(r.Header.Get("X-Plex-Container-Start")); err == nil {
				start = min(v, total)
			}
			if v, err := strconv.Atoi(r.Header.Get("X-Plex-Container-Size")); err == nil {
				size = v
			}
		}
		end := min(start+size, total)
		w.Header().Set("X-Plex-Container-Start", strconv.Itoa(start))
		w.Header().Set("X-Plex-Container-Total-Size", strconv.Itoa(total))
		bw := bufio.NewWriter(w)
		fmt.Fprintf(bw, `{"MediaContainer":{"size":%d,"totalSize":%d,"offset":%d,"allowSync":true,"librarySectionID":7,"Metadata":[`,
			end-start, total, start)
		for i := start; i < end; i++ {
			if i > start {
				bw.WriteByte(',')
			}
			if !episodes {
				fmt.Fprintf(bw, `{"ratingKey":"%d","key":"/library/metadata/%d/children","type":"show","title":"Show %d","summary":"","leafCount":%d}`,
					i+1, i+1, i+1, episodesPerShow)
				continue
			}
			show, n := i%shows, i/shows // shows interleaved, as a library sorted by title would mix them
			season, ep := n/10+1, n%10+1
			fmt.Fprintf(bw, `{"ratingKey":"%d","key":"/library/metadata/%d","parentRatingKey":"%d","grandparentRatingKey":"%d",`+
				`"type":"episode","title":"Workout %d","grandparentTitle":"Show %d","summary":"%s","index":%d,"parentIndex":%d,`+
				`"duration":%d,"thumb":"/library/metadata/%d/thumb/1","Media":[{"duration":%d,"Part":[{"key":"/library/parts/%d/1/file.mp4"}]}]}`,
				100000+i, 100000+i, 500000+show*100+season, show+1, n+1, show+1, pad, ep, season, 1_800_000, 100000+i, 1_800_000, 100000+i)
		}
		bw.WriteString(`]}}`)
		if err := bw.Flush(); err != nil {
			t.Logf("write: %v", err)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, &requests
}

// A 50,000-episode library syncs in 102 requests: the shows, then the
// episodes 500 at a time, never one request per show or season.
func TestPlexLargeLibraryIsPaged(t *testing.T) {
	srv, requests := largePlex(t, 100, 500, true, 0)
	fetched, err := newPlexClient(t, srv.URL, plexToken).FetchSection(context.Background(), "7")
	if err != nil {
		t.Fatal(err)
	}
	f := fetched.File
	if len(f.Items) != 50_000 || len(f.Programs) != 100 || len(fetched.Skipped) != 0 || len(fetched.Warnings) != 0 {
		t.Fatalf("items %d programs %d skipped %q warnings %q", len(f.Items), len(f.Programs), fetched.Skipped, fetched.Warnings)
	}
	if n := requests.Load(); n != 1+1+100 {
		t.Errorf("%d requests, want 102 (identity, shows, 100 pages of episodes)", n)
	}
	p := f.Programs[0]
	if p.ID != "plex-show-1" || len(p.Days) != 500 || p.Days[0].ContentID != "plex:100000" || p.Days[10].ContentID != "plex:101000" {
		t.Errorf("first program %s: %d days, first %v, 11th %v", p.ID, len(p.Days), p.Days[0], p.Days[10])
	}
}

// A server that ignores paging answers with everything at once: the reply
// (here over 32 MiB) is decoded as it streams, one entry at a time.
func TestPlexHugeReplyIsStreamed(t *testing.T) {
	if testing.Short() {
		t.Skip("streams a 40 MB reply")
	}
	srv, requests := largePlex(t, 40, 1_000, false, 800)
	// No client timeout: what is tested is that the reply is decoded as it
	// streams, and under -race beside CPU-burning loops (make stress-test)
	// reading 40 MB took longer than the client's default 30 s.
	px, err := content.NewPlexClient(srv.URL, plexToken, &http.Client{})
	if err != nil {
		t.Fatal(err)
	}
	fetched, err := px.FetchSection(context.Background(), "7")
	if err != nil {
		t.Fatal(err)
	}
	if len(fetched.File.Items) != 40_000 || requests.Load() != 3 || len(fetched.Warnings) != 0 {
		t.Errorf("items %d, requests %d, warnings %q", len(fetched.File.Items), requests.Load(), fetched.Warnings)
	}
}
