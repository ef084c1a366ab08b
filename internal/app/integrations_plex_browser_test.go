package app_test

import (
	"context"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"hearth/internal/app"
	"hearth/internal/content/plextest"
)

// In a browser, the Plex card answers in place like the Home Assistant
// one: Test connection keeps what was typed and turns the section field
// into a select of the server's sections; Save shows the token only as
// "set" and empties its field.
func TestPlexCardInBrowser(t *testing.T) {
	const token = "browser-plex-token-8e1f"
	browser := newBrowser(t, 1280, 900)
	px := plextest.New(t, token, plextest.Library("3", "Fitness", 2, 2), plextest.Section{Key: "7", Title: "Movies", Type: "movie"})
	dir := t.TempDir()
	srv := startApp(t, app.Config{Addr: "127.0.0.1:0", DataDir: dir, DBPath: filepath.Join(dir, "hearth.db"),
		Location: time.UTC, KioskIdle: 10 * time.Minute, CatchUp: 12 * time.Hour, Prices: app.DefaultPrices})
	ctx := newTab(t, browser, 60*time.Second)
	do(t, ctx, chromedp.Navigate(srv.url+"/admin/integrations"))
	until(t, ctx, 10*time.Second, `document.readyState === 'complete' && !!document.getElementById('plex')`)
	datastarApplied(t, ctx)
	js(t, ctx, `window.__sameDocument = true`)
	tokenField := `document.querySelector('input[name=plex_token]').value`

	do(t, ctx, chromedp.SendKeys(chromedp.CSS(`input[name=plex_url]`), px.URL), chromedp.SendKeys(chromedp.CSS(`input[name=plex_token]`), token),
		chromedp.SendKeys(chromedp.CSS(`input[name=plex_section]`), "3"),
		chromedp.Click(chromedp.CSS(`#plex button[formaction]`)))
	until(t, ctx, 10*time.Second, `document.getElementById('plex-result').textContent.includes('2 library sections; section 3 holds 2 items')`)
	until(t, ctx, time.Second, `window.__sameDocument === true && `+tokenField+` === `+strconv.Quote(token)+
		` && document.querySelector('select[name=plex_section]').value === '3' && document.querySelectorAll('select[name=plex_section] option').length === 3`)
	if v, _ := srv.app.Settings.Get(context.Background(), "plex.url"); v != "" {
		t.Fatalf("Test connection saved the URL %q", v)
	}

	// Choose the other section and save: the token is "set", its field empty.
	js(t, ctx, `document.querySelector('select[name=plex_section]').value = '7'`)
	do(t, ctx, chromedp.Click(chromedp.CSS(`#plex button[type=submit]:not([formaction])`)))
	until(t, ctx, 10*time.Second, `document.getElementById('plex-token-state').textContent.includes('Saved token: set')`)
	until(t, ctx, time.Second, tokenField+` === '' && document.getElementById('plex-result').textContent.includes('saved')`)
	bg := context.Background()
	if tok, err := srv.app.Settings.Secret(bg, "plex.token"); err != nil || tok != token {
		t.Fatalf("saved token: %v", err)
	}
	if s, _ := srv.app.Settings.Get(bg, "plex.section"); s != "7" {
		t.Fatalf("saved section %q, want 7", s)
	}
	// The new card is live: a test with the empty field uses the saved token.
	datastarApplied(t, ctx)
	do(t, ctx, chromedp.Click(chromedp.CSS(`#plex button[formaction]`)))
	until(t, ctx, 10*time.Second, `window.__sameDocument === true && document.getElementById('plex-result').textContent.includes('section 7 holds 0 items')`)
}
