package content_test

import (
	"context"
	"errors"
	"net/url"
	"slices"
	"strings"
	"testing"

	"hearth/internal/apperr"
	"hearth/internal/content"
	"hearth/internal/content/plextest"
)

// curateServer is a movie section of workouts with labels, and a collection.
func curateServer(t *testing.T) (*plextest.Server, *content.PlexClient) {
	t.Helper()
	sec := plextest.Section{Key: "7", Title: "Workouts", Type: "movie", Top: []plextest.Item{
		{RatingKey: "301", Type: "movie", Title: "Cool-down Stretch", DurationMS: 480_000, Labels: []string{"intensity:low"}},
		{RatingKey: "302", Type: "movie", Title: "Morning Warm-up", DurationMS: 600_000},
		{RatingKey: "303", Type: "movie", Title: "Hill Cool-down Walk", DurationMS: 900_000, Labels: []string{"area:knee", "family"}},
	}}
	other := plextest.Section{Key: "8", Title: "Films", Type: "movie", Top: []plextest.Item{
		{RatingKey: "401", Type: "movie", Title: "Cool Runnings", DurationMS: 5_880_000},
	}}
	srv := plextest.New(t, plexToken, sec, other)
	srv.SetCollections(plextest.Collection{Key: "900", Section: "7", Title: "Warm-ups", Type: "movie", Items: []string{"302"}})
	px, err := content.NewPlexClient(srv.URL, plexToken, nil)
	if err != nil {
		t.Fatal(err)
	}
	return srv, px
}

func keysOf(mds []content.PlexMetadata) string {
	var out []string
	for _, md := range mds {
		out = append(out, string(md.RatingKey))
	}
	return strings.Join(out, ",")
}

func TestPlexSearchKeepsTheSectionsItems(t *testing.T) {
	srv, px := curateServer(t)
	got, err := px.Search(context.Background(), "cool", "7", 10)
	if err != nil {
		t.Fatal(err)
	}
	if keysOf(got) != "301,303" {
		t.Fatalf("search = %s, want 301,303 (401 is another section's)", keysOf(got))
	}
	r := srv.Requests()[0]
	q, _ := url.ParseQuery(r.Query)
	if r.Path != "/hubs/search" || q.Get("query") != "cool" || q.Get("sectionId") != "7" || q.Get("limit") != "10" ||
		r.Token != plexToken || r.TokenInURL != "" {
		t.Fatalf("request = %+v", r)
	}
	if _, err := px.Search(context.Background(), "  ", "7", 10); !apperr.Is(err, apperr.Invalid) {
		t.Fatalf("empty query: %v", err)
	}
}

func TestPlexItemReadsLabelsAndSection(t *testing.T) {
	_, px := curateServer(t)
	md, err := px.Item(context.Background(), "303")
	if err != nil {
		t.Fatal(err)
	}
	if md.Title != "Hill Cool-down Walk" || md.LibrarySectionID != "7" || !slices.Equal(md.Labels(), []string{"area:knee", "family"}) || md.Duration != 900_000 {
		t.Fatalf("item = %+v", md)
	}
	if _, err := px.Item(context.Background(), "999"); !apperr.Is(err, apperr.NotFound) {
		t.Fatalf("missing item: %v", err)
	}
}

func TestPlexCollectionsAndTheirItemsArePaged(t *testing.T) {
	srv, px := curateServer(t)
	srv.Set(func(s *plextest.Server) { s.PageCap = 1 })
	srv.SetCollections(
		plextest.Collection{Key: "900", Section: "7", Title: "Warm-ups", Type: "movie", Items: []string{"302"}},
		plextest.Collection{Key: "901", Section: "7", Title: "Cool-downs", Type: "movie", Items: []string{"301", "303"}},
		plextest.Collection{Key: "902", Section: "8", Title: "Classics", Type: "movie", Items: []string{"401"}})
	cs, ls, err := px.Collections(context.Background(), "7")
	if err != nil || keysOf(cs) != "900,901" || ls.Total != 2 || ls.Pages != 2 || cs[1].Title != "Cool-downs" || cs[1].ChildCount != 2 {
		t.Fatalf("collections = %+v %+v %v", cs, ls, err)
	}
	items, ls, err := px.CollectionItems(context.Background(), "901")
	if err != nil || keysOf(items) != "301,303" || ls.Pages != 2 {
		t.Fatalf("items = %s %+v %v", keysOf(items), ls, err)
	}
	if len(srv.Writes()) != 0 {
		t.Fatalf("reads wrote: %+v", srv.Writes())
	}
}

func TestPlexCreateCollectionSendsPythonPlexapisQuery(t *testing.T) {
	srv, px := curateServer(t)
	md, err := px.CreateCollection(context.Background(), "7", "Cool-downs", "movie", []string{"301", "303"})
	if err != nil {
		t.Fatal(err)
	}
	if md.Type != "collection" || md.Title != "Cool-downs" || md.RatingKey == "" {
		t.Fatalf("created = %+v", md)
	}
	w := srv.Writes()
	if len(w) != 1 || w[0].Method != "POST" || w[0].Path != "/library/collections" || w[0].Token != plexToken || w[0].TokenInURL != "" {
		t.Fatalf("writes = %+v", w)
	}
	q, _ := url.ParseQuery(w[0].Query)
	want := url.Values{"type": {"1"}, "title": {"Cool-downs"}, "smart": {"0"}, "sectionId": {"7"},
		"uri": {"server://abc123machine/com.plexapp.plugins.library/library/metadata/301,303"}}
	if q.Encode() != want.Encode() {
		t.Fatalf("query = %s, want %s", q.Encode(), want.Encode())
	}
	cs := srv.Collections()
	if len(cs) != 2 || cs[1].Title != "Cool-downs" || !slices.Equal(cs[1].Items, []string{"301", "303"}) {
		t.Fatalf("collections = %+v", cs)
	}
}

func TestPlexAddToCollection(t *testing.T) {
	srv, px := curateServer(t)
	if err := px.AddToCollection(context.Background(), "900", []string{"301"}); err != nil {
		t.Fatal(err)
	}
	w := srv.Writes()
	q, _ := url.ParseQuery(w[0].Query)
	if len(w) != 1 || w[0].Method != "PUT" || w[0].Path != "/library/collections/900/items" ||
		q.Get("uri") != "server://abc123machine/com.plexapp.plugins.library/library/metadata/301" {
		t.Fatalf("writes = %+v", w)
	}
	if cs := srv.Collections(); !slices.Equal(cs[0].Items, []string{"302", "301"}) {
		t.Fatalf("collection = %+v", cs[0])
	}
	if err := px.AddToCollection(context.Background(), "999", []string{"301"}); !apperr.Is(err, apperr.NotFound) {
		t.Fatalf("unknown collection: %v", err)
	}
}

func TestPlexSetLabelsSendsTheWholeSetLocked(t *testing.T) {
	srv, px := curateServer(t)
	if err := px.SetLabels(context.Background(), "7", "movie", []string{"303"}, []string{"area:knee", "family", "duration:medium"}); err != nil {
		t.Fatal(err)
	}
	w := srv.Writes()
	q, _ := url.ParseQuery(w[0].Query)
	want := url.Values{"type": {"1"}, "id": {"303"}, "label.locked": {"1"},
		"label[0].tag.tag": {"area:knee"}, "label[1].tag.tag": {"family"}, "label[2].tag.tag": {"duration:medium"}}
	if len(w) != 1 || w[0].Method != "PUT" || w[0].Path != "/library/sections/7/all" || q.Encode() != want.Encode() {
		t.Fatalf("writes = %+v", w)
	}
	if got := srv.Labels("303"); !slices.Equal(got, []string{"area:knee", "family", "duration:medium"}) {
		t.Fatalf("labels = %v", got)
	}
}

func TestPlexWritesRefuseBadArgumentsWithoutARequest(t *testing.T) {
	srv, px := curateServer(t)
	ctx := context.Background()
	errs := []error{
		px.SetLabels(ctx, "7", "collection", []string{"301"}, []string{"x"}),
		px.SetLabels(ctx, "7", "movie", nil, []string{"x"}),
		px.SetLabels(ctx, "7", "movie", []string{"30/1"}, []string{"x"}),
		px.AddToCollection(ctx, "9 0", []string{"301"}),
	}
	_, err := px.CreateCollection(ctx, "7", " ", "movie", []string{"301"})
	errs = append(errs, err)
	for i, err := range errs {
		if !apperr.Is(err, apperr.Invalid) {
			t.Errorf("%d: %v, want invalid", i, err)
		}
	}
	if len(srv.Requests()) != 0 {
		t.Fatalf("requests sent: %+v", srv.Requests())
	}
}

func TestPlexWriteErrorsKeepTheTokenOut(t *testing.T) {
	srv, _ := curateServer(t)
	bad, err := content.NewPlexClient(srv.URL, "wrong-"+plexToken, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = bad.SetLabels(context.Background(), "7", "movie", []string{"301"}, []string{"x"})
	if !errors.Is(err, content.ErrPlexUnauthorized) || strings.Contains(err.Error(), plexToken) {
		t.Fatalf("err = %v", err)
	}
}
