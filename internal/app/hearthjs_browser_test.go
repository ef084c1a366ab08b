package app_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"hearth/internal/app"
)

// countIntl runs before any page script: it counts Intl.DateTimeFormat
// constructions in window.__intl.
const countIntl = `(() => {
  const D = Intl.DateTimeFormat;
  window.__intl = 0;
  const Counted = function (...a) { window.__intl++; return new D(...a); };
  Counted.prototype = D.prototype;
  Counted.supportedLocalesOf = D.supportedLocalesOf;
  Intl.DateTimeFormat = Counted;
})()`

// fixedNowScript makes "now" at for the page's scripts.
func fixedNowScript(at time.Time) string {
	return fmt.Sprintf(`(() => {
  const T = %d;
  const R = Date;
  class Fake extends R { constructor(...a) { if (a.length === 0) super(T); else super(...a); } static now() { return T; } }
  window.Date = Fake;
})()`, at.UnixMilli())
}

// The household clock shows the household's time and date without Intl:
// a fresh renderer's first Intl formatter costs 16-40 ms (ICU's start), the
// household page's longest task (BENCHMARKS.md, "Lighthouse"). The page
// gives the zone's offset and when it ends; past the end (a
// daylight-saving change since the page was made) Intl formats as before.
// St John's: a half-hour offset with daylight saving.
func TestHouseholdClockWithoutIntl(t *testing.T) {
	loc, err := time.LoadLocation("America/St_Johns")
	if err != nil {
		t.Skipf("no zone data: %v", err)
	}
	dir := t.TempDir()
	srv := startApp(t, app.Config{Addr: "127.0.0.1:0", DataDir: dir, DBPath: filepath.Join(dir, "hearth.db"), Location: loc, KioskIdle: 10 * time.Minute})
	seed(t, srv.app)
	browser := newBrowser(t, 1024, 768)

	// aTick waits past the clock's next tick.
	aTick := func(ctx context.Context) {
		t.Helper()
		js(t, ctx, `window.__t0 = performance.now()`)
		until(t, ctx, 5*time.Second, `performance.now() - window.__t0 > 1100`)
	}
	read := func(ctx context.Context) (clock, date string, intl int) {
		t.Helper()
		var got struct {
			Clock, Date string
			Intl        int
		}
		if err := eval(ctx, `({clock: document.getElementById('clock').textContent, date: document.getElementById('date').textContent, intl: window.__intl})`, &got); err != nil {
			t.Fatal(err)
		}
		return got.Clock, got.Date, got.Intl
	}
	onNewDocument := func(ctx context.Context, scripts ...string) {
		t.Helper()
		for _, s := range scripts {
			if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: s}); err != nil {
				t.Fatal(err)
			}
		}
	}

	t.Run("with the zone's offset", func(t *testing.T) {
		ctx := newTab(t, browser, 20*time.Second)
		onNewDocument(ctx, countIntl)
		before := time.Now().In(loc)
		open(t, ctx, srv.url+"/")
		aTick(ctx)
		clock, date, intl := read(ctx)
		after := time.Now().In(loc)
		if clock != before.Format("15:04") && clock != after.Format("15:04") {
			t.Errorf("clock %q, want %q (St John's time)", clock, after.Format("15:04"))
		}
		if date != before.Format("Monday 2 January") && date != after.Format("Monday 2 January") {
			t.Errorf("date %q, want %q", date, after.Format("Monday 2 January"))
		}
		if intl != 0 {
			t.Errorf("the page made %d Intl.DateTimeFormat at load; the clock needs none", intl)
		}
	})

	t.Run("past the offset's end", func(t *testing.T) {
		// A day into the next zone period, whose offset differs: the
		// page's offset would put the clock an hour off.
		_, end := time.Now().In(loc).ZoneBounds()
		at := end.Add(24 * time.Hour).In(loc)
		ctx := newTab(t, browser, 20*time.Second)
		onNewDocument(ctx, countIntl, fixedNowScript(at))
		do(t, ctx, chromedp.Navigate(srv.url+"/"))
		until(t, ctx, 10*time.Second, `document.readyState === 'complete' && window.__intl > 0`)
		aTick(ctx)
		clock, date, _ := read(ctx)
		if clock != at.Format("15:04") || date != at.Format("Monday 2 January") {
			t.Errorf("clock %q date %q, want %q %q (Intl in the zone)", clock, date, at.Format("15:04"), at.Format("Monday 2 January"))
		}
	})
}

// hearth.js's one observer of the page's changes does what its three did:
// a flash message shows (and fades), a toast shown by a patch gets its
// Undo timer, and a chat log (the coach's or the house's) follows what is
// written into it.
func TestPageHelpersFollowChanges(t *testing.T) {
	srv := seededApp(t)
	ctx := newTab(t, newBrowser(t, 1024, 768), 20*time.Second)
	open(t, ctx, srv.url+"/m/ada")

	js(t, ctx, `document.getElementById('flash').textContent = 'Saved.'`)
	until(t, ctx, 3*time.Second, `document.getElementById('flash').classList.contains('show')`)

	js(t, ctx, `(() => { const t = document.getElementById('toast'); t.textContent = 'Weigh-in deleted.'; t.classList.add('show') })()`)
	until(t, ctx, 3*time.Second, `document.getElementById('toast').dataset.shown === '1'`)

	js(t, ctx, `(() => { const log = document.createElement('div'); log.id = 'house-log'; log.className = 'chat-log'; log.style.cssText = 'height: 50px; overflow: auto';
		document.body.append(log); for (let i = 0; i < 20; i++) { const p = document.createElement('p'); p.textContent = 'line ' + i; log.append(p) } })()`)
	until(t, ctx, 3*time.Second, `(() => { const log = document.getElementById('house-log'); return log.scrollTop > 0 && log.scrollTop + log.clientHeight >= log.scrollHeight - 1 })()`)
}
