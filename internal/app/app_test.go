package app

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"hearth/internal/agent"
	"hearth/internal/coach"
	"hearth/internal/content"
	"hearth/internal/dashboard"
	"hearth/internal/schedule"
)

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

	runs, err := a.Agents.RunAssignmentForAll(ctx, coach.AgentID, coach.DailyDashboardID, agent.TriggerManual)
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
