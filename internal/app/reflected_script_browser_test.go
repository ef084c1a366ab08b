package app_test

import (
	"context"
	"net/url"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// reflectedPayload is the outside review's exploit: inside a Datastar
// expression the "@name(" rewrite inserts a double quote that ends a JSON
// string, and the __escaped placeholder restores the code between the
// 🖕JS_ … _DS🚀 markers as live code.
const reflectedPayload = "@__escaped0(🖕JS_+(document.title='PWNED')+_DS🚀"

// TestQueryTextRunsNoScript loads admin and kiosk URLs with the payload in
// every query parameter Hearth reads (the admin is open to loopback here, as
// in the review) and fails if the page's title changes.
func TestQueryTextRunsNoScript(t *testing.T) {
	browser := newBrowser(t, 1280, 800)
	srv := seededApp(t)
	ctx, cancel := chromedp.NewContext(browser)
	defer cancel()
	if err := chromedp.Do(ctx); err != nil {
		t.Fatal(err)
	}
	ctx, cancelT := context.WithTimeout(ctx, 60*time.Second)
	defer cancelT()
	for _, u := range []string{
		"/admin/runs?agent=", "/admin/runs?assignment=", "/admin/runs?member=", "/admin/todos?show=",
		"/admin/catalog?q=", "/admin/memory?member=", "/admin/schedules?created_by=", "/m/ada/catalog?q=",
		"/admin/definitions?saved=", "/m/ada?q=",
	} {
		do(t, ctx, chromedp.Navigate(srv.url+u+url.QueryEscape(reflectedPayload)))
		until(t, ctx, 5*time.Second, `document.readyState === 'complete'`)
		datastarApplied(t, ctx) // Datastar applies attributes a tick after load
		var title string
		if err := eval(ctx, "document.title", &title); err != nil {
			t.Fatal(err)
		}
		if title == "PWNED" {
			t.Errorf("%s: the query text ran as script", u)
		}
	}
}
