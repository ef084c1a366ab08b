package app_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"hearth/internal/app"
	"hearth/internal/dashboard"
)

// The Play page and a member's content page stay put however long nobody
// touches the screen (a workout is under way); a dashboard goes back to
// the household view after the idle time. Both on the fake clock: ten
// minutes pass in milliseconds.
func TestIdleReturnOnlyFromDashboards(t *testing.T) {
	browser := newBrowser(t, 1280, 800)
	dir := t.TempDir()
	srv := startApp(t, app.Config{Addr: "127.0.0.1:0", DataDir: dir, DBPath: filepath.Join(dir, "hearth.db"), Location: time.UTC,
		KioskIdle: 3 * time.Minute})
	seed(t, srv.app)
	ctx := context.Background()
	for _, id := range []string{"local:ember-core-05", "local:ember-core-02"} {
		if err := srv.app.Dashboards.EditPlaylist(ctx, "ada", dashboard.PlaylistEdit{Op: "add", ContentID: id}); err != nil {
			t.Fatal(err)
		}
	}
	tab := newTab(t, browser, 2*time.Minute)
	fakeClock(t, tab, time.Time{})

	for _, p := range []string{"/m/ada/play?i=0", "/content/local:ember-core-05?m=ada"} {
		navigateTo(t, tab, srv.url+p)
		js(t, tab, `window.__sameDocument = 1`)
		before := time.Now()
		advance(t, tab, 10*time.Minute)
		if n := navigations(t, tab); len(n) != 0 {
			t.Fatalf("%s: ten quiet minutes sent the page to %s (%d times)", p, n[0], len(n))
		}
		var pageNow float64
		if err := eval(tab, `Date.now()`, &pageNow); err != nil {
			t.Fatal(err)
		}
		if lead := time.UnixMilli(int64(pageNow)).Sub(before); lead < 10*time.Minute {
			t.Fatalf("%s: the page's clock is only %v ahead", p, lead)
		}
		until(t, tab, time.Second, `location.href === `+jsString(srv.url+p)+` && window.__sameDocument === 1`)
	}

	// The same clock on a dashboard: not before the idle time, then home.
	navigateTo(t, tab, srv.url+"/m/ada")
	if ran := advance(t, tab, 2*time.Minute+30*time.Second); ran < 150 {
		t.Fatalf("only %d timer callbacks in 150 fake seconds: the page's one-second checks did not run", ran)
	}
	if n := navigations(t, tab); len(n) != 0 {
		t.Fatalf("left the dashboard for %s before the idle time", n[0])
	}
	advance(t, tab, 40*time.Second) // 3 min 10 s
	// (Each one-second check past the idle time sets the location again
	// within the same advance.)
	n := navigations(t, tab)
	if len(n) == 0 {
		t.Fatal("the dashboard stayed past the idle time")
	}
	for _, u := range n {
		if u != srv.url+"/" {
			t.Fatalf("after the idle time the dashboard went to %s, want the household view", u)
		}
	}
	until(t, tab, 5*time.Second, `location.pathname === '/' && document.readyState === 'complete'`)
}
