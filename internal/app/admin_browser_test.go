package app_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"hearth/internal/agent"
	"hearth/internal/app"
)

// standInDashboard stands in for the coach's daily-dashboard assignment
// while the coach is not registered in the app: it writes a memory note.
type standInDashboard struct{}

func (standInDashboard) ID() string              { return "daily-dashboard" }
func (standInDashboard) Description() string     { return "Stand-in daily dashboard (browser test)" }
func (standInDashboard) DefaultSchedule() string { return "" }
func (standInDashboard) OutputSchema() agent.OutputSchema {
	return agent.OutputSchema{Schema: map[string]any{"type": "object", "required": []string{"briefing"},
		"properties":           map[string]any{"briefing": map[string]any{"type": "string"}},
		"additionalProperties": false}}
}
func (standInDashboard) Gather(_ context.Context, env *agent.Env) (any, error) {
	return map[string]string{"member": env.Scope.MemberID}, nil
}
func (standInDashboard) Prompt(_ context.Context, g any, mem *agent.Memory) (agent.Prompt, error) {
	b, _ := json.Marshal(g)
	return agent.Prompt{User: string(b) + "\n" + mem.Serialize()}, nil
}
func (standInDashboard) ValidateDomain(context.Context, any, json.RawMessage) []agent.ValidationError {
	return nil
}
func (standInDashboard) Plan(context.Context, any, *agent.Memory) (any, error) {
	return map[string]string{"briefing": "Good morning."}, nil
}
func (standInDashboard) Act(_ context.Context, _ *sql.Tx, act *agent.ActEnv) error {
	return act.Memory.Set("last_briefing", "Good morning.", 0)
}

// adminDashboardAgent returns the agent whose daily-dashboard the test runs:
// the coach when the app registers it, else a stand-in registered here.
func adminDashboardAgent(t *testing.T, a *app.App) string {
	t.Helper()
	for _, ag := range a.Agents.Agents() {
		if ag.ID == "health-coach" && slices.ContainsFunc(ag.Assignments, func(as agent.AssignmentInfo) bool { return as.ID == "daily-dashboard" }) {
			return ag.ID
		}
	}
	t.Log("health-coach is not registered in the app yet: running a stand-in daily-dashboard")
	if err := a.Agents.Register(agent.Agent{ID: "browser-coach", Description: "Stand-in coach",
		Assignments: []agent.Assignment{standInDashboard{}}}); err != nil {
		t.Fatal(err)
	}
	return "browser-coach"
}

// TestAdminRunsDailyDashboardInBrowser runs the daily dashboard for every
// member from the admin page and watches the runs reach succeeded over the
// page's live stream, without a reload.
func TestAdminRunsDailyDashboardInBrowser(t *testing.T) {
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium not installed (apt-get install -y chromium)")
	}
	dir := t.TempDir()
	a, err := app.New(context.Background(), app.Config{Addr: "127.0.0.1:0", DBPath: filepath.Join(dir, "hearth.db"),
		DataDir: dir, Location: time.UTC, Demo: true, KioskIdle: time.Minute}, nil)
	if err != nil {
		t.Fatal(err)
	}
	agentID := adminDashboardAgent(t, a)
	addr, err := a.Listen()
	if err != nil {
		_ = a.Close()
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- a.Serve(ctx) }()
	t.Cleanup(func() {
		stop()
		select {
		case err := <-served:
			if err != nil && !errors.Is(err, http.ErrServerClosed) {
				t.Errorf("serve: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Error("the app did not stop within 10 s")
		}
	})
	members, err := a.DB.ListMembers(context.Background())
	if err != nil || len(members) == 0 {
		t.Fatalf("demo household: %d members, %v", len(members), err)
	}
	want := min(len(members), 8) // the page shows the latest 8 runs
	base := "http://" + addr.String()

	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chromium), chromedp.NoSandbox,
		chromedp.DisableGPU, chromedp.Flag("disable-component-update", true))
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	bctx, cancelB := chromedp.NewContext(allocCtx)
	defer cancelB()
	if err := chromedp.Do(bctx); err != nil { // start the browser without a timeout
		t.Fatal(err)
	}
	bctx, cancelT := context.WithTimeout(bctx, 90*time.Second)
	defer cancelT()

	if err := chromedp.Do(bctx, chromedp.Navigate(base+"/admin"), chromedp.WaitReady(chromedp.CSS("body"))); err != nil {
		t.Fatal(err)
	}
	wired, err := chromedp.Run(bctx, chromedp.Evaluate[bool](`!!document.getElementById('runs-live')`))
	if err != nil {
		t.Fatal(err)
	}
	if !wired {
		t.Skip("the admin assignments page is not wired in internal/app (web.AdminDeps.Agents is nil)")
	}
	button := fmt.Sprintf("run-%s-daily-dashboard", agentID)
	if err := chromedp.Do(bctx,
		chromedp.WaitVisible(chromedp.ID(button)),
		chromedp.Poll[chromedp.Void](`document.querySelectorAll('#runs-live [data-status]').length === 0`),
		chromedp.Sleep(300*time.Millisecond), // Datastar binds data-on attributes a tick after load
	); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(bctx, chromedp.Evaluate[bool](`window.__notReloaded = true`)); err != nil {
		t.Fatal(err)
	}
	done := fmt.Sprintf(`document.querySelectorAll('#runs-live [data-status="succeeded"]').length === %d`, want)
	if err := chromedp.Do(bctx,
		chromedp.Click(chromedp.ID(button)), // member select defaults to all members
		chromedp.Poll[chromedp.Void](done, chromedp.WithPollingTimeout(60*time.Second)),
	); err != nil {
		html, _ := chromedp.Run(bctx, chromedp.OuterHTML(chromedp.ID("runs-live")))
		t.Fatalf("runs did not reach succeeded: %v\n%s", err, html)
	}
	same, err := chromedp.Run(bctx, chromedp.Evaluate[bool](`window.__notReloaded === true`))
	if err != nil || !same {
		t.Fatalf("the page reloaded (%v)", err)
	}
	bad, err := chromedp.Run(bctx, chromedp.Evaluate[int](`document.querySelectorAll('#runs-live [data-status="failed"], #runs-live [data-status="fell_back"]').length`))
	if err != nil || bad != 0 {
		t.Fatalf("%d runs failed or fell back (%v)", bad, err)
	}
	runs, err := a.Agents.Runs().List(context.Background(), agent.RunFilter{Agent: agentID, Assignment: "daily-dashboard"})
	if err != nil || len(runs) != len(members) {
		t.Fatalf("runs stored: %d, want %d (%v)", len(runs), len(members), err)
	}
	for _, r := range runs {
		if r.Status != agent.StatusSucceeded || r.Trigger != agent.TriggerManual {
			t.Errorf("run %d: %s via %s (%s)", r.ID, r.Status, r.Trigger, r.Error)
		}
	}
}
