package app_test

import (
	"context"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"hearth/internal/app"
	"hearth/internal/health"
	"hearth/internal/history/historytest"
)

// Ten years of history that ended in March 2024, on the wall tablet: the
// weight widget shows the last reading as history ("Last weighed … 2024",
// the chart's days dated with their year, a gap shaded, no week's change),
// its "History ›" opens the whole history (a chart of every month, the
// meals and workouts as bars), and a span with nothing in it says where
// the history is.
func TestImportedHistoryOnTheWall(t *testing.T) {
	browser := newBrowser(t, 1280, 800)
	dir := t.TempDir()
	srv := startApp(t, app.Config{Addr: "127.0.0.1:0", DataDir: dir, DBPath: filepath.Join(dir, "hearth.db"), Location: time.UTC, KioskIdle: 10 * time.Minute})
	ctx := context.Background()
	goal, kcal := 80.0, 2000.0
	if _, err := srv.app.DB.CreateMember(ctx, health.Member{ID: "ada", Name: "Ada", Color: "#e07a5f", GoalWeightKg: &goal,
		Targets: health.Targets{Calories: &kcal}}); err != nil {
		t.Fatal(err)
	}
	c, err := historytest.Write(ctx, srv.app.DB, historytest.Plan{Member: "ada", Last: time.Date(2024, 3, 14, 0, 0, 0, 0, time.UTC),
		Days: 3653, StartKg: 92, EndKg: 84, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	tab := newTab(t, browser, 2*time.Minute)
	shots := artifacts(t)
	open(t, tab, srv.url+"/m/ada")
	var got struct {
		Last, Ticks, Headline string
		Delta                 bool
	}
	if err := eval(tab, `(() => {
		const w = document.getElementById('w-weight');
		return {last: w.querySelector('[data-testid=last-weighed]')?.innerText || '',
			ticks: [...w.querySelectorAll('.tick-x')].map(t => t.textContent).join('|'),
			headline: w.querySelector('.headline')?.innerText || '', delta: !!w.querySelector('.delta')};
	})()`, &got); err != nil {
		t.Fatal(err)
	}
	screenshot(t, tab, shots, "history-stale-widget.png", false)
	if !regexp.MustCompile(`^Last weighed 1[0-4] Mar 2024$`).MatchString(got.Last) || got.Delta {
		t.Errorf("the widget shows the 2024 reading as current: last %q, week's change %v", got.Last, got.Delta)
	}
	if !regexp.MustCompile(`^1[0-4] Feb 2024\|.* 2024\|1[0-4] Mar 2024$`).MatchString(got.Ticks) {
		t.Errorf("the chart's days %q, want dated with 2024", got.Ticks)
	}
	// The recent workouts carry their year too.
	until(t, tab, 5*time.Second, `/ Mar 2024/.test(document.getElementById('w-workouts').innerText)`)

	// History › from the weight widget opens everything, at the weight.
	click(t, tab, `#w-weight .hist-link`)
	until(t, tab, 10*time.Second, `location.pathname === '/m/ada/history' && location.search === '?span=all' && document.readyState === 'complete'`)
	var h struct {
		Tab, Sum   string
		Bars, Dots int
		Since      string
	}
	if err := eval(tab, `(() => ({
		tab: document.querySelector('.history-tabs [aria-current=page]').innerText,
		sum: document.querySelector('#weight .history-sum').innerText,
		bars: document.querySelectorAll('#nutrition rect.bar-v').length,
		dots: document.querySelectorAll('#weight circle.raw').length,
		since: document.querySelector('.history-head .muted').innerText}))()`, &h); err != nil {
		t.Fatal(err)
	}
	screenshot(t, tab, shots, "history-all.png", true)
	if h.Tab != "All" || !regexp.MustCompile(`^Trend 9\d(\.\d)? kg → 8\d(\.\d)? kg \(−`).MatchString(h.Sum) ||
		!regexp.MustCompile(health.Thousands(float64(c.Weights))+` weigh-ins`).MatchString(h.Sum) {
		t.Errorf("history: tab %q, weight %q", h.Tab, h.Sum)
	}
	if h.Bars < 110 || h.Dots < 110 || !regexp.MustCompile(`^Records since 1[3-7] Mar 2014$`).MatchString(h.Since) {
		t.Errorf("history: %d month bars, %d weight points, %q", h.Bars, h.Dots, h.Since)
	}
	// The page fits the tablet's width, and a span with nothing in it
	// points back to everything.
	until(t, tab, 5*time.Second, `document.documentElement.scrollWidth <= window.innerWidth`)
	click(t, tab, `.history-tabs a[href="/m/ada/history"]`)
	until(t, tab, 10*time.Second, `location.search === '' && !!document.querySelector('[data-testid=history-empty]')`)
	until(t, tab, 5*time.Second, `/Nothing logged in the last 3 months/.test(document.querySelector('[data-testid=history-empty]').innerText)`)
	click(t, tab, `[data-testid=history-empty] a`)
	until(t, tab, 10*time.Second, `location.search === '?span=all'`)
	// ← Dashboard goes back to the member.
	click(t, tab, `.history-head a`)
	until(t, tab, 10*time.Second, `location.pathname === '/m/ada'`)
}
