package app_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
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
