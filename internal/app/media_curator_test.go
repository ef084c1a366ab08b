package app_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"hearth/internal/agent"
	"hearth/internal/agent/llm/llmtest"
	"hearth/internal/app"
	"hearth/internal/content/plextest"
	"hearth/internal/curator"
	"hearth/internal/proposals"
)

const plexToken = "plex-secret-token-4c1d"

// workoutPlex is a Plex server whose section 7 is a small workout library:
// a short cool-down, two warm-ups (one a duplicate), a long cool-down.
func workoutPlex(t *testing.T) *plextest.Server {
	return plextest.New(t, plexToken,
		plextest.Section{Key: "7", Title: "Workouts", Type: "movie", Top: []plextest.Item{
			{RatingKey: "301", Type: "movie", Title: "Cool-down Stretch", DurationMS: 480_000, Labels: []string{"intensity:low"}},
			{RatingKey: "302", Type: "movie", Title: "Morning Warm-up", DurationMS: 600_000},
			{RatingKey: "303", Type: "movie", Title: "Hill Cool-down Walk", DurationMS: 900_000, Labels: []string{"area:knee"}},
			{RatingKey: "304", Type: "movie", Title: "Iron HIIT", DurationMS: 1_800_000, Labels: []string{"intensity:high"}},
			{RatingKey: "305", Type: "movie", Title: "Morning warm-up", DurationMS: 620_000},
		}})
}

func curatorRun(t *testing.T, base string) agent.Run {
	t.Helper()
	resp, err := http.Post(base+"/api/agents/media-curator/run", "application/json",
		strings.NewReader(`{"member": "ada", "message": "Tidy up the workout library"}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var run agent.Run
	if resp.StatusCode != http.StatusOK || json.Unmarshal(b, &run) != nil {
		t.Fatalf("run the media curator: %d %s", resp.StatusCode, b)
	}
	return run
}

// TestMediaCuratorPreviewsThenApplies: a scripted model, run through the
// API as the seeded media curator, analyses the library and proposes a
// collection and a label. Plex receives no write; Admin → Curator lists
// exactly those two changes; a confirmation writes exactly them, and a
// retried confirmation writes nothing more.
func TestMediaCuratorPreviewsThenApplies(t *testing.T) {
	plex := workoutPlex(t)
	srv := llmtest.New(t)
	srv.Otherwise(func(r llmtest.Request) llmtest.Reply {
		last := r.LastMessage()
		switch {
		case last.Role != "tool":
			return llmtest.Tool(curator.ToolAnalyzeLibrary, map[string]any{})
		case strings.Contains(last.Content, `"gaps"`):
			return llmtest.Tool(curator.ToolCreateCollection, map[string]any{"title": "Cool-downs", "item_ids": []string{"301", "303"}})
		case strings.Contains(last.Content, "Cool-downs"):
			return llmtest.Tool(curator.ToolBulkLabel, map[string]any{"label": "duration:short", "item_ids": []string{"301"}})
		}
		return llmtest.Text("Proposed a Cool-downs collection and a duration label.", 5, 5)
	})
	run := homeApp(t, app.Config{OpenAIBaseURL: srv.URL(), OpenAIKey: "k", Model: "fake",
		PlexURL: plex.URL, PlexToken: plexToken, PlexSection: "7"})
	ctx := context.Background()

	if f := factoryInfo(t, run.url, curator.FactoryName); !f.Configured || len(f.Tools) != 7 {
		t.Fatalf("plex factory = %+v", f)
	}
	r := curatorRun(t, run.url)
	if r.Status != agent.StatusSucceeded {
		t.Fatalf("run %d: %s %s (%s)", r.ID, r.Status, r.Output, r.Error)
	}
	if got := callNames(r); !slices.Equal(got, []string{curator.ToolAnalyzeLibrary, curator.ToolCreateCollection, curator.ToolBulkLabel}) {
		t.Fatalf("tool calls %v", got)
	}
	if w := plex.Writes(); len(w) != 0 {
		t.Fatalf("Plex was written before confirmation: %+v", w)
	}
	list, err := run.app.Proposals.List(ctx, proposals.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Waiting) != 1 || list.Waiting[0].RunID != r.ID || len(list.Waiting[0].Items) != 2 {
		t.Fatalf("waiting = %+v", list.Waiting)
	}
	var summaries []string
	for _, p := range list.Waiting[0].Items {
		summaries = append(summaries, p.Summary+": "+strings.Join(p.Lines, ", "))
	}
	slices.Sort(summaries)
	want := []string{
		"Collection “Cool-downs” gets 2 items: Cool-down Stretch, Hill Cool-down Walk",
		"Label “duration:short” added to 1 item: Cool-down Stretch",
	}
	if !slices.Equal(summaries, want) {
		t.Fatalf("the preview lists\n%q\nwant\n%q", summaries, want)
	}
	page := adminPage(t, run.url+"/admin/curator")
	for _, s := range []string{"Collection “Cool-downs” gets 2 items", "Hill Cool-down Walk", "Label “duration:short” added to 1 item"} {
		if !strings.Contains(page, s) {
			t.Fatalf("Admin → Curator does not show %q", s)
		}
	}

	for _, p := range list.Waiting[0].Items {
		for range 2 { // a retried confirmation applies nothing twice
			rec, err := run.app.Proposals.Confirm(ctx, p.ID, "admin")
			if err != nil || rec.Status != proposals.StatusApplied {
				t.Fatalf("confirm %d: %+v, %v", p.ID, rec, err)
			}
		}
	}
	writes := plex.Writes()
	var paths []string
	for _, w := range writes {
		paths = append(paths, w.Method+" "+w.Path)
	}
	if !slices.Equal(paths, []string{"POST /library/collections", "PUT /library/sections/7/all"}) &&
		!slices.Equal(paths, []string{"PUT /library/sections/7/all", "POST /library/collections"}) {
		t.Fatalf("Plex received %v", paths)
	}
	cs := plex.Collections()
	if len(cs) != 1 || cs[0].Title != "Cool-downs" || !slices.Equal(cs[0].Items, []string{"301", "303"}) {
		t.Fatalf("collections = %+v", cs)
	}
	if got := plex.Labels("301"); !slices.Contains(got, "duration:short") || !slices.Contains(got, "intensity:low") {
		t.Fatalf("labels of 301 = %v", got)
	}
	for i, req := range srv.Requests() {
		if req.Contains(plexToken) {
			t.Fatalf("model request %d holds the Plex token", i)
		}
	}
}

// TestMediaCuratorWithoutAModel: the heuristic runs plex_analyze_library
// and answers with the gaps report; it proposes nothing.
func TestMediaCuratorWithoutAModel(t *testing.T) {
	plex := workoutPlex(t)
	run := homeApp(t, app.Config{PlexURL: plex.URL, PlexToken: plexToken, PlexSection: "7"})
	r := curatorRun(t, run.url)
	out := string(r.Output)
	if r.Status != agent.StatusSucceeded || !slices.Equal(callNames(r), []string{curator.ToolAnalyzeLibrary}) ||
		!strings.Contains(out, "language model") || !strings.Contains(strings.ToLower(out), "duplicate") {
		t.Fatalf("run: %s %s calls %v", r.Status, out, callNames(r))
	}
	if list, err := run.app.Proposals.List(context.Background(), proposals.Filter{}); err != nil || len(list.Waiting) != 0 {
		t.Fatalf("proposals: %+v, %v", list, err)
	}
	if len(plex.Writes()) != 0 {
		t.Fatal("the heuristic wrote to Plex")
	}
}

// adminPage GETs an admin page (a loopback client of a Hearth without an
// admin password or token is the admin) and returns its body.
func adminPage(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %s", url, resp.StatusCode, b)
	}
	return string(b)
}
