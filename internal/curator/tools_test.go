package curator_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"hearth/internal/agent"
	"hearth/internal/apperr"
	"hearth/internal/content"
	"hearth/internal/curator"
)

func TestFactoryNamesItsToolsAndStatus(t *testing.T) {
	inf := curator.Tools(connect(t, library(t)), nil).Info(context.Background())
	if inf.Name != "plex" || inf.Title != "Plex" || !inf.Configured || inf.Status != "" {
		t.Fatalf("info = %+v", inf)
	}
	want := "plex_search,plex_get_item,plex_list_contents,plex_create_collection,plex_find_duplicates,plex_bulk_label,plex_analyze_library"
	if got := strings.Join(inf.Tools, ","); got != want {
		t.Fatalf("tools = %s", got)
	}
}

func TestNotConfigured(t *testing.T) {
	f := curator.Tools(nil, nil)
	if inf := f.Info(context.Background()); inf.Configured || !strings.Contains(inf.Status, "Admin → Integrations") {
		t.Fatalf("info = %+v", inf)
	}
	box := toolbox(t, nil, nil)
	for name, args := range map[string]string{
		curator.ToolSearch: `{"query":"yoga","limit":null}`, curator.ToolGetItem: `{"id":"1"}`,
		curator.ToolListContents: `{"id":null,"offset":null,"limit":null}`, curator.ToolAnalyzeLibrary: `{}`,
		curator.ToolFindDuplicates: `{}`, curator.ToolBulkLabel: `{"label":"x","item_ids":["1"]}`,
		curator.ToolCreateCollection: `{"title":"x","item_ids":["1"]}`,
	} {
		if _, err := call[any](t, box, agent.Scope{}.WithStager(agent.NewStager()), name, args); !errors.Is(err, curator.ErrNotConfigured) {
			t.Errorf("%s: %v, want not configured", name, err)
		}
	}
}

func TestSearchAndGetItem(t *testing.T) {
	srv := library(t)
	box := toolbox(t, connect(t, srv), nil)
	got, err := call[curator.ItemList](t, box, agent.Scope{}, curator.ToolSearch, `{"query":"cool","limit":null}`)
	if err != nil {
		t.Fatal(err)
	}
	if got.Count != 2 || got.Items[0].ID != "301" || got.Items[1].ID != "303" || got.Items[0].DurationMin != 8 {
		t.Fatalf("search = %+v (401 is in the film section)", got)
	}
	it, err := call[curator.ItemDetail](t, box, agent.Scope{}, curator.ToolGetItem, `{"id":"303"}`)
	if err != nil || it.Title != "Hill Cool-down Walk" || strings.Join(it.Labels, ",") != "area:knee,family" || it.DurationMin != 15 {
		t.Fatalf("item = %+v %v", it, err)
	}
	if _, err := call[curator.ItemDetail](t, box, agent.Scope{}, curator.ToolGetItem, `{"id":"401"}`); !apperr.Is(err, apperr.Invalid) {
		t.Fatalf("another section's item: %v", err)
	}
	if _, err := call[curator.ItemDetail](t, box, agent.Scope{}, curator.ToolGetItem, `{"id":"999"}`); !apperr.Is(err, apperr.NotFound) || !strings.Contains(err.Error(), "plex_search") {
		t.Fatalf("unknown item: %v", err)
	}
}

func TestListContentsPagesWithTheTotal(t *testing.T) {
	box := toolbox(t, connect(t, library(t)), nil)
	got, err := call[curator.Contents](t, box, agent.Scope{}, curator.ToolListContents, `{"id":null,"offset":1,"limit":2}`)
	if err != nil {
		t.Fatal(err)
	}
	if got.Total != 5 || got.Offset != 1 || got.Shown != 2 || got.Items[0].ID != "302" || got.Items[1].ID != "303" || !strings.Contains(got.Note, "offset 3") {
		t.Fatalf("section = %+v", got)
	}
	coll, err := call[curator.Contents](t, box, agent.Scope{}, curator.ToolListContents, `{"id":"900","offset":null,"limit":null}`)
	if err != nil || coll.Total != 1 || coll.Items[0].ID != "302" || !strings.Contains(coll.Container, "Warm-ups") {
		t.Fatalf("collection = %+v %v", coll, err)
	}
	if _, err := call[curator.Contents](t, box, agent.Scope{}, curator.ToolListContents, `{"id":"301","offset":null,"limit":null}`); !apperr.Is(err, apperr.Invalid) {
		t.Fatalf("a movie lists nothing: %v", err)
	}
}

func TestAnalyzeReadsTheCatalogElsePlex(t *testing.T) {
	srv := library(t)
	box := toolbox(t, connect(t, srv), nil)
	a, err := call[curator.Analysis](t, box, agent.Scope{}, curator.ToolAnalyzeLibrary, `{}`)
	if err != nil {
		t.Fatal(err)
	}
	if a.Source != "plex" || a.Items != 5 || len(a.Duplicates) != 1 || strings.Join(a.Duplicates[0].IDs, ",") != "302,305" {
		t.Fatalf("analysis from plex = %+v", a)
	}
	// Synced into a real catalog, the catalog is read, with an admin's edit.
	db := newDB(t)
	cat := content.NewCatalog(db, nil)
	px, section, _ := connect(t, srv)(context.Background())
	if _, err := cat.SyncPlex(context.Background(), px, section, content.PlexSyncCLI); err != nil {
		t.Fatal(err)
	}
	srv.SetSections() // Plex is not read again: the catalog answers
	a, err = call[curator.Analysis](t, toolbox(t, connect(t, srv), cat), agent.Scope{}, curator.ToolAnalyzeLibrary, `{}`)
	if err != nil {
		t.Fatal(err)
	}
	if a.Source != "catalog" || a.Items != 5 || a.Areas["knee"] != 1 {
		t.Fatalf("analysis from the catalog = %+v", a)
	}
	if !strings.Contains(strings.Join(a.Gaps, "; "), "no warm-ups under 10 minutes") {
		t.Fatalf("gaps = %v", a.Gaps)
	}
	d, err := call[curator.DuplicateList](t, toolbox(t, connect(t, srv), cat), agent.Scope{}, curator.ToolFindDuplicates, `{}`)
	if err != nil || d.Duplicates != 1 || d.Checked != 5 || d.Groups[0].Title != "Morning Warm-up" {
		t.Fatalf("duplicates = %+v %v", d, err)
	}
}
