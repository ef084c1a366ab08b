package app_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// fakeClockJS is a clock the test controls, installed in every document of
// a tab before the page's own scripts run (Page.addScriptToEvaluateOnNewDocument).
//
//   - Time: Date (new Date(), Date.now()) and performance.now() read the real
//     clock plus an offset. START (epoch ms, 0 = now) sets the offset on the
//     tab's first page of the origin; it is kept in sessionStorage, so a
//     navigation (the idle return, a reload) goes on from the fake time.
//   - Timers: setTimeout and setInterval still run on the real clock (so the
//     page works between advances), and are also recorded with their due
//     time on the fake clock.
//   - window.__clock.advance(ms) moves the fake clock forward in order
//     through every timer due within ms, running each at its due time (an
//     interval once per period), then to now + ms: ten fake minutes run
//     every one-second tick of them, in a few milliseconds. It returns how
//     many timer callbacks it ran.
//   - window.__clock.navigations lists the navigations the tab's pages
//     started (the Navigation API's navigate event fires as location.href
//     is set), kept in sessionStorage like the offset: a test knows at
//     once, without waiting, whether an advance sent the page away, even
//     when the next page is already there.
const fakeClockJS = `(() => {
  const START = %START%;
  const RealDate = Date;
  const realNow = () => RealDate.now();
  const realPerf = performance.now.bind(performance);
  const KEY = 'hearthTestClockOffset';
  let offset = START ? START - realNow() : 0;
  try {
    const kept = sessionStorage.getItem(KEY);
    if (kept !== null) offset = +kept; else sessionStorage.setItem(KEY, String(offset));
  } catch (_) { /* about:blank has no storage */ }
  const setOffset = (o) => {
    offset = o;
    try { sessionStorage.setItem(KEY, String(o)); } catch (_) {}
  };
  class FakeDate extends RealDate {
    constructor(...a) { if (a.length === 0) super(realNow() + offset); else super(...a); }
    static now() { return realNow() + offset; }
  }
  window.Date = FakeDate;
  performance.now = () => realPerf() + offset;

  const timers = new Map();
  const rST = setTimeout.bind(window), rCT = clearTimeout.bind(window);
  const rSI = setInterval.bind(window), rCI = clearInterval.bind(window);
  window.setTimeout = (fn, ms, ...args) => {
    if (typeof fn !== 'function') return rST(fn, ms, ...args);
    const t = { fn, args, due: FakeDate.now() + (+ms || 0), every: 0 };
    const id = rST(() => { timers.delete(id); fn(...args); }, ms);
    timers.set(id, t);
    return id;
  };
  window.setInterval = (fn, ms, ...args) => {
    if (typeof fn !== 'function') return rSI(fn, ms, ...args);
    const t = { fn, args, every: Math.max(+ms || 0, 1) };
    t.due = FakeDate.now() + t.every;
    const id = rSI(() => { t.due = FakeDate.now() + t.every; fn(...args); }, ms);
    timers.set(id, t);
    return id;
  };
  window.clearTimeout = (id) => { timers.delete(id); rCT(id); };
  window.clearInterval = (id) => { timers.delete(id); rCI(id); };

  // Navigations started by the tab's pages, kept in sessionStorage: the
  // page that started one is gone by the time the test asks.
  const NAV = 'hearthTestNavigations';
  const navs = () => { try { return JSON.parse(sessionStorage.getItem(NAV) || '[]'); } catch (_) { return []; } };
  const clock = {
    get navigations() { return navs(); },
    clearNavigations() { try { sessionStorage.removeItem(NAV); } catch (_) {} },
    now: () => FakeDate.now(),
    advance(ms) {
      const target = FakeDate.now() + ms;
      let ran = 0;
      for (let guard = 0; ; guard++) {
        if (guard > 5e6) throw new Error('fake clock: timers keep rescheduling themselves at the same time');
        let next = null, nextID;
        for (const [id, t] of timers) if (t.due <= target && (!next || t.due < next.due)) { next = t; nextID = id; }
        if (!next) break;
        if (next.due > FakeDate.now()) setOffset(next.due - realNow());
        if (next.every) next.due += next.every; else { timers.delete(nextID); rCT(nextID); }
        ran++;
        try { next.fn(...next.args); } catch (e) { console.error(e); }
      }
      setOffset(target - realNow());
      return ran;
    },
  };
  window.__clock = clock;
  if (window.navigation) {
    window.navigation.addEventListener('navigate', (e) => {
      try { sessionStorage.setItem(NAV, JSON.stringify(navs().concat([e.destination.url]))); } catch (_) {}
    });
  }
})()`

// fakeClock installs fakeClockJS in ctx's tab, starting at start (zero:
// now) for pages opened from then on. It also blocks /healthz: the live
// stream's watchdog reloads a page whose stream was silent for 45 s, and
// an advance is minutes without a keep-alive (they come on the real clock)
// — without the block every advance on a page with a stream would reload
// it, and the test would measure the watchdog, not the page. The
// watchdog's reload waits for /healthz to answer, so the page stays and
// shows "reconnecting".
func fakeClock(t *testing.T, ctx context.Context, start time.Time) {
	t.Helper()
	ms := "0"
	if !start.IsZero() {
		ms = strconv.FormatInt(start.UnixMilli(), 10)
	}
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument,
		page.AddScriptToEvaluateOnNewDocumentParams{Source: strings.Replace(fakeClockJS, "%START%", ms, 1)}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, network.SetBlockedURLs, network.SetBlockedURLsParams{
		URLPatterns: []*network.BlockPattern{{URLPattern: "*://*:*/healthz", Block: true}}}); err != nil {
		t.Fatal(err)
	}
}

// advance moves the page's fake clock forward by d and returns how many
// timer callbacks ran on the way. Long advances go an hour per call (an
// hour of one-second ticks takes a while on a busy machine); a page that
// navigates away ends the advance there.
func advance(t *testing.T, ctx context.Context, d time.Duration) int {
	t.Helper()
	total := 0
	for d > 0 {
		step := min(d, time.Hour)
		var ran int
		if err := eval(ctx, "window.__clock.advance("+strconv.FormatInt(step.Milliseconds(), 10)+")", &ran); err != nil {
			t.Fatal(err)
		}
		total += ran
		d -= step
		if d > 0 && len(navigations(t, ctx)) > 0 {
			break
		}
	}
	return total
}

// fakeNow is the page's fake time.
func fakeNow(t *testing.T, ctx context.Context) time.Time {
	t.Helper()
	var ms float64
	if err := eval(ctx, "window.__clock.now()", &ms); err != nil {
		t.Fatal(err)
	}
	return time.UnixMilli(int64(ms))
}

// advanceTo moves the page's fake clock forward to at (the real clock
// keeps it moving between calls, so a test states the times it means).
func advanceTo(t *testing.T, ctx context.Context, at time.Time) int {
	t.Helper()
	d := at.Sub(fakeNow(t, ctx))
	if d < 0 {
		t.Fatalf("the page's clock is already %v past %s", -d, at)
	}
	return advance(t, ctx, d)
}

// navigations are the navigations the page started since it loaded.
func navigations(t *testing.T, ctx context.Context) []string {
	t.Helper()
	var out []string
	var err error
	for start := time.Now(); time.Since(start) < 5*time.Second; time.Sleep(20 * time.Millisecond) {
		// Asked while the page navigates, the evaluation fails; the
		// next page has the fake clock (and the list) too.
		if err = eval(ctx, "window.__clock.navigations", &out); err == nil {
			return out
		}
	}
	t.Fatal(err)
	return nil
}

// navigateTo opens url like a typed address and waits until the page
// (with or without a live stream) has loaded with the fake clock in it.
func navigateTo(t *testing.T, ctx context.Context, url string) {
	t.Helper()
	do(t, ctx, chromedp.Navigate(url))
	until(t, ctx, 10*time.Second, `location.href === `+jsString(url)+` && document.readyState === 'complete' && window.__clock && `+
		`(!document.getElementById('live') || document.body.dataset.hearthLive === '1')`)
	js(t, ctx, `window.__clock.clearNavigations()`)
}
