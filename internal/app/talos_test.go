package app_test

import (
	"context"
	"io"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"hearth/internal/agent/llm/llmtest"
	"hearth/internal/app"
	"hearth/internal/content/plextest"
	"hearth/internal/health"
	"hearth/internal/homeassistant/hatest"
	"hearth/internal/talos"
)

// settable is a test clock the app reads (Options.Now).
type settable struct {
	mu sync.Mutex
	t  time.Time
}

func (c *settable) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *settable) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t
}
func (c *settable) Add(d time.Duration) { c.Set(c.Now().Add(d)) }

// talosHome is fakeHome with a front door lock and the living room TV.
func talosHome(t *testing.T) *hatest.Server {
	ha := fakeHome(t)
	ha.Add(hatest.Entity{ID: "lock.front_door", Name: "Front door", State: "locked"})
	ha.Add(hatest.Entity{ID: "media_player.living_room_tv", Name: "Living room TV", State: "off", Area: "living_room"})
	return ha
}

// talosApp is a Hearth on clk (10:00 UTC) with the test household plus
// Kit, a child.
func talosApp(t *testing.T, cfg app.Config, clk *settable) *running {
	t.Helper()
	dir := t.TempDir()
	cfg.Addr, cfg.DataDir, cfg.DBPath, cfg.Location, cfg.KioskIdle = "127.0.0.1:0", dir, filepath.Join(dir, "hearth.db"), time.UTC, 10*time.Minute
	if clk.Now().IsZero() {
		clk.Set(time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC))
	}
	run := startAppWith(t, cfg, app.Options{Now: clk.Now})
	seed(t, run.app)
	if _, err := run.app.DB.CreateMember(context.Background(), health.Member{ID: "kit", Name: "Kit", Color: "#81b29a", Avatar: "K",
		Role: health.RoleChild}); err != nil {
		t.Fatal(err)
	}
	return run
}

// talosSay sends message to Talos as member over the threads API and
// returns the answer.
func talosSay(t *testing.T, base, member, message string) string {
	t.Helper()
	code, answer := chatTurnAs(t, base, "talos", member, message)
	if code != http.StatusOK {
		t.Fatalf("say %q: %d %s", message, code, answer)
	}
	return answer
}

func decisions(t *testing.T, a *app.App, f talos.Filter) []talos.Record {
	t.Helper()
	rs, err := a.Policies.Decisions(context.Background(), f)
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

// TestTalosChildAndAdultThroughThePolicy: without a model, a child turns
// on a light they may use; a child's "unlock the front door" is refused
// with its rule and nothing reaches Home Assistant; an adult's waits for
// a confirmation, happens once an adult confirms, and a second one times
// out to a refusal when nobody answers in two minutes.
func TestTalosChildAndAdultThroughThePolicy(t *testing.T) {
	ha := talosHome(t)
	clk := &settable{}
	run := talosApp(t, app.Config{HAURL: ha.URL(), HAToken: haToken}, clk)
	ctx := context.Background()

	if got := talosSay(t, run.url, "kit", "Turn on the living room lamp"); !strings.Contains(got, "Turned on") {
		t.Fatalf("child's light: %q", got)
	}
	if calls := ha.Calls(); len(calls) != 1 || calls[0].Service != "turn_on" || calls[0].Data["entity_id"] != "light.living_room_lamp" {
		t.Fatalf("Home Assistant received %+v", calls)
	}

	got := talosSay(t, run.url, "kit", "Unlock the front door")
	if !strings.Contains(got, "can't") {
		t.Fatalf("child's unlock answered %q", got)
	}
	if calls := ha.Calls(); len(calls) != 1 {
		t.Fatalf("a child's unlock reached Home Assistant: %+v", calls)
	}
	if ds := decisions(t, run.app, talos.Filter{Member: "kit"}); len(ds) != 2 || ds[0].Outcome != talos.Denied ||
		ds[0].Rule != "child.entities" || ds[0].Target != "lock.front_door" || ds[1].Outcome != talos.Allowed {
		t.Fatalf("kit's decisions: %+v", ds)
	}

	got = talosSay(t, run.url, "ada", "Unlock the front door")
	if !strings.Contains(got, "Unlock the front door?") || !strings.Contains(got, "Ada") {
		t.Fatalf("adult's unlock answered %q", got)
	}
	if len(ha.Calls()) != 1 {
		t.Fatalf("the unlock happened before anyone confirmed: %+v", ha.Calls())
	}
	waiting := decisions(t, run.app, talos.Filter{Outcome: talos.Waiting})
	if len(waiting) != 1 || waiting[0].Rule != "adult.confirm" || waiting[0].Target != "lock.front_door" || waiting[0].Workflow == nil {
		t.Fatalf("waiting = %+v", waiting)
	}
	if _, err := run.app.TalosConfirm.Answer(ctx, waiting[0].ID, talos.AnswerConfirm, "kit"); err == nil {
		t.Fatal("a child confirmed an unlock")
	}
	rec, err := run.app.TalosConfirm.Answer(ctx, waiting[0].ID, talos.AnswerConfirm, "ada")
	if err != nil {
		t.Fatal(err)
	}
	if rec.Outcome != talos.Confirmed || rec.DecidedBy != "ada" || !strings.Contains(rec.Result, "lock.unlock") {
		t.Fatalf("confirmed = %+v", rec)
	}
	if calls := ha.Calls(); len(calls) != 2 || calls[1].Service != "unlock" || calls[1].Data["entity_id"] != "lock.front_door" {
		t.Fatalf("Home Assistant received %+v", calls)
	}
	if _, err := run.app.TalosConfirm.Answer(ctx, waiting[0].ID, talos.AnswerConfirm, "ada"); err == nil {
		t.Fatal("a confirmation was answered twice")
	}

	// Nobody answers the next one: two minutes on, it is refused.
	talosSay(t, run.url, "ada", "Lock the front door")
	waiting = decisions(t, run.app, talos.Filter{Outcome: talos.Waiting})
	if len(waiting) != 1 {
		t.Fatalf("waiting = %+v", waiting)
	}
	clk.Add(talos.ConfirmWithin - time.Second)
	if n, err := run.app.TalosConfirm.Expire(ctx); err != nil || n != 0 {
		t.Fatalf("expired early: %d %v", n, err)
	}
	clk.Add(time.Second)
	if n, err := run.app.TalosConfirm.Expire(ctx); err != nil || n != 1 {
		t.Fatalf("expire: %d %v", n, err)
	}
	if rec, _ := run.app.Policies.Decision(ctx, waiting[0].ID); rec.Outcome != talos.TimedOut {
		t.Fatalf("after two minutes: %+v", rec)
	}
	if _, err := run.app.TalosConfirm.Answer(ctx, waiting[0].ID, talos.AnswerConfirm, "ada"); err == nil {
		t.Fatal("a timed-out request was confirmed")
	}
	if len(ha.Calls()) != 2 {
		t.Fatalf("a timed-out lock reached Home Assistant: %+v", ha.Calls())
	}
}

// TestTalosRefusesAForbiddenToolAtExecution: the model is offered only
// the tools the child's policy allows, and a call it makes anyway (a tool
// it was not offered, an entity the child may not use) is refused when it
// executes, recorded with its rule, and reaches nothing. Quiet hours
// refuse the TV at 23:00.
func TestTalosRefusesAForbiddenToolAtExecution(t *testing.T) {
	ha := talosHome(t)
	var mu sync.Mutex
	var offered [][]string
	var results []string
	next := map[string]llmtest.Reply{
		"unlock": llmtest.Tool("home_call_service", map[string]any{"domain": "lock", "service": "unlock", "entity_id": "lock.front_door", "data": nil}),
		"tv":     llmtest.Tool("home_call_service", map[string]any{"domain": "media_player", "service": "turn_on", "entity_id": "media_player.living_room_tv", "data": nil}),
		"smuggle": llmtest.Tool("home_call_service", map[string]any{"domain": "light", "service": "turn_on", "entity_id": "light.kitchen",
			"data": map[string]any{"entity_id": "lock.front_door"}}),
	}
	srv := llmtest.New(t)
	srv.Otherwise(func(r llmtest.Request) llmtest.Reply {
		mu.Lock()
		defer mu.Unlock()
		last := r.LastMessage()
		if last.Role == "tool" {
			results = append(results, last.Content)
			return llmtest.Text("Done or not: "+last.Content[:min(len(last.Content), 60)], 5, 5)
		}
		offered = append(offered, r.ToolNames())
		for k, rep := range next {
			if strings.Contains(last.Content, k) {
				return rep
			}
		}
		return llmtest.Text("?", 1, 1)
	})
	clk := &settable{}
	run := talosApp(t, app.Config{OpenAIBaseURL: srv.URL(), OpenAIKey: "k", Model: "fake", HAURL: ha.URL(), HAToken: haToken}, clk)
	ctx := context.Background()
	p := talos.DefaultPolicy()
	child := p.Roles[health.RoleChild]
	child.Tools = []string{talos.ToolListEntities, talos.ToolGetState}
	p.Roles[health.RoleChild] = child
	if err := run.app.Policies.SavePolicy(ctx, p, talos.ToolNames, "test"); err != nil {
		t.Fatal(err)
	}

	talosSay(t, run.url, "kit", "unlock")
	mu.Lock()
	if len(offered) != 1 || slices.Contains(offered[0], "home_call_service") || !slices.Contains(offered[0], "home_get_state") {
		t.Fatalf("the child's model was offered %v", offered)
	}
	mu.Unlock()
	ds := decisions(t, run.app, talos.Filter{Member: "kit"})
	if len(ds) != 1 || ds[0].Outcome != talos.Denied || ds[0].Rule != "child.tools" || ds[0].Tool != "home_call_service" {
		t.Fatalf("decisions = %+v", ds)
	}

	// The child may call services again, but not on a lock, and not with
	// a second entity in the data.
	if err := run.app.Policies.SavePolicy(ctx, talos.DefaultPolicy(), talos.ToolNames, "test"); err != nil {
		t.Fatal(err)
	}
	talosSay(t, run.url, "kit", "unlock")
	talosSay(t, run.url, "kit", "smuggle")
	ds = decisions(t, run.app, talos.Filter{Member: "kit", Outcome: talos.Denied})
	if len(ds) != 3 || ds[0].Rule != "call.one_entity" || ds[1].Rule != "child.entities" || ds[1].Target != "lock.front_door" {
		t.Fatalf("denied = %+v", ds)
	}

	// 23:00: the TV is quiet hours for a child, not for an adult.
	clk.Set(time.Date(2026, 11, 28, 23, 0, 0, 0, time.UTC))
	talosSay(t, run.url, "kit", "tv")
	ds = decisions(t, run.app, talos.Filter{Member: "kit", Outcome: talos.Denied})
	if ds[0].Rule != "child.quiet_hours" || ds[0].Target != "media_player.living_room_tv" {
		t.Fatalf("at 23:00 = %+v", ds[0])
	}
	talosSay(t, run.url, "ada", "tv")
	if ds := decisions(t, run.app, talos.Filter{Member: "ada"}); len(ds) != 1 || ds[0].Outcome != talos.Allowed {
		t.Fatalf("ada at 23:00 = %+v", ds)
	}
	for _, c := range ha.Calls() {
		if c.Domain == "lock" || (c.Domain == "media_player" && len(ha.Calls()) != 1) {
			t.Fatalf("Home Assistant received %+v", ha.Calls())
		}
	}
	if calls := ha.Calls(); len(calls) != 1 || calls[0].Data["entity_id"] != "media_player.living_room_tv" {
		t.Fatalf("Home Assistant received %+v", calls)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, r := range results {
		if strings.Contains(r, haToken) {
			t.Fatal("the token reached the model")
		}
	}
}

// TestTalosPlaysOnTheTV: "Play my yoga session on the living room TV"
// without a model plays the item on the Plex player, for an adult at any
// hour and for a child in the day; at 23:00 the child's is refused by
// quiet hours, recorded, and Plex receives nothing.
func TestTalosPlaysOnTheTV(t *testing.T) {
	plex := plextest.New(t, plexToken, plextest.Section{Key: "7", Title: "Workouts", Type: "movie", Top: []plextest.Item{
		{RatingKey: "301", Type: "movie", Title: "Morning Yoga Session", DurationMS: 1_200_000},
		{RatingKey: "304", Type: "movie", Title: "Iron HIIT", DurationMS: 1_800_000}}})
	plex.SetPlayers(plextest.TV("Living Room TV", "tv-1"))
	clk := &settable{}
	run := talosApp(t, app.Config{PlexURL: plex.URL, PlexToken: plexToken, PlexSection: "7"}, clk)

	got := talosSay(t, run.url, "kit", "Play my yoga session on the living room TV")
	if plays := plex.Plays(); len(plays) != 1 || plays[0].RatingKey != "301" || plays[0].Client != "tv-1" {
		t.Fatalf("answered %q; Plex played %+v", got, plays)
	}
	clk.Set(time.Date(2026, 11, 28, 23, 0, 0, 0, time.UTC))
	got = talosSay(t, run.url, "kit", "Play my yoga session on the living room TV")
	if !strings.Contains(got, "quiet hours") || len(plex.Plays()) != 1 {
		t.Fatalf("a child at 23:00: %q; Plex played %+v", got, plex.Plays())
	}
	ds := decisions(t, run.app, talos.Filter{Member: "kit", Tool: talos.ToolPlay})
	if len(ds) != 2 || ds[0].Outcome != talos.Denied || ds[0].Rule != "child.quiet_hours" || ds[1].Outcome != talos.Allowed {
		t.Fatalf("decisions = %+v", ds)
	}
	talosSay(t, run.url, "ada", "Play my yoga session on the living room TV")
	if len(plex.Plays()) != 2 {
		t.Fatalf("an adult at 23:00: Plex played %+v", plex.Plays())
	}
}

// TestTalosHeldActionResumedByTheAdminNeedsAnAdult: the confirmation is a
// workflow run the admin's workflow API can resume too; an answer that
// names no adult (or a child) refuses the action instead of doing it.
func TestTalosHeldActionResumedByTheAdminNeedsAnAdult(t *testing.T) {
	ha := talosHome(t)
	clk := &settable{}
	run := talosApp(t, app.Config{HAURL: ha.URL(), HAToken: haToken}, clk)
	talosSay(t, run.url, "ada", "Unlock the front door")
	waiting := decisions(t, run.app, talos.Filter{Outcome: talos.Waiting})
	if len(waiting) != 1 {
		t.Fatalf("waiting = %+v", waiting)
	}
	resp, err := http.Post(run.url+"/api/workflow-runs/"+strconv.FormatInt(*waiting[0].Workflow, 10)+"/resume", "application/json",
		strings.NewReader(`{"step": "confirm", "data": {"answer": "confirm", "by": "kit"}}`))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("resume: %d %s", resp.StatusCode, b)
	}
	if _, err := run.app.Workflows.Wait(context.Background(), *waiting[0].Workflow); err != nil {
		t.Fatal(err)
	}
	rec, err := run.app.Policies.Decision(context.Background(), waiting[0].ID)
	if err != nil || rec.Outcome != talos.Refused || len(ha.Calls()) != 0 {
		t.Fatalf("a child's confirmation through the API: %+v (%v); Home Assistant received %+v", rec, err, ha.Calls())
	}
}
