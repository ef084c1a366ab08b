package app_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"hearth/internal/screen"
)

// The wall screen, as a household mounts it: each shipped layout fits its
// screen without scrolling, for every demo member (and a new member whose
// question has six long options), and on the 1280×800 tablet what is read
// from across the room (the current weight, today's plan title, the next
// question and the briefing's first sentence) is at least 32 px, whole and
// inside its cell. A screenshot of each is kept (HEARTH_ARTIFACTS).
func TestShippedLayoutsFitTheirScreens(t *testing.T) {
	browser := newBrowser(t, 1280, 800)
	srv, _ := layoutApp(t)
	ctx := newTab(t, browser, 5*time.Minute)
	shots := artifacts(t)
	screens := []struct {
		layout string
		w, h   int64
	}{{"wall-tablet", 1280, 800}, {"tv", 1920, 1080}, {"portrait-tablet", 800, 1280}, {"phone", 390, 844}}
	for _, s := range screens {
		do(t, ctx, chromedp.EmulateViewport(s.w, s.h))
		for _, m := range []string{"maya", "theo", "nova"} {
			url := srv.url + "/m/" + m + "?layout=" + s.layout
			open(t, ctx, url)
			name := fmt.Sprintf("screen-%s-%dx%d-%s.png", s.layout, s.w, s.h, m)
			screenshot(t, ctx, shots, name, false)
			var fit struct {
				ScrollH, ScrollW, InnerH, InnerW int
				Layout                           string
				Cells                            int
			}
			if err := eval(ctx, `({scrollH: document.documentElement.scrollHeight, scrollW: document.documentElement.scrollWidth,
				innerH: innerHeight, innerW: innerWidth, layout: document.getElementById('screen-grid').dataset.layout,
				cells: [...document.querySelectorAll('#screen-grid .cell')].filter(c => c.getBoundingClientRect().height > 0).length})`, &fit); err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(fit.Layout, s.layout+"@") || fit.Cells < 4 {
				t.Errorf("%s on %s: layout %q with %d visible cells", m, s.layout, fit.Layout, fit.Cells)
			}
			if fit.ScrollH > fit.InnerH || fit.ScrollW > fit.InnerW {
				t.Errorf("%s on %s %dx%d: the page is %dx%d, it scrolls (screenshot %s)", m, s.layout, s.w, s.h, fit.ScrollW, fit.ScrollH, name)
			}
			if s.layout != "wall-tablet" || m == "nova" { // nova has no weigh-in yet
				continue
			}
			var far []struct {
				What, Problem string
			}
			if err := eval(ctx, `(() => {
				const out = [];
				const items = {
					'current weight': document.querySelector('#w-weight .num'),
					"today's plan title": document.querySelector('#upnext .upnext-title, #upnext-done .upnext-title'),
					'next question': document.querySelector('#prompts > :nth-child(1 of .prompt:not(.answered)) .question'),
					"the briefing's first sentence": document.querySelector('#briefing .lead'),
				};
				for (const [what, el] of Object.entries(items)) {
					if (!el) { out.push({what, problem: 'missing'}); continue; }
					const px = parseFloat(getComputedStyle(el).fontSize);
					if (px < 32) out.push({what, problem: px + ' px'});
					const r = el.getBoundingClientRect(), cell = el.closest('.cell');
					if (!cell) { out.push({what, problem: 'not in a cell'}); continue; }
					const c = cell.getBoundingClientRect();
					if (r.height === 0 || r.top < c.top - 1 || r.bottom > c.bottom + 1 || r.bottom > innerHeight || r.right > innerWidth)
						out.push({what, problem: 'cut off: ' + Math.round(r.top) + '–' + Math.round(r.bottom) + ' in a cell ' + Math.round(c.top) + '–' + Math.round(c.bottom)});
				}
				return out;
			})()`, &far); err != nil {
				t.Fatal(err)
			}
			for _, f := range far {
				t.Errorf("%s on the 1280×800 tablet: %s: %s (screenshot %s)", m, f.What, f.Problem, name)
			}
		}
	}
}

// A layout edited in admin rearranges an open screen without a reload: the
// grid arrives over the stream, the page's own state survives.
func TestLayoutEditRearrangesAnOpenScreen(t *testing.T) {
	browser := newBrowser(t, 1280, 800)
	srv, _ := layoutApp(t)
	ctx := newTab(t, browser, time.Minute)
	open(t, ctx, srv.url+"/m/maya")
	until(t, ctx, 5*time.Second, `document.getElementById('screen-grid').dataset.layout === 'wall-tablet@0'`)
	js(t, ctx, `window.notReloaded = true`)
	if n := visibleCells(t, ctx); n != 8 {
		t.Fatalf("the wall tablet shows %d cells", n)
	}

	// As Admin → Screens saves it: the wall tablet keeps three widgets.
	a := srv.app
	e, err := a.Screens.Get(context.Background(), "wall-tablet")
	if err != nil {
		t.Fatal(err)
	}
	e.Layout.Landscape = &screen.Grid{Cols: 2, Rows: 2, Places: []screen.Place{
		{Widget: "weight", Col: 1, Row: 1, W: 1, H: 2}, {Widget: "briefing", Col: 2, Row: 1, W: 1, H: 1}, {Widget: "prompts", Col: 2, Row: 2, W: 1, H: 1}}}
	if _, err := a.Screens.Save(context.Background(), "wall-tablet", e.Layout); err != nil {
		t.Fatal(err)
	}
	until(t, ctx, 5*time.Second, `document.getElementById('screen-grid').dataset.layout === 'wall-tablet@1'`)
	if n := visibleCells(t, ctx); n != 3 {
		t.Errorf("after the edit the screen shows %d cells, want 3", n)
	}
	var kept bool
	if err := eval(ctx, `window.notReloaded === true`, &kept); err != nil || !kept {
		t.Errorf("the page reloaded (%v)", err)
	}
	// Messages and suggestions are on no grid now: a tap away in More.
	until(t, ctx, 5*time.Second, `!!document.querySelector('#more-body #w-messages') && !!document.querySelector('#more-body #w-ctas')`)

	// Admin → Screens' preview (the kiosk page in a frame, showing the TV
	// layout) follows an edit of the TV layout the same way.
	preview := newTab(t, browser, time.Minute)
	do(t, preview, chromedp.Navigate(srv.url+"/m/maya?layout=tv&preview=1"))
	until(t, preview, 10*time.Second, `document.body.dataset.hearthLive === '1' && document.getElementById('screen-grid').dataset.layout === 'tv@0'`)
	// Edited in Admin → Screens → TV: the file trimmed to two widgets, saved.
	tv, _ := a.Screens.Get(context.Background(), "tv")
	tv.Layout.Landscape.Places = tv.Layout.Landscape.Places[:2]
	admin := newTab(t, browser, time.Minute)
	do(t, admin, chromedp.Navigate(srv.url+"/admin/screens/layouts/tv"))
	until(t, admin, 10*time.Second, `!!document.querySelector('#layout-form textarea')`)
	js(t, admin, `document.querySelector('#layout-form textarea').value = `+jsString(string(tv.Layout.JSON())))
	js(t, admin, `document.querySelector('#layout-form button[type=submit]').click()`)
	until(t, admin, 10*time.Second, `location.search === '?done=saved' && document.body.textContent.includes('edited, version 1')`)
	until(t, preview, 5*time.Second, `document.getElementById('screen-grid').dataset.layout === 'tv@1'`)
	if n := visibleCells(t, preview); n != 2 {
		t.Errorf("the preview shows %d cells after the edit, want 2", n)
	}
	// The preview is not remembered: the screen itself still shows its own.
	open(t, ctx, srv.url+"/m/maya")
	until(t, ctx, 5*time.Second, `document.getElementById('screen-grid').dataset.layout === 'wall-tablet@1'`)
}

func visibleCells(t *testing.T, ctx context.Context) int {
	t.Helper()
	var n int
	if err := eval(ctx, `[...document.querySelectorAll('#screen-grid .cell')].filter(c => c.getBoundingClientRect().height > 0).length`, &n); err != nil {
		t.Fatal(err)
	}
	return n
}

// A layout that shows two members rotates between them when left alone,
// and its switcher offers only them.
func TestLayoutRotatesBetweenItsMembers(t *testing.T) {
	browser := newBrowser(t, 1280, 800)
	srv, _ := layoutApp(t)
	l, _ := screen.Shipped("wall-tablet")
	l.Name, l.Members, l.RotateSeconds = "Hall", []string{"maya", "theo"}, 10
	if _, err := srv.app.Screens.Save(context.Background(), "hall", l); err != nil {
		t.Fatal(err)
	}
	ctx := newTab(t, browser, time.Minute)
	open(t, ctx, srv.url+"/m/maya?layout=hall")
	var names []string
	if err := eval(ctx, `[...document.querySelectorAll("#switcher a")].filter(a => a.getBoundingClientRect().width > 0).map(a => a.getAttribute("href"))`, &names); err != nil {
		t.Fatal(err)
	}
	if strings.Join(names, " ") != "/m/maya /m/theo" {
		t.Errorf("the hall's switcher offers %v", names)
	}
	// The screen remembers its layout (a cookie): theo's page rotates back.
	waited := until(t, ctx, 20*time.Second, `location.pathname === '/m/theo'`)
	if waited < 9*time.Second {
		t.Errorf("rotated after %v, before the layout's 10 s", waited)
	}
	until(t, ctx, 20*time.Second, `location.pathname === '/m/maya' && document.getElementById('screen-grid').dataset.layout === 'hall@1'`)
}

// The catalog is a tap away, not below the fold: Browse opens a sheet
// that loads the list, and adding an item puts it in the playlist (in the
// More sheet on the wall tablet).
func TestBrowseSheetAddsToThePlaylist(t *testing.T) {
	browser := newBrowser(t, 1280, 800)
	srv, _ := layoutApp(t)
	ctx := newTab(t, browser, time.Minute)
	open(t, ctx, srv.url+"/m/theo")
	var before int
	if err := eval(ctx, `document.querySelectorAll('#w-playlist .plist-item').length`, &before); err != nil {
		t.Fatal(err)
	}
	js(t, ctx, `[...document.querySelectorAll('.quick-btn')].find(b => b.textContent === 'Browse').click()`)
	until(t, ctx, 5*time.Second, `getComputedStyle(document.getElementById('sheet-browse')).display !== 'none' && document.querySelectorAll('#catalog-results .catalog-item').length > 3`)
	click(t, ctx, `#catalog-results .catalog-item button[value=add]`)
	until(t, ctx, 5*time.Second, fmt.Sprintf(`document.querySelectorAll('#w-playlist .plist-item').length === %d`, before+1))
}
