package app

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hearth/internal/agent"
	"hearth/internal/coach"
	"hearth/internal/content"
	"hearth/internal/dashboard"
	"hearth/internal/messages"
	"hearth/internal/schedule"
)

// startedApp builds an app on testConfig with its scheduler started (no
// HTTP server).
func startedApp(t *testing.T) *App {
	t.Helper()
	ctx := context.Background()
	a, err := New(ctx, testConfig(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = a.Close() })
	if err := a.Schedule.Start(ctx); err != nil {
		t.Fatal(err)
	}
	return a
}

func testConfig(t *testing.T) Config {
	t.Helper()
	dir := t.TempDir()
	return Config{Addr: "127.0.0.1:0", DataDir: dir, DBPath: filepath.Join(dir, "hearth.db"), Location: time.UTC,
		Demo: true, KioskIdle: time.Minute, CatchUp: 12 * time.Hour, Prices: DefaultPrices}
}

// TestDemoHouseholdGetsDashboardsFromHeuristicCoach is the first-minute
// promise: no key, no network, and the coach writes a valid document for
// every demo member.
func TestDemoHouseholdGetsDashboardsFromHeuristicCoach(t *testing.T) {
	ctx := context.Background()
	a, err := New(ctx, testConfig(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = a.Close() })

	tasks, err := a.Schedule.List(ctx, scheduleFilterAll())
	if err != nil {
		t.Fatal(err)
	}
	foundDefault := false
	for _, tk := range tasks {
		if tk.AgentID == coach.AgentID && tk.AssignmentID == coach.DailyDashboardID && tk.Schedule == "0 4 * * *" {
			foundDefault = true
		}
	}
	if !foundDefault {
		t.Fatalf("default daily-dashboard task missing: %+v", tasks)
	}

	runs, err := a.Agents.RunEach(ctx, agent.Request{Agent: coach.AgentID, Assignment: coach.DailyDashboardID, Trigger: agent.TriggerManual})
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 2 {
		t.Fatalf("runs = %d, want one per demo member", len(runs))
	}
	catalog := map[string]dashboard.CatalogEntry{}
	items, err := a.Catalog.List(ctx, contentFilterAll())
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range items {
		catalog[it.ID] = dashboard.CatalogEntry{Title: it.Title, Duration: it.DurationMin}
	}
	for _, r := range runs {
		if r.Status != agent.StatusSucceeded || r.Model != "heuristic" {
			t.Fatalf("run %d for %s: %s %s %s", r.ID, r.Member, r.Status, r.Model, r.Error)
		}
		st, err := a.Dashboards.Get(ctx, r.Member, a.Dashboards.Day(time.Now()))
		if err != nil {
			t.Fatalf("no document for %s: %v", r.Member, err)
		}
		if st.RunID != r.ID || st.Document.Coach.Briefing == "" || st.Document.Curated.UpNext.Primary == nil {
			t.Fatalf("document for %s: %+v", r.Member, st)
		}
		if p := dashboard.ValidateDomain(st.Document, catalog); len(p) > 0 {
			t.Fatalf("document for %s fails domain validation: %v", r.Member, p)
		}
	}
}

func scheduleFilterAll() schedule.TaskFilter { return schedule.TaskFilter{} }

func contentFilterAll() content.Filter { return content.Filter{Limit: content.MaxLimit} }

// TestDemoFirstStartPreparesEveryDay: with HEARTH_DEMO the first start
// prepares today's plan for every demo member (a normal run, trigger
// "demo", the built-in planner), and between them the members show every
// kind of widget on day one: tap and voice prompts included.
func TestDemoFirstStartPreparesEveryDay(t *testing.T) {
	ctx := context.Background()
	cfg := testConfig(t)
	cfg.OpenAIBaseURL, cfg.OpenAIKey = "http://127.0.0.1:9/v1", "unused" // a model is set, and unreachable
	a, err := New(ctx, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = a.Close() })
	members, err := a.DB.ListMembers(ctx)
	if err != nil || len(members) < 2 {
		t.Fatalf("demo members: %d %v", len(members), err)
	}
	seen := map[string]bool{}
	now := time.Now()
	for _, m := range members {
		runs, err := a.Agents.Runs().List(ctx, agent.RunFilter{Member: m.ID, Assignment: coach.DailyDashboardID})
		if err != nil || len(runs) != 1 || runs[0].Trigger != agent.TriggerDemo || runs[0].Status != agent.StatusSucceeded ||
			runs[0].Model != "heuristic" || runs[0].FallbackReason != "" {
			t.Fatalf("runs of %s: %+v %v", m.ID, runs, err)
		}
		td, err := a.Dashboards.Today(ctx, m.ID, now)
		if err != nil || td.Doc == nil || td.Doc.Day != td.Day || td.Doc.RunID != runs[0].ID {
			t.Fatalf("today of %s: %+v %v", m.ID, td.Doc, err)
		}
		mark := func(kind string, ok bool) { seen[kind] = seen[kind] || ok }
		mark("up next", td.UpNext != nil)
		mark("alternates", len(td.Alternates) > 0)
		mark("playlist suggestion", len(td.Suggestion) > 0)
		mark("briefing", td.Briefing != "")
		mark("call to action", len(td.CTAs) > 0)
		mark("feedback", len(td.Feedback) > 0)
		for _, p := range td.Prompts {
			mark("tap prompt", p.Type == dashboard.PromptMultipleChoice && len(p.Options) >= 2)
			mark("voice prompt", p.Type == dashboard.PromptVoiceMemo)
		}
		open, err := a.Messages.List(ctx, messages.Filter{Member: m.ID, Open: true})
		if err != nil {
			t.Fatal(err)
		}
		mark("message from the coach", len(open) > 0 && strings.HasPrefix(open[0].Text, "Hydration reminder"))
		for kind, n := range map[string]func() (int, error){
			"weight":    func() (int, error) { r, err := a.Household.Weights(ctx, m.ID, 1); return len(r), err },
			"meals":     func() (int, error) { r, err := a.Household.Meals(ctx, m.ID, 1); return len(r), err },
			"workouts":  func() (int, error) { r, err := a.Household.Workouts(ctx, m.ID, 1); return len(r), err },
			"body scan": func() (int, error) { r, err := a.Household.BodyScans(ctx, m.ID, 1); return len(r), err },
		} {
			c, err := n()
			if err != nil {
				t.Fatal(err)
			}
			mark(kind, c > 0)
		}
	}
	for _, kind := range []string{"up next", "alternates", "playlist suggestion", "briefing", "call to action", "feedback",
		"tap prompt", "voice prompt", "weight", "meals", "workouts", "body scan", "message from the coach"} {
		if !seen[kind] {
			t.Errorf("no demo member shows a %s on the first day", kind)
		}
	}
}
