package app_test

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"hearth/internal/agent"
	"hearth/internal/app"
	"hearth/internal/coach"
	"hearth/internal/content"
	"hearth/internal/dashboard"
	"hearth/internal/household"
)

// layoutApp is the demo household plus what makes pages long and wide: a
// new member whose dashboard asks the goal question with its six options
// (programs by their full titles), the catalog's longest title in a
// playlist, a long meal name, and a program on every member. A test's
// own settings (an admin password) go in with configure.
func layoutApp(t *testing.T, configure ...func(*app.Config)) (*running, map[string]string) {
	t.Helper()
	dir := t.TempDir()
	cfg := app.Config{Addr: "127.0.0.1:0", DataDir: dir, DBPath: filepath.Join(dir, "hearth.db"),
		Location: time.UTC, Demo: true, KioskIdle: 10 * time.Minute, CatchUp: 12 * time.Hour, Prices: app.DefaultPrices}
	for _, c := range configure {
		c(&cfg)
	}
	srv := startApp(t, cfg)
	a, ctx := srv.app, context.Background()
	if _, err := a.Household.CreateMember(ctx, household.MemberInput{ID: "nova", Name: "Novalee Featherstonehaugh-Smythe"}); err != nil {
		t.Fatal(err)
	}
	if r, err := a.Agents.Run(ctx, agent.Request{Agent: coach.AgentID, Assignment: coach.DailyDashboardID,
		Member: "nova", Trigger: agent.TriggerManual}); err != nil || r.Status != agent.StatusSucceeded {
		t.Fatalf("nova's day: %+v %v", r, err)
	}
	items, err := a.Catalog.List(ctx, content.Filter{Limit: content.MaxLimit})
	if err != nil {
		t.Fatal(err)
	}
	longest := items[0]
	for _, it := range items {
		if len(it.Title) > len(longest.Title) {
			longest = it
		}
	}
	if err := a.Dashboards.EditPlaylist(ctx, "maya", dashboard.PlaylistEdit{Op: "add", ContentID: longest.ID}); err != nil {
		t.Fatal(err)
	}
	meal, err := a.Household.LogMeal(ctx, "maya", household.MealInput{Name: "Slow-roasted butternut squash and chickpea tagine with herbed couscous and a big dollop of yogurt", Calories: 640})
	if err != nil {
		t.Fatal(err)
	}
	return srv, map[string]string{"content": longest.ID, "meal": fmt.Sprint(meal.ID)}
}

// layoutPages are the paths of every kiosk page of layoutApp's household
// (the household, each member's dashboard, a content page with and without
// a member, the player, an entry's correction, an unknown member) and every
// admin page: each GET route under /admin but the live streams, downloads
// and previews, its parameters filled in.
func layoutPages(t *testing.T, srv *running, ids map[string]string) (kiosk, admin []string) {
	t.Helper()
	members, err := srv.app.DB.ListMembers(context.Background())
	if err != nil || len(members) < 3 {
		t.Fatalf("layoutApp's household: %d members, %v", len(members), err)
	}
	kiosk = []string{"/"}
	for _, m := range members {
		kiosk = append(kiosk, "/m/"+m.ID)
	}
	kiosk = append(kiosk, "/content/"+ids["content"]+"?m=maya", "/content/"+ids["content"],
		"/m/maya/play?i=0", "/m/maya/entry/meal/"+ids["meal"], "/m/nobody",
		"/m/maya/history", "/m/maya/history?span=all")
	params := map[string]string{":member": "maya", ":agent": "health-coach", ":id": "1", ":slug": "tv"}
	for _, r := range srv.app.Echo.Routes() {
		p := r.Path
		if r.Method != "GET" || !strings.HasPrefix(p, "/admin") || strings.Contains(p, "/live/") ||
			strings.HasSuffix(p, "/export") || strings.Contains(p, ":name") || strings.HasSuffix(p, "/preview") {
			continue
		}
		for k, v := range params {
			p = strings.ReplaceAll(p, k, v)
		}
		admin = append(admin, p)
	}
	sort.Strings(admin) // Echo lists its routes in no fixed order
	return kiosk, admin
}

// Every kiosk and admin page fits its viewport: nothing is wider than the
// window at 1280×800, 1024×768 and 390×844 (a phone), with the longest
// real titles and the goal question's six options.
func TestNoPageIsWiderThanItsViewport(t *testing.T) {
	browser := newBrowser(t, 1280, 800)
	srv, ids := layoutApp(t)
	kiosk, admin := layoutPages(t, srv, ids)
	pages := append(kiosk, admin...)
	ctx := newTab(t, browser, 5*time.Minute)
	shots := artifacts(t)
	for _, size := range [][2]int64{{1280, 800}, {1024, 768}, {390, 844}} {
		do(t, ctx, chromedp.EmulateViewport(size[0], size[1]))
		for _, p := range pages {
			do(t, ctx, chromedp.Navigate(srv.url+p))
			until(t, ctx, 10*time.Second, `document.readyState === 'complete' && (!document.getElementById('live') || document.body.dataset.hearthLive === '1')`)
			var wide struct {
				Scroll, Inner int
				Culprits      []string
			}
			if err := eval(ctx, `(() => {
				const inner = window.innerWidth, out = [];
				for (const el of document.body.querySelectorAll('*')) {
					const r = el.getBoundingClientRect();
					if (r.width > 0 && r.right > inner + 1 && out.length < 5 && getComputedStyle(el).position !== 'fixed')
						out.push(el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + '.' + [...el.classList].join('.') + ' right=' + Math.round(r.right));
				}
				return {scroll: document.documentElement.scrollWidth, inner, culprits: out};
			})()`, &wide); err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			if wide.Scroll > wide.Inner {
				name := fmt.Sprintf("overflow-%dx%d-%s.png", size[0], size[1], strings.NewReplacer("/", "_", "?", "_", "=", "_").Replace(p))
				screenshot(t, ctx, shots, name, true)
				t.Errorf("%dx%d %s: %d px wide in a %d px window (%s); screenshot %s", size[0], size[1], p, wide.Scroll, wide.Inner,
					strings.Join(wide.Culprits, ", "), name)
			}
		}
	}
	t.Logf("checked %d pages at three sizes", len(pages))

	// On a phone the playlist's ✕ is whole and inside its row; the
	// reconnecting banner never covers the member switcher.
	for _, size := range [][2]int64{{390, 844}, {1280, 800}} {
		do(t, ctx, chromedp.EmulateViewport(size[0], size[1]))
		open(t, ctx, srv.url+"/m/maya")
		// The wall tablet's layout keeps the playlist in the More sheet.
		js(t, ctx, `[...document.querySelectorAll('.quick-btn')].find(b => b.textContent === 'More').click()`)
		until(t, ctx, 3*time.Second, `getComputedStyle(document.getElementById('sheet-more')).display !== 'none'`)
		var ok bool
		if err := eval(ctx, `(() => {
			const x = document.querySelector('#w-playlist button[value=remove]').getBoundingClientRect();
			const row = document.querySelector('#w-playlist .plist-item').getBoundingClientRect();
			return x.width >= 44 && x.left >= row.left && x.right <= row.right && x.right <= window.innerWidth;
		})()`, &ok); err != nil || !ok {
			t.Errorf("%dx%d: the playlist's remove button is clipped (%v)", size[0], size[1], err)
		}
		js(t, ctx, `document.body.classList.add('offline')`)
		if err := eval(ctx, `(() => {
			const b = document.getElementById('live-status').getBoundingClientRect();
			if (b.width === 0) return false;
			for (const el of document.querySelectorAll('#switcher, #switcher a, .dash-head, .home')) {
				const r = el.getBoundingClientRect();
				if (b.left < r.right && b.right > r.left && b.top < r.bottom && b.bottom > r.top) return false;
			}
			return true;
		})()`, &ok); err != nil || !ok {
			screenshot(t, ctx, shots, fmt.Sprintf("banner-%dx%d.png", size[0], size[1]), false)
			t.Errorf("%dx%d: the reconnecting banner covers the member switcher (%v)", size[0], size[1], err)
		}
	}
}
