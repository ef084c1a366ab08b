package content_test

import (
	"context"
	"strings"
	"testing"

	"hearth/internal/content"
	"hearth/internal/content/plextest"
)

// Each failure a household meets says what is wrong, in the recorded
// result (Admin → Catalog, hearth plex sync), never with the token.
func TestPlexSyncRecordsWhyItFailed(t *testing.T) {
	ctx := context.Background()
	movies := plextest.Section{Key: "1", Title: "Movies", Type: "movie"}
	empty := plextest.Section{Key: "5", Title: "New Workouts", Type: "show"}
	srv := plextest.New(t, plexToken, plextest.Library("3", "Fitness", 1, 2), movies, empty)
	for _, tc := range []struct {
		name, token, section string
		want                 string
	}{
		{"wrong token", "wrong-token-123", "3",
			"Plex rejected the token (HTTP 401) for /library/sections/3/all: the token is wrong or was revoked; check the Plex token (Admin → Integrations, or PLEX_TOKEN)"},
		{"missing section", plexToken, "9",
			"Plex has no library section 9 (HTTP 404): check PLEX_SECTION; this server's sections: 3 Fitness (show), 1 Movies (movie), 5 New Workouts (show)"},
		{"empty section", plexToken, "5", "Plex section 5 (New Workouts) is empty: it lists no shows or movies"},
	} {
		c, db := newCatalog(t)
		res, err := c.SyncPlex(ctx, newPlexClient(t, srv.URL, tc.token), tc.section, content.PlexSyncAtStart)
		if err == nil || res.OK() || res.Error != tc.want {
			t.Errorf("%s: error %q (%v), want %q", tc.name, res.Error, err, tc.want)
		}
		last, ok, err := c.LastPlexSync(ctx)
		if err != nil || !ok || last.Error != tc.want || last.Section != tc.section || last.Origin != content.PlexSyncAtStart ||
			last.Finished.Before(last.Started) || last.Started.IsZero() {
			t.Errorf("%s: recorded %+v, %v, %v", tc.name, last, ok, err)
		}
		if strings.Contains(last.Error+strings.Join(last.Warnings, ""), tc.token) {
			t.Errorf("%s: the token is in the result", tc.name)
		}
		if !strings.HasPrefix(last.Headline(), "Plex sync of section "+tc.section) || !strings.Contains(last.Headline(), "failed: "+tc.want) {
			t.Errorf("%s: headline %q", tc.name, last.Headline())
		}
		if got := tableCounts(t, db); got != [3]int{} {
			t.Errorf("%s: a failed sync imported %v", tc.name, got)
		}
	}

	// Plex down: the recorded error names the server, not the token.
	c, _ := newCatalog(t)
	srv.SetDown(true)
	res, err := c.SyncPlex(ctx, newPlexClient(t, srv.URL, plexToken), "3", content.PlexSyncCLI)
	if err == nil || !strings.HasPrefix(res.Error, "Plex did not answer at "+srv.URL+" (GET /identity)") || strings.Contains(res.Error, plexToken) {
		t.Errorf("down: %q, %v", res.Error, err)
	}
}

// A successful sync records what it saw, added, updated and found gone.
func TestPlexSyncRecordsItsCounts(t *testing.T) {
	ctx := context.Background()
	sec := plextest.Library("3", "Fitness", 2, 3)
	sec.Episodes[4].DurationMS = 0 // Show 2, Workout 2: no duration
	srv := plextest.New(t, plexToken, sec)
	c, _ := newCatalog(t)
	px := newPlexClient(t, srv.URL, plexToken)
	first, err := c.SyncPlex(ctx, px, "3", content.PlexSyncCLI)
	if err != nil {
		t.Fatal(err)
	}
	if first.Title != "Fitness" || first.Seen != 6 || first.Added != 5 || first.Skipped != 1 || first.ProgramsAdded != 2 || first.Removed != 0 {
		t.Errorf("first sync %+v", first)
	}
	if !hasWarning(first.Warnings, `1 entries have no duration and were left out: "Workout 2" (11001)`) {
		t.Errorf("warnings %q", first.Warnings)
	}
	// One episode gone from Plex, one retitled.
	eps := append(append([]plextest.Item{}, sec.Episodes[:2]...), sec.Episodes[3:]...)
	eps[1].Title = "Workout Two"
	srv.SetSections(plextest.Section{Key: "3", Title: "Fitness", Type: "show", Top: sec.Top, Episodes: eps})
	second, err := c.SyncPlex(ctx, px, "3", content.PlexSyncAdmin)
	if err != nil {
		t.Fatal(err)
	}
	if second.Seen != 5 || second.Added != 0 || second.Updated != 1 || second.Unchanged != 3 || second.Removed != 1 {
		t.Errorf("second sync %+v", second)
	}
	if !hasWarning(second.Warnings, `1 Plex items in the catalog are no longer in this section (kept: workouts and playlists name them): "Workout 3" (plex:10002)`) {
		t.Errorf("warnings %q", second.Warnings)
	}
	if _, err := c.Get(ctx, "plex:10002"); err != nil {
		t.Errorf("the item gone from Plex was deleted: %v", err)
	}
	last, _, err := c.LastPlexSync(ctx)
	if err != nil || last.ID != second.ID || last.Updated != 1 || last.Removed != 1 || last.Origin != content.PlexSyncAdmin {
		t.Errorf("last = %+v, %v", last, err)
	}
	want := "Plex sync of section 3 (Fitness): 5 episodes and movies seen; 0 added, 1 updated, 3 unchanged, 1 no longer in Plex, 1 skipped"
	if last.Headline() != want {
		t.Errorf("headline %q, want %q", last.Headline(), want)
	}
}

// Only the newest results are kept.
func TestPlexSyncResultsAreTrimmed(t *testing.T) {
	ctx := context.Background()
	srv := plextest.New(t, plexToken)
	srv.SetDown(true)
	c, db := newCatalog(t)
	px := newPlexClient(t, srv.URL, plexToken)
	for range 53 {
		if _, err := c.SyncPlex(ctx, px, "3", content.PlexSyncCLI); err == nil {
			t.Fatal("a sync against a server that is down succeeded")
		}
	}
	var n, oldest int
	if err := db.Read.QueryRow(`SELECT count(*), min(id) FROM plex_syncs`).Scan(&n, &oldest); err != nil {
		t.Fatal(err)
	}
	if n != 50 || oldest != 4 {
		t.Errorf("%d results kept from id %d, want 50 from 4", n, oldest)
	}
}
