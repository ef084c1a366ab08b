package content_test

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"hearth/internal/apperr"
	"hearth/internal/content"
	"hearth/internal/content/plextest"
	"hearth/internal/store/storetest"
)

// syncedThumbs is a catalog synced from a fake Plex whose episodes have
// JPEG thumbs, and a thumbnail cache over it.
func syncedThumbs(t *testing.T, episodes int, picture func(i int) []byte) (*plextest.Server, *content.Catalog, *content.PlexClient, string) {
	t.Helper()
	sec := plextest.Library("3", "Fitness", 1, episodes)
	srv := plextest.New(t, plexToken, sec)
	for i, ep := range sec.Episodes {
		srv.SetImage(ep.Thumb, plextest.Image{ContentType: "image/jpeg", Body: picture(i)})
	}
	c, _ := newCatalog(t)
	px := newPlexClient(t, srv.URL, plexToken)
	if _, err := c.SyncPlex(context.Background(), px, "3", content.PlexSyncCLI); err != nil {
		t.Fatal(err)
	}
	return srv, c, px, t.TempDir()
}

func readThumb(t *testing.T, th *content.PlexThumbs, key string) ([]byte, content.ThumbFile) {
	t.Helper()
	f, err := th.Open(context.Background(), key)
	if err != nil {
		t.Fatalf("Open(%s): %v", key, err)
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	return b, f
}

func TestPlexThumbsFetchOnceWithTheTokenInAHeader(t *testing.T) {
	jpg := plextest.JPEG(64, 36)
	srv, c, px, dir := syncedThumbs(t, 2, func(int) []byte { return jpg })
	th, err := content.NewPlexThumbs(c, content.StaticPlex(px), dir, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		b, f := readThumb(t, th, "10000")
		if !bytes.Equal(b, jpg) || f.ContentType != "image/jpeg" || f.ETag == "" {
			t.Fatalf("thumb = %d bytes, %q, %q", len(b), f.ContentType, f.ETag)
		}
	}
	thumbPath := "/library/metadata/10000/thumb/1700000002"
	if n := srv.Count(thumbPath); n != 1 {
		t.Errorf("%d fetches from Plex, want 1 (then the cache)", n)
	}
	for _, r := range srv.Requests() {
		if r.Path == thumbPath && (r.Token != plexToken || r.TokenInURL != "" || strings.Contains(r.Query, plexToken)) {
			t.Errorf("thumb request %+v: the token belongs in the header only", r)
		}
	}
	// Only items in the catalog: anything else is not asked of Plex.
	before := len(srv.Requests())
	for _, key := range []string{"99999", "../../identity", "10000%2F..", ""} {
		if _, err := th.Open(context.Background(), key); !apperr.Is(err, apperr.NotFound) {
			t.Errorf("Open(%q) err = %v, want NotFound", key, err)
		}
	}
	if n := len(srv.Requests()); n != before {
		t.Errorf("unknown keys reached Plex: %v", srv.Requests()[before:])
	}
}

// Plex's answer must be the picture it says: HTML, SVG or a mislabelled
// body are refused and not kept.
func TestPlexThumbsRefuseWhatIsNotAPicture(t *testing.T) {
	srv, c, px, dir := syncedThumbs(t, 3, func(int) []byte { return plextest.JPEG(8, 8) })
	srv.SetImage("/library/metadata/10000/thumb/1700000002", plextest.Image{ContentType: "text/html", Body: []byte("<script>alert(1)</script>")})
	srv.SetImage("/library/metadata/10001/thumb/1700000002", plextest.Image{ContentType: "image/svg+xml", Body: []byte(`<svg onload="alert(1)"/>`)})
	srv.SetImage("/library/metadata/10002/thumb/1700000002", plextest.Image{ContentType: "image/jpeg", Body: []byte("<html>not a jpeg</html>")})
	th, err := content.NewPlexThumbs(c, content.StaticPlex(px), dir, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"10000", "10001", "10002"} {
		if _, err := th.Open(context.Background(), key); !apperr.Is(err, apperr.Unavailable) {
			t.Errorf("Open(%s) err = %v, want Unavailable", key, err)
		}
	}
	if files, _ := os.ReadDir(dir); len(files) != 0 || th.Used() != 0 {
		t.Errorf("cache holds %v (%d bytes)", files, th.Used())
	}
}

// The cache keeps at most its limit, dropping the least recently used
// picture first, and remembers its order across a restart.
func TestPlexThumbsEvictTheLeastRecentlyUsed(t *testing.T) {
	const size = 6 << 20            // four of these overflow the smallest cache (20 MiB)
	picture := func(i int) []byte { // a JPEG's bytes, padded to size
		b := append(plextest.JPEG(8, 8), bytes.Repeat([]byte{byte(i)}, size)...)
		return b[:size]
	}
	_, c, px, dir := syncedThumbs(t, 4, picture)
	th, err := content.NewPlexThumbs(c, content.StaticPlex(px), dir, content.MinThumbCacheBytes, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"10000", "10001", "10002", "10000", "10003"} { // 10001 is now the least recently used
		if b, _ := readThumb(t, th, key); !bytes.Equal(b, picture(int(key[4]-'0'))) {
			t.Fatalf("thumb %s differs", key)
		}
	}
	if th.Used() != 3*size {
		t.Errorf("cache holds %d bytes, want %d (three pictures)", th.Used(), 3*size)
	}
	if got := cachedSizes(t, dir); !slices.Equal(got, []int64{size, size, size}) {
		t.Errorf("files on disk: %v", got)
	}
	// After a restart the same three are there; 10001 comes back from Plex.
	th2, err := content.NewPlexThumbs(c, nil, dir, content.MinThumbCacheBytes, nil)
	if err != nil {
		t.Fatal(err)
	}
	if th2.Used() != 3*size {
		t.Errorf("after a restart the cache holds %d bytes", th2.Used())
	}
	for _, key := range []string{"10000", "10002", "10003"} {
		readThumb(t, th2, key) // no Plex configured: served from disk
	}
	if _, err := th2.Open(context.Background(), "10001"); !apperr.Is(err, apperr.Unavailable) {
		t.Errorf("evicted picture without Plex: err = %v, want Unavailable", err)
	}
}

// Plex down: pictures already cached still show; others are Unavailable.
func TestPlexThumbsWhenPlexIsDown(t *testing.T) {
	srv, c, px, dir := syncedThumbs(t, 2, func(int) []byte { return plextest.JPEG(16, 9) })
	th, err := content.NewPlexThumbs(c, content.StaticPlex(px), dir, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	readThumb(t, th, "10000")
	srv.SetDown(true)
	readThumb(t, th, "10000")
	_, err = th.Open(context.Background(), "10001")
	if !apperr.Is(err, apperr.Unavailable) || strings.Contains(err.Error(), plexToken) {
		t.Errorf("err = %v, want Unavailable without the token", err)
	}
	srv.SetDown(false)
	readThumb(t, th, "10001")
}

func cachedSizes(t *testing.T, dir string) []int64 {
	t.Helper()
	files, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []int64
	for _, f := range files {
		fi, err := os.Stat(filepath.Join(dir, f.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, fi.Size())
	}
	return out
}

// An episode without its own picture shows its show's (python-plexapi's
// thumbUrl falls back the same way); with no picture at all it gets its
// kind's static picture, not a /plex/thumb URL that could only fail.
func TestPlexItemPictureFallsBack(t *testing.T) {
	sec := plextest.Section{Key: "3", Title: "Fitness", Type: "show", Top: []plextest.Item{
		{RatingKey: "100", Type: "show", Title: "Flow", Thumb: "/library/metadata/100/thumb/1"},
		{RatingKey: "200", Type: "show", Title: "Bare"},
	}, Episodes: []plextest.Item{
		{RatingKey: "1", Type: "episode", Title: "Own", Show: "100", Season: 1, Index: 1, DurationMS: 60_000, Thumb: "/library/metadata/1/thumb/9"},
		{RatingKey: "2", Type: "episode", Title: "Show's", Show: "100", Season: 1, Index: 2, DurationMS: 60_000,
			GrandparentThumb: "/library/metadata/100/thumb/1"},
		{RatingKey: "3", Type: "episode", Title: "Yoga none", Show: "200", Season: 1, Index: 1, DurationMS: 60_000},
	}}
	srv := plextest.New(t, plexToken, sec)
	fetched, err := newPlexClient(t, srv.URL, plexToken).FetchSection(context.Background(), "3")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][2]string{
		"plex:1": {"/plex/thumb/1", "/library/metadata/1/thumb/9"},
		"plex:2": {"/plex/thumb/2", "/library/metadata/100/thumb/1"},
		"plex:3": {"/static/thumbs/yoga.svg", ""},
	}
	for _, it := range fetched.File.Items {
		if got := [2]string{it.Thumbnail, it.SourceThumb}; got != want[it.ID] {
			t.Errorf("%s: thumbnail %q, source %q; want %q", it.ID, got[0], got[1], want[it.ID])
		}
	}
}

// BenchmarkPlexThumbsCached is a cached picture's cost: the catalog
// lookup, the open and the read (the web layer adds the copy to the socket).
func BenchmarkPlexThumbsCached(b *testing.B) {
	jpg := plextest.JPEG(640, 360)
	sec := plextest.Library("3", "Fitness", 1, 1)
	srv := plextest.New(b, plexToken, sec)
	srv.SetImage(sec.Episodes[0].Thumb, plextest.Image{ContentType: "image/jpeg", Body: jpg})
	c := content.NewCatalog(storetest.Open(b), nil)
	px, err := content.NewPlexClient(srv.URL, plexToken, nil)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := c.SyncPlex(context.Background(), px, "3", content.PlexSyncCLI); err != nil {
		b.Fatal(err)
	}
	th, err := content.NewPlexThumbs(c, content.StaticPlex(px), b.TempDir(), 0, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(jpg)))
	for b.Loop() {
		f, err := th.Open(context.Background(), "10000")
		if err != nil {
			b.Fatal(err)
		}
		if _, err := io.Copy(io.Discard, f); err != nil {
			b.Fatal(err)
		}
		_ = f.Close()
	}
	if n := srv.Count(sec.Episodes[0].Thumb); n != 1 {
		b.Errorf("%d fetches", n)
	}
}

// The cache asks for a client on each fetch: Plex configured (or its
// token changed) after the cache was made is used from the next picture
// on, without a new cache.
func TestPlexThumbsAskForTheClientInForce(t *testing.T) {
	jpg := plextest.JPEG(16, 9)
	_, c, px, dir := syncedThumbs(t, 2, func(int) []byte { return jpg })
	var current *content.PlexClient // not configured yet
	th, err := content.NewPlexThumbs(c, func(ctx context.Context) (*content.PlexClient, error) {
		return content.StaticPlex(current)(ctx)
	}, dir, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := th.Open(context.Background(), "10000"); !apperr.Is(err, apperr.Unavailable) || !strings.Contains(err.Error(), "not configured") {
		t.Fatalf("before Plex is configured: %v, want Unavailable (not configured)", err)
	}
	current = px
	if b, _ := readThumb(t, th, "10000"); !bytes.Equal(b, jpg) {
		t.Fatal("the picture after Plex was configured differs")
	}
}
