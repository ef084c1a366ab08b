package app_test

import (
	"context"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"

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

// nextSession is what the night clock says the morning holds.
var nextSession = regexp.MustCompile(`^[A-Z][a-z]+day: (.+ · [0-9]+ min|rest day)$`)

// Night mode on a dashboard, in the household's zone (New York, while
// the browser runs in its own): dark at 22:00 without a reload, a tap
// wakes it for a few minutes, dark again after, day again at 06:30. The
// screen wake lock is held by day and let go at night.
func TestNightModeOnTheFakeClock(t *testing.T) {
	nyc, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t, 1280, 800)
	dir := t.TempDir()
	// A long idle time: this test watches one dashboard through the night.
	srv := startApp(t, app.Config{Addr: "127.0.0.1:0", DataDir: dir, DBPath: filepath.Join(dir, "hearth.db"), Location: nyc,
		KioskIdle: 12 * time.Hour})
	seed(t, srv.app)
	ctx := context.Background()
	if _, err := srv.app.Household.SetNight(ctx, "dim", "22:00", "06:30"); err != nil {
		t.Fatal(err)
	}
	// A program, for what the morning holds under the night clock.
	op, err := srv.app.Programs.DeclareOp(ctx, "ada", "ember-core-30", time.Now().In(nyc).Format(time.DateOnly), "daily")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := srv.app.Programs.Do(ctx, op); err != nil {
		t.Fatal(err)
	}
	tab := newTab(t, b, 2*time.Minute)
	// Headless Chromium refuses screen wake locks unless granted.
	if _, err := chromedp.CallBrowser(tab, browser.SetPermission, browser.SetPermissionParams{
		Permission: &browser.PermissionDescriptor{Name: "screen-wake-lock"}, Setting: browser.PermissionSettingGranted}); err != nil {
		t.Fatal(err)
	}
	now := time.Now().In(nyc)
	at := func(days, h, m, s int) time.Time {
		return time.Date(now.Year(), now.Month(), now.Day()+days, h, m, s, 0, nyc)
	}
	fakeClock(t, tab, at(0, 21, 59, 0))
	navigateTo(t, tab, srv.url+"/m/ada")
	js(t, tab, `window.__sameDocument = 1`)

	day := func(when string) {
		t.Helper()
		until(t, tab, 3*time.Second, `document.body.dataset.hearthNight !== '1' && document.getElementById('night').hidden && `+
			`getComputedStyle(document.getElementById('dash')).visibility === 'visible' && document.body.dataset.hearthWake === 'held'`)
		var ok bool
		if err := eval(tab, `document.elementFromPoint(innerWidth / 2, innerHeight / 2)?.closest('#dash') !== null`, &ok); err != nil || !ok {
			t.Fatalf("%s: the dashboard is not what a tap reaches (%v)", when, err)
		}
	}
	night := func(when, clock string) {
		t.Helper()
		until(t, tab, 3*time.Second, `document.body.dataset.hearthNight === '1' && !document.getElementById('night').hidden && `+
			`getComputedStyle(document.getElementById('night')).display !== 'none' && `+
			`getComputedStyle(document.getElementById('dash')).visibility === 'hidden' && `+
			`document.elementFromPoint(innerWidth / 2, innerHeight / 2)?.closest('#night') !== null && `+
			`document.getElementById('night-clock').textContent === `+jsString(clock)+` && document.body.dataset.hearthWake === 'released'`)
		var under struct{ Date, Next string }
		if err := eval(tab, `({date: document.getElementById('night-date').textContent, next: document.getElementById('night-next')?.textContent})`, &under); err != nil ||
			under.Date == "" || !nextSession.MatchString(under.Next) {
			t.Fatalf("%s: under the night clock %+v (%v), want the date and the next session", when, under, err)
		}
	}

	day("21:59")
	advanceTo(t, tab, at(0, 21, 59, 58))
	day("21:59:58")
	advanceTo(t, tab, at(0, 22, 0, 1))
	night("22:00", "22:00")
	screenshot(t, tab, artifacts(t), "night-dim-1280x800.png", false)

	// A tap wakes the screen (a real pointer event at the middle of the screen).
	do(t, tab, chromedp.MouseClickXY(640, 400))
	tapped := fakeNow(t, tab)
	day("after the tap")
	advanceTo(t, tab, tapped.Add(2*time.Minute+30*time.Second))
	day("two and a half minutes after the tap")
	advanceTo(t, tab, tapped.Add(3*time.Minute+10*time.Second)) // the wake is over
	night("after the wake", tapped.Add(3*time.Minute+10*time.Second).In(nyc).Format("15:04"))

	advanceTo(t, tab, at(1, 6, 29, 50))
	night("just before the morning", "06:29")
	advanceTo(t, tab, at(1, 6, 31, 0))
	day("06:31")

	var same bool
	if err := eval(tab, `window.__sameDocument === 1`, &same); err != nil || !same {
		t.Fatal("the page reloaded: night mode must come and go without one")
	}
	if n := navigations(t, tab); len(n) != 0 {
		t.Fatalf("the page navigated: %v", n)
	}

	// Blank: black, no clock, on the household view.
	if _, err := srv.app.Household.SetNight(ctx, "blank", "22:00", "06:30"); err != nil {
		t.Fatal(err)
	}
	navigateTo(t, tab, srv.url+"/")
	advanceTo(t, tab, at(1, 22, 31, 0))
	until(t, tab, 3*time.Second, `document.body.dataset.hearthNight === '1' && getComputedStyle(document.querySelector('#night .night-face')).display === 'none' && `+
		`getComputedStyle(document.getElementById('night')).backgroundColor === 'rgb(0, 0, 0)' && getComputedStyle(document.getElementById('tiles')).visibility === 'hidden'`)
	// Woken, the screen opens a member's page, which stays awake too.
	do(t, tab, chromedp.MouseClickXY(640, 400))
	tapped = fakeNow(t, tab)
	until(t, tab, 3*time.Second, `document.body.dataset.hearthNight === '0' && getComputedStyle(document.getElementById('tiles')).visibility === 'visible'`)
	click(t, tab, "#tile-ada")
	until(t, tab, 5*time.Second, `location.pathname === '/m/ada' && document.readyState === 'complete' && window.__clock && document.getElementById('dash')`)
	advance(t, tab, 10*time.Second)
	day("the member page a woken screen opened")
	advanceTo(t, tab, tapped.Add(3*time.Minute+10*time.Second))
	until(t, tab, 3*time.Second, `document.body.dataset.hearthNight === '1'`)
}
