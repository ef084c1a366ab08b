package app_test

import (
	"context"
	"testing"
	"time"

	"hearth/internal/app"
	"hearth/internal/talos"
)

// TestTalosConfirmationOnTheKioskInBrowser: on Ada's dashboard, "Home &
// TV" → "Unlock the front door" holds the unlock: the sheet asks "Unlock
// the front door?" with the adults who may confirm, and Home Assistant
// receives nothing. A wrong PIN is refused; Ada's PIN confirms it, and
// the door is unlocked. A second request nobody confirms within two
// minutes is refused at the tap, and nothing reaches Home Assistant.
func TestTalosConfirmationOnTheKioskInBrowser(t *testing.T) {
	browser := newBrowser(t, 1280, 800)
	ha := talosHome(t)
	clk := &settable{}
	srv := talosApp(t, app.Config{HAURL: ha.URL(), HAToken: haToken}, clk)
	if err := srv.app.Household.SetPIN(context.Background(), "ada", "2468"); err != nil {
		t.Fatal(err)
	}
	ctx := newTab(t, browser, 90*time.Second)

	ask := func(message string) {
		t.Helper()
		open(t, ctx, srv.url+"/m/ada")
		click(t, ctx, `.quick .ask-house`)
		until(t, ctx, 5*time.Second, `getComputedStyle(document.getElementById('sheet-house')).display !== 'none' &&
			document.querySelector('#house-form input[name=message]')`)
		typeInto(t, ctx, `#house-form input[name=message]`, message)
		click(t, ctx, `#house-form button[type=submit]`)
	}
	ask("Unlock the front door")
	until(t, ctx, 10*time.Second, `document.querySelector('#house-held .held-card .held-question')?.textContent === 'Unlock the front door?' &&
		[...document.querySelectorAll('#house-held .held-approvers label')].map(l => l.textContent.trim().split(/\s+/)[0]).join(',') === 'Ada,Bo'`)
	until(t, ctx, 5*time.Second, `document.querySelector('#house-log .chat-turn:not(.writing) .chat-text')?.textContent.includes('confirm')`)
	if n := len(ha.Calls()); n != 0 {
		t.Fatalf("Home Assistant was called before anyone confirmed: %+v", ha.Calls())
	}

	click(t, ctx, `#house-held input[name=approver][value=ada]`)
	typeInto(t, ctx, `#house-held input[name=pin]`, "1111")
	click(t, ctx, `#house-held .held-confirm button[type=submit]`)
	until(t, ctx, 5*time.Second, `document.querySelector('#house-held .field-error')?.textContent === "That is not Ada's PIN."`)
	if n := len(ha.Calls()); n != 0 {
		t.Fatalf("a wrong PIN unlocked the door: %+v", ha.Calls())
	}
	click(t, ctx, `#house-held input[name=approver][value=ada]`)
	typeInto(t, ctx, `#house-held input[name=pin]`, "2468")
	click(t, ctx, `#house-held .held-confirm button[type=submit]`)
	until(t, ctx, 5*time.Second, `document.querySelector('#house-held .ok')?.textContent === 'Unlock the front door: done.' &&
		!document.querySelector('#house-held .held-card')`)
	if calls := ha.Calls(); len(calls) != 1 || calls[0].Service != "unlock" || calls[0].Data["entity_id"] != "lock.front_door" {
		t.Fatalf("Home Assistant received %+v", calls)
	}

	// Nobody answers in time: Bo's late tap is refused as timed out.
	ask("Lock the front door")
	until(t, ctx, 10*time.Second, `document.querySelector('#house-held .held-card .held-question')?.textContent === 'Lock the front door?'`)
	clk.Add(talos.ConfirmWithin)
	click(t, ctx, `#house-held input[name=approver][value=bo]`)
	click(t, ctx, `#house-held .held-confirm button[type=submit]`)
	until(t, ctx, 5*time.Second, `document.querySelector('#house-held .ok')?.textContent === 'Lock the front door: not done, nobody confirmed within 2 minutes.'`)
	if n := len(ha.Calls()); n != 1 {
		t.Fatalf("a timed-out request reached Home Assistant: %+v", ha.Calls())
	}
	ds, err := srv.app.Policies.Decisions(context.Background(), talos.Filter{Member: "ada"})
	if err != nil || len(ds) != 2 || ds[0].Outcome != talos.TimedOut || ds[1].Outcome != talos.Confirmed || ds[1].DecidedBy != "ada" {
		t.Fatalf("decisions = %+v (%v)", ds, err)
	}
}
