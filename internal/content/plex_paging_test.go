package content_test

import (
	"context"
	"strings"
	"testing"

	"hearth/internal/content"
	"hearth/internal/content/plextest"
)

// A server may send fewer entries than asked for ("some endpoints will
// force pagination", plex-api-spec description.md): the listing follows
// the reported total, page after page, to the end, without a warning.
func TestPlexPagingFollowsTheTotalPastShortPages(t *testing.T) {
	for _, headerOnly := range []bool{false, true} {
		srv := plextest.New(t, plexToken, plextest.Library("3", "Fitness", 2, 617))
		srv.Set(func(s *plextest.Server) {
			s.PageCap = 100                  // asked for 500, answers 100
			s.TotalInHeaderOnly = headerOnly // older servers: X-Plex-Container-Total-Size only
		})
		fetched, err := newPlexClient(t, srv.URL, plexToken).FetchSection(context.Background(), "3")
		if err != nil {
			t.Fatal(err)
		}
		if n := len(fetched.File.Items); n != 2*617 || len(fetched.Warnings) != 0 {
			t.Fatalf("header only %v: %d items, warnings %q; want 1234 and none", headerOnly, n, fetched.Warnings)
		}
		// 1234 episodes at 100 a page: 13 pages, each starting where the last ended.
		var starts []int
		for _, r := range srv.Requests() {
			if r.Query == "type=4" {
				starts = append(starts, r.Start)
			}
		}
		if len(starts) != 13 || starts[1] != 100 || starts[12] != 1200 {
			t.Errorf("header only %v: episode pages start at %v", headerOnly, starts)
		}
	}
}

// A server that reports more than it sends: the listing stops at the
// first empty page (not forever) and the sync result says how many were
// reported and how many came.
func TestPlexPagingWarnsWhenTheCountsDisagree(t *testing.T) {
	ctx := context.Background()
	srv := plextest.New(t, plexToken, plextest.Library("3", "Fitness", 1, 250))
	srv.Set(func(s *plextest.Server) { s.PageCap, s.ExtraTotal = 100, 40 }) // reports 290 episodes, has 250
	c, _ := newCatalog(t)
	res, err := c.SyncPlex(ctx, newPlexClient(t, srv.URL, plexToken), "3", content.PlexSyncCLI)
	if err != nil {
		t.Fatal(err)
	}
	if res.Added != 250 || res.Seen != 250 {
		t.Errorf("added %d, seen %d; want 250", res.Added, res.Seen)
	}
	want := "Plex reported 290 entries in section 3's episodes but sent 250, then an empty page at entry 250"
	if !hasWarning(res.Warnings, want) {
		t.Errorf("warnings %q, want one starting %q", res.Warnings, want)
	}
	// 250 at 100 a page, then one empty page ends it.
	if n := countQuery(srv, "type=4"); n != 4 {
		t.Errorf("%d episode requests, want 4 (3 pages and the empty one)", n)
	}
	last, ok, err := c.LastPlexSync(ctx)
	if err != nil || !ok || !hasWarning(last.Warnings, want) || last.Added != 250 {
		t.Errorf("recorded %+v, %v, %v", last, ok, err)
	}
}

// A server that ignores X-Plex-Container-Start sends the first page
// again and again: the repeat ends the listing, with a warning, and no
// entry is imported twice.
func TestPlexPagingStopsOnRepeatedPages(t *testing.T) {
	srv := plextest.New(t, plexToken, plextest.Library("3", "Fitness", 1, 300))
	srv.Set(func(s *plextest.Server) { s.PageCap, s.IgnoreStart = 100, true })
	fetched, err := newPlexClient(t, srv.URL, plexToken).FetchSection(context.Background(), "3")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(fetched.File.Items); n != 100 || len(fetched.File.Programs[0].Days) != 100 {
		t.Errorf("%d items, %d days; want the 100 distinct ones once", n, len(fetched.File.Programs[0].Days))
	}
	if !hasWarning(fetched.Warnings, "Plex reported 300 entries in section 3's episodes but sent 100, then the same entries again at entry 100") {
		t.Errorf("warnings %q", fetched.Warnings)
	}
	if n := countQuery(srv, "type=4"); n != 2 {
		t.Errorf("%d episode requests, want 2", n)
	}
}

// A server that reports entries and sends only empty pages is asked once.
func TestPlexPagingEmptyPagesForeverAreBounded(t *testing.T) {
	sec := plextest.Library("3", "Fitness", 1, 0)
	srv := plextest.New(t, plexToken, sec)
	srv.Set(func(s *plextest.Server) { s.ExtraTotal = 1_000_000 })
	_, err := newPlexClient(t, srv.URL, plexToken).FetchSection(context.Background(), "3")
	if err == nil || !strings.Contains(err.Error(), "none has a duration") && !strings.Contains(err.Error(), "no shows with episodes") {
		t.Errorf("err = %v", err)
	}
	if n := countQuery(srv, "type=4"); n != 1 {
		t.Errorf("%d episode requests for a server sending empty pages, want 1", n)
	}
}

func hasWarning(ws []string, prefix string) bool {
	for _, w := range ws {
		if strings.HasPrefix(w, prefix) {
			return true
		}
	}
	return false
}

func countQuery(srv *plextest.Server, query string) int {
	n := 0
	for _, r := range srv.Requests() {
		if r.Query == query {
			n++
		}
	}
	return n
}
