package app_test

import (
	"testing"
	"time"
)

// The demo's "No meals logged yesterday → Log a meal" opens the meal sheet
// dated yesterday, so the meal logged from it fills the gap and the
// reminder goes; "+ Meal" afterwards is dated now again. On main the
// sheet was dated now: the meal landed on today and the reminder stayed.
// Checked by opening the CTA's sheet like "+ Meal" (OpenSheet): the date
// is today's and the test stops there.
func TestDataGapCTAOpensItsSheetOnTheMissingDay(t *testing.T) {
	browser := newBrowser(t, 1280, 800)
	srv := demoApp(t)
	tab := newTab(t, browser, 2*time.Minute)
	open(t, tab, srv.url+"/m/maya")
	gap := `[...document.querySelectorAll('#coach .cta')].some(li => li.textContent.includes('No meals logged yesterday.'))`
	until(t, tab, 3*time.Second, gap)
	now := time.Now().UTC()
	yesterday, today := now.AddDate(0, 0, -1).Format(time.DateOnly), now.Format(time.DateOnly)
	when := `document.querySelector('#form-meal input[name=when]').value`
	shown := `getComputedStyle(document.getElementById('sheet-meal')).display !== 'none'`

	click(t, tab, `#coach .cta button.cta-day`)
	until(t, tab, 3*time.Second, shown+` && `+when+`.startsWith('`+yesterday+`T')`)
	typeInto(t, tab, `#form-meal input[name=name]`, "Leftover curry")
	typeInto(t, tab, `#form-meal input[name=calories]`, "640")
	click(t, tab, `#form-meal button.big`)
	until(t, tab, 3*time.Second, `!(`+shown+`)`)
	until(t, tab, 5*time.Second, `!(`+gap+`)`)

	click(t, tab, `.quick .quick-btn:nth-child(2)`) // + Meal
	until(t, tab, 3*time.Second, shown+` && `+when+`.startsWith('`+today+`T')`)
}
