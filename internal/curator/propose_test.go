package curator_test

import (
	"context"
	"net/url"
	"slices"
	"strings"
	"testing"

	"hearth/internal/agent"
	"hearth/internal/apperr"
	"hearth/internal/content/plextest"
	"hearth/internal/curator"
)

// writes renders the fake's write requests as "METHOD path query".
func writes(srv *plextest.Server) []string {
	var out []string
	for _, w := range srv.Writes() {
		q, _ := url.ParseQuery(w.Query)
		out = append(out, w.Method+" "+w.Path+" "+q.Encode())
	}
	return out
}

func uri(keys string) string {
	return url.QueryEscape("server://abc123machine/com.plexapp.plugins.library/library/metadata/" + keys)
}

// A proposed collection is staged, not written; confirmed, it is written
// once: exactly the expected request, and a retried confirmation writes
// nothing.
func TestCreateCollectionIsProposedThenAppliedOnce(t *testing.T) {
	srv := library(t)
	conn := connect(t, srv)
	db := newDB(t)
	st := agent.NewStager()
	res, err := call[curator.ProposalResult](t, toolbox(t, conn, nil), agent.Scope{AgentID: "media-curator"}.WithStager(st),
		curator.ToolCreateCollection, `{"title":" Cool-downs ","item_ids":["303","301","303"]}`)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != curator.Proposed || res.Summary != "Collection “Cool-downs” gets 2 items" {
		t.Fatalf("result = %+v", res)
	}
	if w := srv.Writes(); len(w) != 0 {
		t.Fatalf("written before confirmation: %v", writes(srv))
	}
	props := commit(t, db, st)
	if len(props) != 1 || props[0].Kind != curator.KindCollection || props[0].Summary != res.Summary ||
		strings.Join(props[0].Lines, "|") != "Hill Cool-down Walk|Cool-down Stretch" ||
		string(props[0].Payload) != `{"section":"7","title":"Cool-downs","type":"movie","keys":["303","301"]}` {
		t.Fatalf("proposals = %+v", props)
	}
	if len(srv.Writes()) != 0 {
		t.Fatalf("written by the commit: %v", writes(srv))
	}

	apply := curator.Appliers(conn)[curator.KindCollection]
	got, err := apply(context.Background(), props[0].Payload)
	if err != nil || got != "created collection “Cool-downs” with 2 items" {
		t.Fatalf("apply = %q %v", got, err)
	}
	want := []string{"POST /library/collections sectionId=7&smart=0&title=Cool-downs&type=1&uri=" + uri("303,301")}
	if w := writes(srv); !slices.Equal(w, want) {
		t.Fatalf("writes = %q\nwant %q", w, want)
	}
	got, err = apply(context.Background(), props[0].Payload)
	if err != nil || !strings.Contains(got, "nothing written") {
		t.Fatalf("second apply = %q %v", got, err)
	}
	if w := writes(srv); len(w) != 1 {
		t.Fatalf("a retried confirmation wrote again: %q", w)
	}
}

// An existing collection (by title, any case) gets only the items it lacks.
func TestCollectionProposalForAnExistingCollectionAddsTheMissingItems(t *testing.T) {
	srv := library(t)
	conn := connect(t, srv)
	db := newDB(t)
	st := agent.NewStager()
	res, err := call[curator.ProposalResult](t, toolbox(t, conn, nil), agent.Scope{}.WithStager(st),
		curator.ToolCreateCollection, `{"title":"warm-ups","item_ids":["302","305"]}`)
	if err != nil {
		t.Fatal(err)
	}
	if res.Summary != "Collection “Warm-ups” (it exists) gets 1 item more" || len(res.Skipped) != 1 {
		t.Fatalf("result = %+v", res)
	}
	props := commit(t, db, st)
	apply := curator.Appliers(conn)[curator.KindCollection]
	// An admin adds 305 by hand before confirming: nothing is left to write.
	srv.SetCollections(plextest.Collection{Key: "900", Section: "7", Title: "Warm-ups", Type: "movie", Items: []string{"302"}})
	if got, err := apply(context.Background(), props[0].Payload); err != nil || got != "added 1 item to collection “Warm-ups”" {
		t.Fatalf("apply = %q %v", got, err)
	}
	if w := writes(srv); !slices.Equal(w, []string{"PUT /library/collections/900/items uri=" + uri("305")}) {
		t.Fatalf("writes = %q", w)
	}
	if got, _ := apply(context.Background(), props[0].Payload); !strings.Contains(got, "nothing written") || len(srv.Writes()) != 1 {
		t.Fatalf("retry = %q, writes %q", got, writes(srv))
	}
	if _, err := call[curator.ProposalResult](t, toolbox(t, conn, nil), agent.Scope{}.WithStager(agent.NewStager()),
		curator.ToolCreateCollection, `{"title":"Warm-ups","item_ids":["302","305"]}`); !apperr.Is(err, apperr.Invalid) {
		t.Fatalf("nothing left to propose: %v", err)
	}
}

// Labels: staged for the items that lack the label (303 has it);
// applied with each item's other labels kept; a retry writes nothing.
func TestBulkLabelIsProposedThenAppliedOnce(t *testing.T) {
	srv := library(t)
	conn := connect(t, srv)
	db := newDB(t)
	st := agent.NewStager()
	res, err := call[curator.ProposalResult](t, toolbox(t, conn, nil), agent.Scope{}.WithStager(st),
		curator.ToolBulkLabel, `{"label":"area:knee","item_ids":["301","302","303","304"]}`)
	if err != nil {
		t.Fatal(err)
	}
	if res.Summary != "Label “area:knee” added to 3 items" || len(res.Skipped) != 1 || len(srv.Writes()) != 0 {
		t.Fatalf("result = %+v, writes %q", res, writes(srv))
	}
	props := commit(t, db, st)
	if len(props) != 1 || props[0].Kind != curator.KindLabel || string(props[0].Payload) != `{"section":"7","label":"area:knee","keys":["301","302","304"]}` ||
		strings.Join(props[0].Lines, "|") != "Cool-down Stretch|Morning Warm-up|Iron HIIT" {
		t.Fatalf("proposals = %+v", props)
	}
	apply := curator.Appliers(conn)[curator.KindLabel]
	got, err := apply(context.Background(), props[0].Payload)
	if err != nil || got != "added label “area:knee” to 3 items that lacked it" {
		t.Fatalf("apply = %q %v", got, err)
	}
	// One request per set of current labels: 301 keeps intensity:low, 304 intensity:high.
	want := []string{
		"PUT /library/sections/7/all id=301&label.locked=1&label%5B0%5D.tag.tag=intensity%3Alow&label%5B1%5D.tag.tag=area%3Aknee&type=1",
		"PUT /library/sections/7/all id=302&label.locked=1&label%5B0%5D.tag.tag=area%3Aknee&type=1",
		"PUT /library/sections/7/all id=304&label.locked=1&label%5B0%5D.tag.tag=intensity%3Ahigh&label%5B1%5D.tag.tag=area%3Aknee&type=1",
	}
	if w := writes(srv); !slices.Equal(w, want) {
		t.Fatalf("writes = %q\nwant %q", w, want)
	}
	if l := srv.Labels("301"); !slices.Equal(l, []string{"intensity:low", "area:knee"}) {
		t.Fatalf("301's labels = %v", l)
	}
	got, err = apply(context.Background(), props[0].Payload)
	if err != nil || got != "label “area:knee”: nothing written (3 already had it)" || len(srv.Writes()) != 3 {
		t.Fatalf("retry = %q %v, writes %q", got, err, writes(srv))
	}
}

func TestWriteToolsRefuseBadProposals(t *testing.T) {
	srv := library(t)
	box := toolbox(t, connect(t, srv), nil)
	scope := agent.Scope{}.WithStager(agent.NewStager())
	cases := []struct{ tool, args, want string }{
		{curator.ToolBulkLabel, `{"label":"area:kneee","item_ids":["301"]}`, "area is one of"},
		{curator.ToolBulkLabel, `{"label":"duration:tiny","item_ids":["301"]}`, "short, medium, long"},
		{curator.ToolBulkLabel, `{"label":"<b>x</b>","item_ids":["301"]}`, "a label is"},
		{curator.ToolBulkLabel, `{"label":"family","item_ids":["303"]}`, "already has label"},
		{curator.ToolBulkLabel, `{"label":"family","item_ids":["401"]}`, "another Plex library section"},
		{curator.ToolBulkLabel, `{"label":"family","item_ids":["999"]}`, "no item 999"},
		{curator.ToolCreateCollection, `{"title":"Films","item_ids":["900"]}`, "is a collection"},
		{curator.ToolCreateCollection, `{"title":"a\u0007b","item_ids":["301"]}`, "one line"},
	}
	for _, c := range cases {
		if _, err := call[any](t, box, scope, c.tool, c.args); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %s: %v, want %q", c.tool, c.args, err, c.want)
		}
	}
	// Outside a run there is no stager: nothing is proposed, nothing written.
	if _, err := call[any](t, box, agent.Scope{}, curator.ToolBulkLabel, `{"label":"family","item_ids":["301"]}`); err == nil {
		t.Fatal("proposed outside a run")
	}
	if len(srv.Writes()) != 0 {
		t.Fatalf("writes = %q", writes(srv))
	}
}

func TestAppliersRefuseAProposalForAnotherSection(t *testing.T) {
	srv := library(t)
	apply := curator.Appliers(connect(t, srv))[curator.KindLabel]
	if _, err := apply(context.Background(), []byte(`{"section":"8","label":"x","keys":["401"]}`)); !apperr.Is(err, apperr.Invalid) {
		t.Fatalf("err = %v", err)
	}
	if _, err := curator.Appliers(nil)[curator.KindCollection](context.Background(), []byte(`{"section":"7","title":"x","type":"movie","keys":["1"]}`)); err == nil {
		t.Fatal("applied without Plex")
	}
	if len(srv.Writes()) != 0 {
		t.Fatalf("writes = %q", writes(srv))
	}
}
