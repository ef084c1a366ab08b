package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"hearth/internal/app"
	"hearth/internal/testkit"
)

// axeSource is axe-core's browser bundle, which `make axe` (and so `make
// test`) fetches from the npm registry into .cache/ (never committed). The
// Makefile exports its path as HEARTH_AXE_JS; without the variable the test
// looks in the same place. Missing, it skips locally and fails in CI.
func axeSource(t *testing.T) string {
	t.Helper()
	path := os.Getenv("HEARTH_AXE_JS")
	if path == "" {
		path = filepath.Join("..", "..", ".cache", "axe-core", "node_modules", "axe-core", "axe.min.js")
	}
	src, err := os.ReadFile(path)
	testkit.Need(t, err == nil, fmt.Sprintf("axe-core is not fetched (%v): run `make axe` (npm install of the pinned axe-core into .cache/axe-core)", err))
	return string(src)
}

// axeResult is the part of axe.run's result the test reads; the artifact
// keeps all of it.
type axeResult struct {
	TestEngine             struct{ Version string } `json:"testEngine"`
	Violations, Incomplete []axeRule
	H1                     int `json:"h1"`
}

type axeRule struct {
	ID, Impact, Help string
	Nodes            []struct {
		Target []any
	}
}

// failsAlways are axe rules of a lower impact this test holds to as well:
// a page names itself in a level-one heading, a table header is never empty.
var failsAlways = map[string]bool{"page-has-heading-one": true, "empty-table-header": true}

// axe-core 4 (its default rules: WCAG 2.x A/AA and best practices) finds
// nothing serious or critical on any kiosk or admin page, including the
// dashboard's logging sheets and the chat sheet open, the enrolment pages
// and the "not enrolled" screen, logged in to the admin pages with a
// password (and the login page logged out); every page has exactly one <h1>. Each
// page's full axe result is saved as axe-<page>.json in the artifacts.
func TestAxeFindsNothingSeriousOnAnyPage(t *testing.T) {
	browser := newBrowser(t, 1280, 800)
	axeJS := axeSource(t)
	srv, ids := layoutApp(t, func(c *app.Config) { c.AdminPassword = "hunter2" })
	kiosk, admin := layoutPages(t, srv, ids)
	ctx := newTab(t, browser, 10*time.Minute)
	dir := artifacts(t)
	a := srv.app

	perRule := map[string]int{} // rule (impact) → nodes, over every page
	review := map[string]int{}  // the same for what axe could not decide
	checked := 0
	check := func(name string) {
		t.Helper()
		datastarApplied(t, ctx)
		// A sheet slides in: contrast is measured once transitions end
		// (an endless animation, the reconnecting dot's, is left alone).
		until(t, ctx, 5*time.Second, `document.getAnimations().every(a => a.playState !== 'running' || a.effect.getComputedTiming().iterations === Infinity)`)
		js(t, ctx, axeJS)
		raw := axeRun(t, ctx, `axe.run(document, {resultTypes: ['violations', 'incomplete']}).then(r => JSON.stringify(Object.assign(r, {h1: document.querySelectorAll('h1').length})))`)
		file := "axe-" + strings.Trim(strings.NewReplacer("/", "_", "?", "_", "=", "_", " ", "_").Replace(name), "_") + ".json"
		if file == "axe-.json" {
			file = "axe-household.json"
		}
		if err := os.WriteFile(filepath.Join(dir, file), []byte(raw), 0o644); err != nil {
			t.Fatal(err)
		}
		var r axeResult
		if err := json.Unmarshal([]byte(raw), &r); err != nil {
			t.Fatalf("%s: axe result: %v", name, err)
		}
		if !strings.HasPrefix(r.TestEngine.Version, "4.") {
			t.Fatalf("axe-core %s, want 4.x", r.TestEngine.Version)
		}
		checked++
		for _, v := range r.Violations {
			if v.Impact != "serious" && v.Impact != "critical" && !failsAlways[v.ID] {
				continue
			}
			perRule[v.ID+" ("+v.Impact+")"] += len(v.Nodes)
			var sels []string
			for i, n := range v.Nodes {
				if i == 3 {
					sels = append(sels, fmt.Sprintf("… %d more", len(v.Nodes)-3))
					break
				}
				sel, _ := json.Marshal(n.Target)
				sels = append(sels, string(sel))
			}
			t.Errorf("%s: %s (%s), %d nodes: %s: %s", name, v.ID, v.Impact, len(v.Nodes), v.Help, strings.Join(sels, ", "))
		}
		for _, v := range r.Incomplete {
			if v.Impact == "serious" || v.Impact == "critical" {
				review[v.ID+" ("+v.Impact+")"] += len(v.Nodes)
			}
		}
		if r.H1 != 1 {
			perRule["one h1"]++
			t.Errorf("%s: %d <h1> elements, want exactly 1", name, r.H1)
		}
	}
	visit := func(path string) {
		t.Helper()
		do(t, ctx, chromedp.Navigate(srv.url+path))
		until(t, ctx, 10*time.Second, `document.readyState === 'complete' && (!document.getElementById('live') || document.body.dataset.hearthLive === '1')`)
	}

	// The admin logs in as in any browser: the login page, a wrong
	// password's answer, then the right one.
	visit("/admin/login")
	check("/admin/login (logged out)")
	typeInto(t, ctx, `input[name=password]`, "not the password")
	click(t, ctx, `.login button[type=submit]`)
	until(t, ctx, 10*time.Second, `document.readyState === 'complete' && document.querySelector('.login .field-error')`)
	check("/admin/login (wrong password)")
	typeInto(t, ctx, `input[name=password]`, "hunter2")
	click(t, ctx, `.login button[type=submit]`)
	until(t, ctx, 10*time.Second, `location.pathname === '/admin' && document.readyState === 'complete' && document.querySelector('.logout')`)

	for _, p := range append(kiosk, admin...) {
		visit(p)
		check(p)
	}

	// The dashboard's sheets, each open in turn, the chat's too.
	open(t, ctx, srv.url+"/m/maya")
	for _, s := range []string{"weight", "meal", "workout", "scan"} {
		click(t, ctx, `[data-on\:click="$_sheet = '`+s+`'"]`)
		until(t, ctx, 3*time.Second, `getComputedStyle(document.getElementById('sheet-`+s+`')).display !== 'none'`)
		check("/m/maya sheet " + s)
		click(t, ctx, `#sheet-`+s+` .sheet-head button`)
		until(t, ctx, 3*time.Second, `getComputedStyle(document.getElementById('sheet-`+s+`')).display === 'none'`)
	}
	click(t, ctx, `.quick .ask-coach`)
	until(t, ctx, 5*time.Second, `getComputedStyle(document.getElementById('sheet-chat')).display !== 'none' &&
		document.querySelector('#chat-form input[name=message]')`)
	check("/m/maya sheet chat")

	// A screen's way in: the enrolment link's page, a link that cannot be
	// used, and the kiosk when the household requires enrolment.
	_, code, err := a.Devices.StartEnrolment(context.Background(), "Hall tablet")
	if err != nil {
		t.Fatal(err)
	}
	visit("/enrol/" + code)
	check("/enrol/(code)")
	visit("/enrol/not-a-code")
	check("/enrol/not-a-code")
	if err := a.Devices.SetRequired(context.Background(), true); err != nil {
		t.Fatal(err)
	}
	visit("/admin")
	click(t, ctx, `.logout button`) // the admin may use the kiosk without a device token
	until(t, ctx, 10*time.Second, `document.readyState === 'complete' && !document.querySelector('.logout')`)
	visit("/")
	until(t, ctx, 5*time.Second, `document.getElementById('not-enrolled')`)
	check("/ not enrolled")

	t.Logf("axe-core checked %d pages and states; serious or critical (and required) findings: %s", checked, tally(perRule))
	// "Incomplete" is axe's "needs review": text over a gradient or an SVG,
	// a symbol's name, aria-label on an element without a role. They do not
	// fail the test; the artifacts hold each node.
	t.Logf("serious or critical, for a person to review: %s; results in %s", tally(review), dir)
}

func tally(m map[string]int) string {
	rules := make([]string, 0, len(m))
	for r, n := range m {
		rules = append(rules, fmt.Sprintf("%s: %d nodes", r, n))
	}
	sort.Strings(rules)
	return strings.Join(append(rules, fmt.Sprint(len(rules), " rules")), "; ")
}

// axeRun evaluates expr, a promise of a string, in the page and returns the
// string (eval's three seconds are too short for axe on a long page).
func axeRun(t *testing.T, ctx context.Context, expr string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	yes := true
	r, err := chromedp.Call(ctx, runtime.Evaluate, runtime.EvaluateParams{Expression: expr, AwaitPromise: &yes, ReturnByValue: &yes})
	if err != nil {
		t.Fatal(err)
	}
	if r.ExceptionDetails != nil {
		t.Fatalf("axe.run: %s %v", r.ExceptionDetails.Text, r.ExceptionDetails.Exception)
	}
	var s string
	if r.Result == nil || json.Unmarshal(r.Result.Value, &s) != nil {
		t.Fatalf("axe.run returned %v", r.Result)
	}
	return s
}
