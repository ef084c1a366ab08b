package app_test

import (
	"context"
	"testing"
	"time"

	"hearth/internal/app"
	"hearth/internal/lifeplan"
)

// TestLifePlanOnTheKioskInBrowser: without a model, on Ada's dashboard,
// "Life plan" asks for her PIN, then shows her plan; she accepts the coach's suggested evidence with a
// tap. "Talk it through" walks the guided flow by taps: three value chips
// and "Keep these" keep her values; the field then starts "My purpose
// is "; she writes it and a goal; the goal's "Move … to considered" chip
// fills the field, she adds the reason, and the page shows the goal
// considered, its history the reason.
func TestLifePlanOnTheKioskInBrowser(t *testing.T) {
	browser := newBrowser(t, 1280, 800)
	srv := seededApp(t)
	ctx0, lp := context.Background(), srv.app.LifePlan
	if err := srv.app.Household.SetPIN(ctx0, "ada", "2468"); err != nil {
		t.Fatal(err)
	}
	b, err := lp.AddBelief(ctx0, "ada", lifeplan.BeliefInput{If: "I train in the morning", Then: "I sleep better"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lp.SuggestEvidence(ctx0, "ada", b.ID, lifeplan.FromData, "On the 9 mornings you trained you slept 40 minutes longer"); err != nil {
		t.Fatal(err)
	}
	ctx := newTab(t, browser, 90*time.Second)

	open(t, ctx, srv.url+"/m/ada")
	click(t, ctx, `.quick .life-plan`)
	until(t, ctx, 5*time.Second, `location.pathname === '/m/ada/plan' && document.querySelector('.plan-locked-msg') && !document.getElementById('plan-view')`)
	typeInto(t, ctx, `#form-unlock input[name=pin]`, "2468")
	click(t, ctx, `#form-unlock button[type=submit]`)
	until(t, ctx, 5*time.Second, `location.pathname === '/m/ada/plan' && document.getElementById('plan-view')`)

	// The suggested evidence, accepted with a tap.
	click(t, ctx, `#plan-view .plan-suggested button[value=accept]`)
	until(t, ctx, 5*time.Second, `document.querySelector('#plan-view .plan-note')?.textContent === 'Accepted: it counts as evidence now.' &&
		document.querySelector('#plan-view .plan-evidence li')?.textContent.includes('40 minutes longer') && !document.querySelector('#plan-view .plan-suggested')`)

	// Talk it through: values by taps.
	click(t, ctx, `.plan-head .plan-talk`)
	until(t, ctx, 5*time.Second, `getComputedStyle(document.getElementById('sheet-plan')).display !== 'none' &&
		document.querySelector('#plan-values input[name=pick][value=Adventure]')`)
	for _, v := range []string{"Family", "Health", "Adventure"} {
		click(t, ctx, `#plan-values input[name=pick][value=`+v+`]`)
	}
	click(t, ctx, `#plan-values button[name=keep]`)
	until(t, ctx, 10*time.Second, `[...document.querySelectorAll('#plan-view .plan-values-list li')].map(li => li.textContent).join(',') === 'Family,Health,Adventure' &&
		document.querySelector('#plan-form input[name=message]')?.value === 'My purpose is ' && !document.querySelector('#plan-values input')`)

	say := func(message string) {
		t.Helper()
		typeInto(t, ctx, `#plan-form input[name=message]`, message)
		click(t, ctx, `#plan-form button[type=submit]`)
	}
	say("My purpose is to be there for the people I love")
	until(t, ctx, 10*time.Second, `document.querySelector('#plan-view .plan-purpose')?.textContent === 'To be there for the people I love' &&
		document.querySelector('#plan-form input[name=message]')?.value === 'My goal is '`)
	say("My goal is to run a 10k")
	chip := `#plan-form .plan-moves button[value^="Move “Run a 10k” to considered"]`
	until(t, ctx, 10*time.Second, `document.querySelector('#plan-view .plan-goal-name')?.textContent === 'Run a 10k' &&
		document.querySelector(`+jsString(chip)+`)?.textContent === 'Move “Run a 10k” to considered'`)

	// The chip fills the field; the reason follows.
	click(t, ctx, chip)
	until(t, ctx, 3*time.Second, `document.querySelector('#plan-form input[name=message]').value === 'Move “Run a 10k” to considered because '`)
	js(t, ctx, `(() => { const el = document.querySelector('#plan-form input[name=message]'); el.value += 'we found a plan'; `+
		`el.dispatchEvent(new Event('input', {bubbles: true})) })()`)
	click(t, ctx, `#plan-form button[type=submit]`)
	until(t, ctx, 10*time.Second, `document.querySelector('#plan-view .plan-goal .plan-state')?.textContent === 'considered' &&
		document.querySelector('#plan-log .chat-turn:not(.writing) .chat-text')?.textContent.includes('Moved “Run a 10k” from dream to considered')`)

	screenshot(t, ctx, artifacts(t), "lifeplan-talk.png", false)
	js(t, ctx, `document.querySelector('#sheet-plan .sheet-backdrop').click()`)
	screenshot(t, ctx, artifacts(t), "lifeplan-page.png", true)

	p, err := lp.Plan(ctx0, "ada")
	if err != nil || len(p.Values) != 3 || p.Values[0].Name != "Family" || len(p.Goals) != 1 || p.Goals[0].State != lifeplan.Considered ||
		p.Beliefs[0].Evidence[0].Status != lifeplan.Accepted {
		t.Fatalf("plan = %+v (%v)", p, err)
	}
	h, err := lp.GoalHistory(ctx0, "ada", p.Goals[0].ID)
	if err != nil || len(h) != 2 || h[1].Reason != "We found a plan" || h[1].By != "agent:"+app.LifePlanCoachID {
		t.Fatalf("history = %+v (%v)", h, err)
	}
}
