package app_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"hearth/internal/agent"
	"hearth/internal/coach"
)

// TestAdminRunsDailyDashboardInBrowser runs the daily dashboard for every
// member from the admin page and watches the runs reach succeeded over the
// page's live stream, without a reload.
func TestAdminRunsDailyDashboardInBrowser(t *testing.T) {
	browser := newBrowser(t, 1280, 800)
	srv := demoApp(t)
	a, agentID := srv.app, coach.AgentID
	members, err := a.DB.ListMembers(context.Background())
	if err != nil || len(members) == 0 {
		t.Fatalf("demo household: %d members, %v", len(members), err)
	}
	want := min(len(members), 8) // the page shows the latest 8 runs
	base := srv.url
	bctx, cancelT := context.WithTimeout(browser, 90*time.Second)
	defer cancelT()

	if err := chromedp.Do(bctx, chromedp.Navigate(base+"/admin"), chromedp.WaitReady(chromedp.CSS("body"))); err != nil {
		t.Fatal(err)
	}
	wired, err := chromedp.Run(bctx, chromedp.Evaluate[bool](`!!document.getElementById('runs-live')`))
	if err != nil {
		t.Fatal(err)
	}
	if !wired {
		t.Fatal("the admin page has no live runs list (web.AdminDeps.Agents not wired?)")
	}
	button := fmt.Sprintf("run-%s-daily-dashboard", agentID)
	// The demo household's first plans and reminder (trigger "demo") are
	// listed already.
	demoRuns, err := a.Agents.Runs().List(context.Background(), agent.RunFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(bctx,
		chromedp.WaitVisible(chromedp.ID(button)),
		chromedp.Poll[chromedp.Void](fmt.Sprintf(`document.querySelectorAll('#runs-live [data-status="succeeded"]').length === %d`, min(len(demoRuns), 8))),
		chromedp.Sleep(300*time.Millisecond), // Datastar binds data-on attributes a tick after load
	); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(bctx, chromedp.Evaluate[bool](`window.__notReloaded = true`)); err != nil {
		t.Fatal(err)
	}
	done := fmt.Sprintf(`document.querySelectorAll('#runs-live [data-status="succeeded"]').length === %d`, min(want+len(demoRuns), 8))
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
	runs, err := a.Agents.Runs().List(context.Background(), agent.RunFilter{Agent: agentID, Assignment: coach.DailyDashboardID})
	if err != nil || len(runs) != 2*len(members) {
		t.Fatalf("runs stored: %d, want %d (%v)", len(runs), 2*len(members), err)
	}
	triggers := map[agent.Trigger]int{}
	for _, r := range runs {
		triggers[r.Trigger]++
		if r.Status != agent.StatusSucceeded {
			t.Errorf("run %d: %s via %s (%s)", r.ID, r.Status, r.Trigger, r.Error)
		}
	}
	if triggers[agent.TriggerManual] != len(members) || triggers[agent.TriggerDemo] != len(members) {
		t.Errorf("triggers %v, want %d demo (first start) and %d manual", triggers, len(members), len(members))
	}
}
