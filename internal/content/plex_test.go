package content_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"hearth/internal/apperr"
	"hearth/internal/content"
)

const plexToken = "s3cr3t-T0KEN-xyz"

// plexResponses are answers in Plex Media Server's JSON shape (trimmed, but
// with the extra fields a real server sends so decoding must tolerate them).
var plexResponses = map[string]string{
	"/identity": `{"MediaContainer":{"size":0,"apiVersion":"1.1.1","claimed":true,
		"machineIdentifier":"abc123machine","version":"1.40.0.7998-c29d4c0c8"}}`,
	"/library/sections": `{"MediaContainer":{"size":2,"allowSync":false,"title1":"Plex Library","Directory":[
		{"allowSync":true,"art":"/:/resources/show-fanart.jpg","key":"3","type":"show","title":"Fitness","agent":"tv.plex.agents.series","scanner":"Plex TV Series","language":"en-US","uuid":"u-3","updatedAt":1700000000},
		{"allowSync":true,"key":"1","type":"movie","title":"Movies","agent":"tv.plex.agents.movie","uuid":"u-1"}]}}`,
	"/library/sections/3/all": `{"MediaContainer":{"size":2,"allowSync":true,"art":"/:/resources/show-fanart.jpg",
		"identifier":"com.plexapp.plugins.library","librarySectionID":3,"librarySectionTitle":"Fitness",
		"librarySectionUUID":"u-3","mediaTagPrefix":"/system/bundle/media/flags/","mediaTagVersion":1700000000,
		"title1":"Fitness","viewGroup":"show","Metadata":[
		{"ratingKey":"100","key":"/library/metadata/100/children","guid":"plex://show/5d9c","type":"show",
		 "title":"Iron Forge Xtreme","summary":"Ninety days of hard work.","index":1,"year":2020,
		 "thumb":"/library/metadata/100/thumb/1700000001","art":"/library/metadata/100/art/1700000001",
		 "leafCount":5,"viewedLeafCount":0,"childCount":3,"addedAt":1700000000,"updatedAt":1700000001,
		 "Genre":[{"id":31,"filter":"genre=31","tag":"Fitness"}],
		 "Label":[{"id":41,"filter":"label=41","tag":"Intensity: High"},{"id":42,"filter":"label=42","tag":"area: knees, lower back"},
		  {"id":43,"filter":"label=43","tag":"family favourite"}]},
		{"ratingKey":"200","key":"/library/metadata/200/children","type":"show","title":"Sunrise Yoga",
		 "summary":"","thumb":"/library/metadata/200/thumb/1","leafCount":1,"childCount":1}]}}`,
	// All episodes of the section in one listing (type=4), as a server sends
	// them: in library order, each naming its show and season.
	"/library/sections/3/all?type=4": `{"MediaContainer":{"size":6,"totalSize":6,"offset":0,"allowSync":true,
		"identifier":"com.plexapp.plugins.library","librarySectionID":3,"librarySectionTitle":"Fitness",
		"mediaTagPrefix":"/system/bundle/media/flags/","title1":"Fitness","title2":"All Episodes","viewGroup":"episode","Metadata":[
		{"ratingKey":"1001","key":"/library/metadata/1001","parentRatingKey":"101","grandparentRatingKey":"100",
		 "type":"episode","title":"Plyometrics","grandparentTitle":"Iron Forge Xtreme","parentTitle":"Season 1",
		 "summary":"Jump training.","index":2,"parentIndex":1,"duration":3480000,
		 "Label":[{"id":44,"filter":"label=44","tag":"impact:high"},{"id":45,"filter":"label=45","tag":"area:ankle"}],
		 "thumb":"/library/metadata/1001/thumb/1700000002","addedAt":1700000000,
		 "Media":[{"id":5001,"duration":3480000,"videoResolution":"1080","Part":[{"id":6001,
		 "key":"/library/parts/6001/1700000000/file.mp4","duration":3480000,"file":"/media/fitness/x.mp4","size":123}]}]},
		{"ratingKey":"2001","key":"/library/metadata/2001","parentRatingKey":"201","grandparentRatingKey":"200","type":"episode",
		 "title":"Morning Flow","grandparentTitle":"Sunrise Yoga","index":1,"parentIndex":1,
		 "duration":1234567,"thumb":"/library/metadata/2001/thumb/9"},
		{"ratingKey":"1009","key":"/library/metadata/1009","parentRatingKey":"109","grandparentRatingKey":"100","type":"episode",
		 "title":"Ab Ripper X","grandparentTitle":"Iron Forge Xtreme","index":1,"parentIndex":0,"duration":1020000},
		{"ratingKey":"1000","key":"/library/metadata/1000","parentRatingKey":"101","grandparentRatingKey":"100","type":"episode",
		 "title":"Chest & Back","grandparentTitle":"Iron Forge Xtreme","summary":"Push-ups and pull-ups.","index":1,"parentIndex":1,
		 "duration":3600000,"thumb":"/library/metadata/1000/thumb/1700000002",
		 "Media":[{"id":5000,"duration":3600000,"Part":[{"id":6000,"key":"/library/parts/6000/1700000000/file.mp4"}]}]},
		{"ratingKey":"1004","key":"/library/metadata/1004","parentRatingKey":"102","grandparentRatingKey":"100","type":"episode",
		 "title":"Broken Episode","index":2,"parentIndex":2},
		{"ratingKey":"1003","key":"/library/metadata/1003","parentRatingKey":"102","grandparentRatingKey":"100","type":"episode",
		 "title":"Yoga X","index":1,"parentIndex":2,"Label":[{"tag":"intensity:low"},{"tag":"areas: none"}],
		 "thumb":"/library/metadata/1003/thumb/1","Media":[{"duration":5520000,"Part":[{"key":"/library/parts/6003/1/file.mkv"}]}]}]}}`,
}

// fakePlex serves plexResponses, demanding the token header.
type fakePlex struct {
	*httptest.Server
	mu    sync.Mutex
	paths []string
}

func newFakePlex(t *testing.T) *fakePlex {
	t.Helper()
	f := &fakePlex{}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := r.URL.Path
		if r.URL.RawQuery != "" {
			key += "?" + r.URL.RawQuery
		}
		f.mu.Lock()
		f.paths = append(f.paths, key)
		f.mu.Unlock()
		if strings.Contains(r.URL.RawQuery, plexToken) {
			t.Errorf("token sent in the URL query: %s", r.URL)
		}
		if r.Header.Get("X-Plex-Token") != plexToken {
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = io.WriteString(w, "<html><head><title>Unauthorized</title></head><body><h1>401 Unauthorized</h1></body></html>")
			return
		}
		if strings.HasPrefix(r.URL.Path, "/library/metadata/666/thumb/") {
			w.Header().Set("Content-Type", "text/html")
			_, _ = io.WriteString(w, "<script>alert(1)</script>")
			return
		}
		if strings.HasPrefix(r.URL.Path, "/library/metadata/1000/thumb/") {
			w.Header().Set("Content-Type", "image/jpeg")
			_, _ = io.WriteString(w, "JPEGDATA")
			return
		}
		body, ok := plexResponses[key]
		if !ok {
			http.NotFound(w, r)
			return
		}
		if r.Header.Get("Accept") != "application/json" {
			t.Errorf("Accept = %q", r.Header.Get("Accept"))
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, body)
	}))
	t.Cleanup(f.Close)
	return f
}

func newPlexClient(t *testing.T, base, token string) *content.PlexClient {
	t.Helper()
	px, err := content.NewPlexClient(base, token, nil)
	if err != nil {
		t.Fatal(err)
	}
	return px
}

func TestPlexFetchSectionMapping(t *testing.T) {
	srv := newFakePlex(t)
	px := newPlexClient(t, srv.URL+"/", plexToken)
	fetched, err := px.FetchSection(context.Background(), "3")
	if err != nil {
		t.Fatalf("FetchSection: %v", err)
	}
	f := fetched.File
	// Three requests, whatever the number of shows and seasons.
	if want := []string{"/identity", "/library/sections/3/all", "/library/sections/3/all?type=4"}; !slices.Equal(srv.paths, want) {
		t.Errorf("requests %q, want %q", srv.paths, want)
	}
	if want := []string{`"Broken Episode" (1004)`}; !slices.Equal(fetched.Skipped, want) || fetched.Seen != 6 || fetched.Title != "Fitness" {
		t.Errorf("skipped %q, seen %d, title %q; want %q (the episode without duration), 6, Fitness", fetched.Skipped, fetched.Seen, fetched.Title, want)
	}
	type row struct {
		id, title, program string
		day, dur           int
		kind               string
	}
	var got []row
	for _, it := range f.Items {
		got = append(got, row{it.ID, it.Title, it.Program, it.Day, it.DurationMin, it.Kind})
	}
	want := []row{
		{"plex:1000", "Chest & Back", "plex-iron-forge-xtreme", 1, 60, "main"},
		{"plex:1001", "Plyometrics", "plex-iron-forge-xtreme", 2, 58, "hiit"},
		{"plex:1003", "Yoga X", "plex-iron-forge-xtreme", 3, 92, "yoga"},      // duration from Media
		{"plex:1009", "Ab Ripper X", "plex-iron-forge-xtreme", 0, 17, "core"}, // special: no day
		{"plex:2001", "Morning Flow", "plex-sunrise-yoga", 1, 21, "yoga"},     // 1234567 ms rounds to 21; kind from the show
	}
	if len(got) != len(want) {
		t.Fatalf("items = %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("item %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	if len(f.Programs) != 2 {
		t.Fatalf("programs = %+v", f.Programs)
	}
	p := f.Programs[0]
	if p.ID != "plex-iron-forge-xtreme" || p.Title != "Iron Forge Xtreme" || p.Description != "Ninety days of hard work." {
		t.Errorf("program = %+v", p)
	}
	wantDays := []content.Day{{Day: 1, ContentID: "plex:1000"}, {Day: 2, ContentID: "plex:1001"}, {Day: 3, ContentID: "plex:1003"}}
	if len(p.Days) != 3 || p.Days[0] != wantDays[0] || p.Days[1] != wantDays[1] || p.Days[2] != wantDays[2] {
		t.Errorf("days = %+v", p.Days)
	}

	first := f.Items[0]
	if first.Thumbnail != content.PlexThumbPrefix+"1000" || first.SourceThumb != "/library/metadata/1000/thumb/1700000002" {
		t.Errorf("thumbs = %q, %q", first.Thumbnail, first.SourceThumb)
	}
	if first.MediaPath != "/library/parts/6000/1700000000/file.mp4" {
		t.Errorf("media path = %q", first.MediaPath)
	}
	wantPlay := srv.URL + "/web/index.html#!/server/abc123machine/details?key=%2Flibrary%2Fmetadata%2F1000"
	if first.PlayURL != wantPlay {
		t.Errorf("play URL = %q, want %q", first.PlayURL, wantPlay)
	}
	// Labels set the metadata: the episode's own, else the show's, field
	// by field; other labels are ignored, and nothing stated stays unset.
	type meta struct {
		intensity, impact string
		areas             []string
	}
	for id, want := range map[string]meta{
		"plex:1000": {"high", "", []string{"back", "knee"}}, // all from the show
		"plex:1001": {"high", "high", []string{"ankle"}},    // impact and areas its own
		"plex:1003": {"low", "", []string{}},                // "areas: none" states none
		"plex:2001": {"", "", nil},                          // no labels anywhere
	} {
		for _, it := range f.Items {
			if it.ID == id && (it.Intensity != want.intensity || it.Impact != want.impact || !slices.Equal(it.Areas, want.areas) ||
				(it.Areas == nil) != (want.areas == nil)) {
				t.Errorf("%s metadata = %q %q %#v, want %+v", id, it.Intensity, it.Impact, it.Areas, want)
			}
		}
	}
	// Nothing a page could render carries the token.
	all, _ := json.Marshal(f)
	if strings.Contains(string(all), plexToken) || strings.Contains(first.SourceThumb+first.MediaPath, plexToken) {
		t.Error("token leaked into catalog items")
	}
}

func TestPlexUnauthorized(t *testing.T) {
	srv := newFakePlex(t)
	bad := "wrong-" + plexToken
	px := newPlexClient(t, srv.URL, bad)
	_, err := px.FetchSection(context.Background(), "3")
	if err == nil {
		t.Fatal("FetchSection with a bad token succeeded")
	}
	if !errors.Is(err, content.ErrPlexUnauthorized) || !apperr.Is(err, apperr.Invalid) {
		t.Errorf("err = %v, want ErrPlexUnauthorized / Invalid", err)
	}
	var ae *apperr.Error
	if !asAppErr(err, &ae) || !strings.Contains(ae.Message, "Plex rejected the token (HTTP 401)") || !strings.Contains(ae.Message, "PLEX_TOKEN") {
		t.Errorf("message = %v", err)
	}
	if strings.Contains(err.Error(), bad) || strings.Contains(err.Error(), plexToken) {
		t.Errorf("error leaks the token: %v", err)
	}
}

func TestPlexErrorsDoNotLeakToken(t *testing.T) {
	srv := newFakePlex(t)
	px := newPlexClient(t, srv.URL, plexToken)
	ctx := context.Background()
	if _, _, err := px.Children(ctx, "999"); !apperr.Is(err, apperr.NotFound) || strings.Contains(err.Error(), plexToken) {
		t.Errorf("404 err = %v", err)
	}
	if _, _, err := px.Children(ctx, "../../etc"); !apperr.Is(err, apperr.Invalid) {
		t.Errorf("bad key err = %v", err)
	}
	down := httptest.NewServer(http.NotFoundHandler())
	down.Close()
	pxDown := newPlexClient(t, down.URL, plexToken)
	_, err := pxDown.Sections(ctx)
	if err == nil || strings.Contains(err.Error(), plexToken) {
		t.Errorf("transport err = %v", err)
	}
	var logged strings.Builder
	slog.New(slog.NewTextHandler(&logged, nil)).Info("sync", "plex", px)
	if strings.Contains(logged.String(), plexToken) || !strings.Contains(logged.String(), "plex.url="+srv.URL) {
		t.Errorf("log line = %s", logged.String())
	}
}

func TestPlexDoesNotFollowRedirects(t *testing.T) {
	var leaked bool
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Plex-Token") != "" {
			leaked = true
		}
	}))
	defer other.Close()
	redirect := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+r.URL.Path, http.StatusFound)
	}))
	defer redirect.Close()
	px := newPlexClient(t, redirect.URL, plexToken)
	if _, err := px.Identity(context.Background()); err == nil || !strings.Contains(err.Error(), "302") {
		t.Errorf("err = %v, want an unexpected-302 error", err)
	}
	if leaked {
		t.Error("token followed a redirect to another host")
	}
}

func TestPlexSectionsThumbAndAuthorizedURL(t *testing.T) {
	srv := newFakePlex(t)
	px := newPlexClient(t, srv.URL, plexToken)
	ctx := context.Background()
	secs, err := px.Sections(ctx)
	if err != nil || len(secs) != 2 || secs[0] != (content.PlexSection{Key: "3", Title: "Fitness", Type: "show"}) {
		t.Fatalf("Sections = %+v, %v", secs, err)
	}
	body, ctype, err := px.OpenThumb(ctx, "/library/metadata/1000/thumb/1700000002")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(body)
	_ = body.Close()
	if string(b) != "JPEGDATA" || ctype != "image/jpeg" {
		t.Errorf("thumb = %q %q", b, ctype)
	}
	if _, _, err := px.OpenThumb(ctx, "/library/metadata/666/thumb/1"); err == nil || !strings.Contains(err.Error(), "not a raster image") {
		t.Errorf("OpenThumb(html answer) err = %v", err)
	}
	for _, bad := range []string{"/etc/passwd", "/library/../identity", "/library/x?X-Plex-Token=1", "http://evil/library/"} {
		if _, _, err := px.OpenThumb(ctx, bad); !apperr.Is(err, apperr.Invalid) {
			t.Errorf("OpenThumb(%q) err = %v", bad, err)
		}
	}
	if got, want := px.AuthorizedURL("/library/metadata/1/thumb/2"), srv.URL+"/library/metadata/1/thumb/2?X-Plex-Token="+plexToken; got != want {
		t.Errorf("AuthorizedURL = %q, want %q", got, want)
	}
}

func TestNewPlexClientValidates(t *testing.T) {
	for _, tc := range []struct{ url, token string }{
		{"", "t"}, {"ftp://host", "t"}, {"http://", "t"}, {"http://host:32400", " "},
		{"http://host:32400/?X-Plex-Token=abc", "t"}, {"http://user:pw@host:32400", "t"},
	} {
		if _, err := content.NewPlexClient(tc.url, tc.token, nil); !apperr.Is(err, apperr.Invalid) {
			t.Errorf("NewPlexClient(%q, %q) err = %v", tc.url, tc.token, err)
		}
	}
}

func TestSyncPlex(t *testing.T) {
	ctx := context.Background()
	srv := newFakePlex(t)
	c, _ := newCatalog(t)
	sum, err := c.SyncPlex(ctx, newPlexClient(t, srv.URL, plexToken), "3", content.PlexSyncCLI)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Added != 5 || sum.ProgramsAdded != 2 || sum.Skipped != 1 || sum.Seen != 6 || !sum.OK() {
		t.Fatalf("summary = %+v", sum)
	}
	d, err := c.ProgramDay(ctx, "plex-iron-forge-xtreme", 2)
	if err != nil || d.Item == nil || d.Item.Title != "Plyometrics" || d.Item.Source != content.SourcePlex || d.TotalDays != 3 {
		t.Fatalf("ProgramDay = %+v, %v", d, err)
	}
	it, err := c.Get(ctx, "plex:1000")
	if err != nil || it.SourceThumb == "" || it.MediaPath == "" {
		t.Errorf("stored plex item = %+v, %v", it, err)
	}
	again, err := c.SyncPlex(ctx, newPlexClient(t, srv.URL, plexToken), "3", content.PlexSyncCLI)
	if err != nil || again.Added+again.Updated+again.ProgramsAdded+again.ProgramsUpdated != 0 || again.Unchanged != 5 {
		t.Errorf("re-sync = %+v, %v; want unchanged", again, err)
	}

	// A rejected token imports nothing.
	c2, db2 := newCatalog(t)
	if _, err := c2.SyncPlex(ctx, newPlexClient(t, srv.URL, "nope"), "3", content.PlexSyncCLI); !errors.Is(err, content.ErrPlexUnauthorized) {
		t.Errorf("err = %v", err)
	}
	if got := tableCounts(t, db2); got != [3]int{} {
		t.Errorf("rows after failed sync = %v", got)
	}
}
