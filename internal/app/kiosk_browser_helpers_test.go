package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"hearth/internal/testkit"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"hearth/internal/app"
	"hearth/internal/dashboard"
	"hearth/internal/health"
	"hearth/internal/store"
)

// running is an app serving on a loopback port.
type running struct {
	app    *app.App
	url    string
	addr   string
	cancel context.CancelFunc
	done   chan error
}

// startApp builds and serves an app; binding a fixed port is retried for a
// few seconds (after a restart the old socket may linger briefly).
func startApp(t *testing.T, cfg app.Config) *running {
	t.Helper()
	return startAppWith(t, cfg, app.Options{})
}

// startAppWith is startApp for an app that differs by opts (a clock).
func startAppWith(t *testing.T, cfg app.Config, opts app.Options) *running {
	t.Helper()
	var a *app.App
	var addr net.Addr
	testkit.WaitFor(t, testkit.Patience, "the app to bind "+cfg.Addr, func() bool {
		var err error
		if a, err = app.NewWith(context.Background(), cfg, nil, opts); err != nil {
			t.Fatal(err)
		}
		if addr, err = a.Listen(); err != nil {
			t.Logf("listen: %v", err) // shown if the wait fails
			_ = a.Close()
			return false
		}
		return true
	})
	ctx, cancel := context.WithCancel(context.Background())
	r := &running{app: a, url: "http://" + addr.String(), addr: addr.String(), cancel: cancel, done: make(chan error, 1)}
	go func() { r.done <- a.Serve(ctx) }()
	t.Cleanup(func() { r.stop(t) })
	return r
}

// stop shuts the app down (idempotent) and waits for Serve to return.
func (r *running) stop(t *testing.T) {
	t.Helper()
	if r.done == nil {
		return
	}
	r.cancel()
	select {
	case err := <-r.done:
		if err != nil {
			t.Errorf("serve: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Error("app did not stop within 10 s (open streams not ended?)")
	}
	r.done = nil
}

// seed gives ada a month of data and today's hand-made document, and bo a
// document full of hostile text; the coach is not involved.
func seed(t *testing.T, a *app.App) {
	t.Helper()
	ctx := context.Background()
	now := time.Now().UTC()
	goal, cal, prot, carbs, fat := 66.0, 1800.0, 120.0, 200.0, 60.0
	if _, err := a.DB.CreateMember(ctx, health.Member{ID: "ada", Name: "Ada", Color: "#e07a5f", Avatar: "A", GoalWeightKg: &goal,
		Targets: health.Targets{Calories: &cal, ProteinG: &prot, CarbsG: &carbs, FatG: &fat}}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.DB.CreateMember(ctx, health.Member{ID: "bo", Name: "Bo", Color: "#3d85c6", Avatar: "B", Unit: health.LB}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Catalog.LoadDemo(ctx); err != nil {
		t.Fatal(err)
	}
	err := a.DB.Tx(ctx, func(tx *store.Tx) error {
		for i := 30; i >= 1; i-- {
			kg := 70 - float64(30-i)*0.05 + float64(i%3)*0.2
			w := health.WeightReading{MemberID: "ada", MeasuredAt: now.AddDate(0, 0, -i), WeightKg: kg, SourceKey: fmt.Sprint(i), Source: "scale"}
			if _, err := store.InsertWeight(ctx, tx, now, &w); err != nil {
				return err
			}
		}
		for i, m := range []health.Meal{{Name: "Oats & berries", Calories: 420, ProteinG: 18, CarbsG: 70, FatG: 8}, {Name: "Chicken salad", Calories: 560, ProteinG: 45, CarbsG: 20, FatG: 28}} {
			m.MemberID, m.EatenAt, m.SourceKey, m.Source = "ada", now.Add(-time.Duration(3-i)*time.Hour), fmt.Sprint(i), "app"
			if _, err := store.InsertMeal(ctx, tx, now, &m); err != nil {
				return err
			}
		}
		hr := 138
		for i, d := range []int{1, 3, 5} {
			w := health.Workout{MemberID: "ada", StartedAt: now.AddDate(0, 0, -d), Type: "strength", Title: "Ironwood Day " + fmt.Sprint(i+1),
				DurationMin: 40, AvgHR: &hr, SourceKey: fmt.Sprint(i), Source: "watch"}
			if _, err := store.InsertWorkout(ctx, tx, now, &w); err != nil {
				return err
			}
		}
		scan := health.BodyScan{MemberID: "ada", ScannedAt: now.AddDate(0, 0, -20), BodyFatPct: new(27.4), LeanMassKg: new(49.8), SourceKey: "1", Source: "dexa"}
		if _, err := store.InsertBodyScan(ctx, tx, now, &scan); err != nil {
			return err
		}
		day := now.Format(time.DateOnly)
		if err := a.Dashboards.PutTx(ctx, tx, now, "ada", day, 1, adaDoc(now), "weight, meals, 3 notes"); err != nil {
			return err
		}
		return a.Dashboards.PutTx(ctx, tx, now, "bo", day, 2, evilDoc(now), "weight")
	})
	if err != nil {
		t.Fatal(err)
	}
}

func adaDoc(now time.Time) dashboard.Document {
	return dashboard.Document{
		GeneratedAt: now.Add(-2 * time.Hour),
		Curated: dashboard.Curated{
			UpNext: dashboard.UpNext{
				Primary: &dashboard.ContentRef{ContentID: "local:ember-core-05", Title: "Standing Core Burn", Duration: 20, ProgramContext: "Week 1, Day 5"},
				Alternates: []dashboard.ContentRef{
					{ContentID: "local:ember-core-02", Title: "Plank Ladder", Duration: 18, Reason: "light_option"},
				},
			},
			PlaylistSuggestion: []dashboard.ContentRef{
				{ContentID: "local:ember-core-01", Title: "Core Ignite", Duration: 15},
				{ContentID: "local:ember-core-05", Title: "Standing Core Burn", Duration: 20},
			},
		},
		Coach: dashboard.Coach{
			Briefing: "Down 1.1 kg over the month, right on pace for 66 kg. Protein is at 63 g so far today; a protein-rich dinner gets you to 120 g.",
			CTA: []dashboard.CTA{
				{Type: dashboard.CTADataGap, Message: "No weigh-in yesterday or today.", Action: dashboard.ActionOpenWeight},
				{Type: dashboard.CTAHabit, Message: "Log dinner tonight to keep the streak.", Action: dashboard.ActionOpenNutrition},
			},
			Prompts: []dashboard.Prompt{
				{ID: "p1", Type: dashboard.PromptMultipleChoice, Question: "Ready for Standing Core Burn today?", Options: []string{"Yes, let's go", "Something lighter", "Rest day"}},
				{ID: "p2", Type: dashboard.PromptVoiceMemo, Question: "How did your back feel after Tuesday's session?"},
			},
			Feedback: []string{"Three strength sessions this week, your most consistent week yet."},
		},
	}
}

const evil = `<script>alert(1)</script> '); alert(1); ('`

func evilDoc(now time.Time) dashboard.Document {
	return dashboard.Document{
		GeneratedAt: now.Add(-time.Hour),
		Coach: dashboard.Coach{
			Briefing: evil,
			Prompts:  []dashboard.Prompt{{ID: "p1", Type: dashboard.PromptMultipleChoice, Question: evil, Options: []string{evil, "Fine"}}},
			Feedback: []string{evil},
		},
	}
}

// eval runs JavaScript in the page's current document. It calls
// Runtime.evaluate without an execution context id: chromedp's own Evaluate
// tracks contexts per frame and can wait forever when it was polled while
// the page navigated, while the page's default context is always current.
func eval(ctx context.Context, expr string, out any) error {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	byValue := true
	r, err := chromedp.Call(ctx, runtime.Evaluate, runtime.EvaluateParams{Expression: expr, ReturnByValue: &byValue})
	if err != nil {
		return err
	}
	if r.ExceptionDetails != nil {
		return fmt.Errorf("%s: %s", expr, r.ExceptionDetails.Text)
	}
	if out == nil || r.Result == nil || len(r.Result.Value) == 0 {
		return nil
	}
	return json.Unmarshal(r.Result.Value, out)
}

// js runs a statement in the page.
func js(t *testing.T, ctx context.Context, expr string) {
	t.Helper()
	if err := eval(ctx, expr, nil); err != nil {
		t.Fatal(err)
	}
}

// until evaluates a JavaScript condition until it is true (surviving page
// navigations) and returns how long it took.
func until(t *testing.T, ctx context.Context, d time.Duration, expr string) time.Duration {
	t.Helper()
	start := time.Now()
	var last error
	for {
		var ok bool
		err := eval(ctx, "!!("+expr+")", &ok)
		if err == nil && ok {
			return time.Since(start)
		}
		last = err
		if time.Since(start) > d {
			var loc string
			_ = eval(ctx, "location.href", &loc)
			t.Fatalf("after %v on %s: still not %s (last error: %v)", d, loc, expr, last)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func do(t *testing.T, ctx context.Context, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		t.Fatal(err)
	}
}

// open navigates a tab like a typed address (a script-initiated navigation
// from about:blank would be cross-site and not carry the SameSite=Strict
// CSRF cookie) and waits until the page's live stream delivered.
func open(t *testing.T, ctx context.Context, url string) {
	t.Helper()
	do(t, ctx, chromedp.Navigate(url))
	until(t, ctx, 10*time.Second, `location.href === `+jsString(url)+` && document.readyState === 'complete' && document.body.dataset.hearthLive === '1'`)
}

// datastarApplied waits until Datastar has applied the attributes of the
// page as it is now: it appends an element whose data-init sets a flag,
// and Datastar handles elements in document order, so once the flag is set
// every attribute already on the page (a reflected payload's included) has
// been applied. An absence checked after this means something; after a
// sleep it would only mean the machine was slow.
func datastarApplied(t *testing.T, ctx context.Context) {
	t.Helper()
	js(t, ctx, `(() => { delete document.body.dataset.testApplied; const el = document.createElement('div'); `+
		`el.setAttribute('data-init', "document.body.dataset.testApplied = '1'"); document.body.append(el) })()`)
	until(t, ctx, 5*time.Second, `document.body.dataset.testApplied === '1'`)
}

// click clicks an element like a tap (element.click() dispatches the same
// click and submit events to Datastar, in front or not), once it is there
// and enabled: a form's button stays disabled until its last request has
// finished, which on a loaded machine ends a little after its patch arrived.
func click(t *testing.T, ctx context.Context, sel string) {
	t.Helper()
	until(t, ctx, 3*time.Second, `document.querySelector(`+jsString(sel)+`) && !document.querySelector(`+jsString(sel)+`).disabled`)
	js(t, ctx, `document.querySelector(`+jsString(sel)+`).click()`)
}

// typeInto replaces an input's value and fires the input event, as typing does.
func typeInto(t *testing.T, ctx context.Context, sel, text string) {
	t.Helper()
	js(t, ctx, `(() => { const el = document.querySelector(`+jsString(sel)+`); el.focus(); el.value = `+
		jsString(text)+`; el.dispatchEvent(new Event('input', {bubbles: true})) })()`)
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func artifacts(t *testing.T) string {
	dir := os.Getenv("HEARTH_ARTIFACTS")
	if dir == "" {
		return t.TempDir()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

func screenshot(t *testing.T, ctx context.Context, dir, name string, full bool) {
	t.Helper()
	act := chromedp.CaptureScreenshot()
	if full {
		act = chromedp.FullScreenshot(100)
	}
	png, err := chromedp.Run(ctx, act)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

func postJSON(t *testing.T, url, body string) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("POST %s: %d", url, resp.StatusCode)
	}
}

// seededApp serves a fresh app with seed's household (UTC, a long idle).
func seededApp(t *testing.T) *running {
	t.Helper()
	dir := t.TempDir()
	srv := startApp(t, app.Config{Addr: "127.0.0.1:0", DataDir: dir, DBPath: filepath.Join(dir, "hearth.db"), Location: time.UTC, KioskIdle: 10 * time.Minute})
	seed(t, srv.app)
	return srv
}

// newTab opens a tab of browser whose actions time out after d.
func newTab(t *testing.T, browser context.Context, d time.Duration) context.Context {
	t.Helper()
	ctx, cancel := chromedp.NewContext(browser)
	t.Cleanup(cancel)
	if err := chromedp.Do(ctx); err != nil { // open the tab on a context without a timeout
		t.Fatal(err)
	}
	ctx, cancelT := context.WithTimeout(ctx, d)
	t.Cleanup(cancelT)
	return ctx
}

// newBrowser starts Debian's chromium (skipping the test without it, or in
// -short mode) and returns a browser context; tabs are chromedp.NewContext
// of it. It is stopped when the test ends.
func newBrowser(t *testing.T, width, height int) context.Context {
	t.Helper()
	return newBrowserWith(t, width, height)
}

// newBrowserWith is newBrowser with extra Chromium options (a fake
// microphone, say).
func newBrowserWith(t *testing.T, width, height int, extra ...chromedp.ExecAllocatorOption) context.Context {
	t.Helper()
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	chromium := testkit.NeedTool(t, "chromium", "chromium")
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chromium), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-component-update", true), chromedp.WindowSize(width, height))
	opts = append(opts, extra...)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancelAlloc)
	browser, cancelBrowser := chromedp.NewContext(allocCtx)
	t.Cleanup(cancelBrowser)
	if err := chromedp.Do(browser); err != nil { // start the browser on a context without a timeout
		t.Fatal(err)
	}
	return browser
}
