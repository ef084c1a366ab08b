package app_test

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"hearth/internal/coach"
	"hearth/internal/schedule"
)

// TestCoachBadgeIsABadge: in Admin → Schedules the "created by coach" badge
// is a small pill, not the kiosk's coach card (it was a 138×280 px oval).
func TestCoachBadgeIsABadge(t *testing.T) {
	browser := newBrowser(t, 1280, 800)
	srv := demoApp(t)
	ctx := context.Background()
	members, err := srv.app.DB.ListMembers(ctx)
	if err != nil || len(members) == 0 {
		t.Fatalf("members: %v", err)
	}
	if _, err := srv.app.Schedule.Create(ctx, schedule.TaskInput{Description: "Ask how the knee feels", Kind: schedule.KindOnce,
		Schedule: time.Now().Add(3 * time.Hour).Format(time.RFC3339), AgentID: coach.AgentID, MemberID: members[0].ID}, schedule.ByAgent); err != nil {
		t.Fatal(err)
	}
	bctx, cancel := context.WithTimeout(browser, 60*time.Second)
	defer cancel()
	if err := chromedp.Do(bctx, chromedp.Navigate(srv.url+"/admin/schedules"), chromedp.WaitVisible(chromedp.CSS(`#tasks .badge`))); err != nil {
		t.Fatal(err)
	}
	size, err := chromedp.Run(bctx, chromedp.Evaluate[[]float64](
		`(() => { const r = document.querySelector('#tasks .badge').getBoundingClientRect(); return [r.width, r.height]; })()`))
	if err != nil {
		t.Fatal(err)
	}
	if len(size) != 2 || size[1] > 40 || size[0] > 200 {
		t.Fatalf("coach badge is %v px (width, height), want a small pill", size)
	}
}
