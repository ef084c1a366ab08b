package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"hearth/internal/lifeplan"
)

// lifePlanFixture gives ada a life plan: values, a purpose, a goal (a
// dream), a belief with one accepted and two suggested evidence notes.
// secrets are bytes of it no locked screen may carry.
// The PINs lifePlanFixture sets.
const adaPlanPIN, boPlanPIN = "2468", "1357"

// unlockWithPIN unlocks member on k's screen with their PIN.
func unlockWithPIN(t *testing.T, k *kiosk, member, pin string) {
	t.Helper()
	if resp, body := k.post("/m/"+member+"/unlock", formOf("pin", pin), ""); resp.StatusCode != http.StatusOK || strings.Contains(body, "not") {
		t.Fatalf("%s's unlock: %d %.300s", member, resp.StatusCode, body)
	}
}

func lifePlanFixture(t *testing.T, k *kiosk) (goal lifeplan.Goal, suggested []int64, secrets []string) {
	t.Helper()
	ctx, lp := context.Background(), k.app.LifePlan
	// A life plan opens on a shared screen only with its member's PIN.
	for member, pin := range map[string]string{"ada": adaPlanPIN, "bo": boPlanPIN} {
		if err := k.hh.SetPIN(ctx, member, pin); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := lp.SetValues(ctx, "ada", []lifeplan.ValueInput{{Name: "Family"}, {Name: "Curiosity"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := lp.SetPurpose(ctx, "ada", "Keep the lighthouse lit for my kids"); err != nil {
		t.Fatal(err)
	}
	goal, err := lp.AddGoal(ctx, "ada", lifeplan.GoalInput{Name: "Run a 10k"}, "member")
	if err != nil {
		t.Fatal(err)
	}
	b, err := lp.AddBelief(ctx, "ada", lifeplan.BeliefInput{If: "I train in the morning", Then: "I sleep better"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lp.SuggestEvidence(ctx, "ada", b.ID, lifeplan.FromMember, "Slept through after Tuesday's run"); err != nil {
		t.Fatal(err)
	}
	for _, note := range []string{"On the 9 mornings you trained you slept 40 minutes longer", "Two late sessions, two short nights"} {
		e, err := lp.SuggestEvidence(ctx, "ada", b.ID, lifeplan.FromData, note)
		if err != nil {
			t.Fatal(err)
		}
		suggested = append(suggested, e.ID)
	}
	return goal, suggested, []string{"lighthouse", "Curiosity", "Run a 10k", "I train in the morning", "Slept through", "40 minutes longer"}
}

// A life plan is personal: a screen her PIN has not unlocked (even with
// her figures public, even after Bo unlocked it for him) shows the PIN
// prompt and answers 401 on every plan route, with none of her plan in any
// byte, and changes nothing; her PIN opens it, and the household view
// locks it again. A member without a PIN has no life plan on a shared
// screen: the tap that unlocks their dashboard (anyone at the screen can
// make it) does not open it.
func TestLifePlanOpensOnlyAfterTheMembersUnlock(t *testing.T) {
	k := newKiosk(t)
	ctx := context.Background()
	goal, suggested, secrets := lifePlanFixture(t, k)
	gid, eid := strconv.FormatInt(goal.ID, 10), strconv.FormatInt(suggested[0], 10)
	none := func(where, body string) {
		t.Helper()
		for _, s := range secrets {
			if strings.Contains(body, s) {
				t.Errorf("%s carries %q", where, s)
			}
		}
	}
	locked := func(who, want string) {
		t.Helper()
		code, page := k.get("/m/ada/plan")
		if code != http.StatusUnauthorized || !strings.Contains(page, "A life plan is personal: it opens once ada unlocks this screen.") ||
			!strings.Contains(page, want) {
			t.Errorf("%s: the plan page: %d, want %q: %.300s", who, code, want, page)
		}
		none(who+": the locked plan page", page)
		for _, p := range []string{"/m/ada/plan/chat", "/m/ada/plan/chat/latest"} {
			code, body := sheet(t, k, p)
			if !strings.Contains(body, "life plan is personal") {
				t.Errorf("%s: %s: %d %.300s", who, p, code, body)
			}
			none(who+": "+p, body)
		}
		for p, form := range map[string]url.Values{
			"/m/ada/plan/goals/" + gid:    formOf("to", "considered", "reason", "because"),
			"/m/ada/plan/evidence/" + eid: formOf("decision", "accept"),
			"/m/ada/plan/chat":            formOf("message", "Move “Run a 10k” to considered because"),
		} {
			resp, body := k.send(p, form, "", false)
			if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(body, "life plan is personal") {
				t.Errorf("%s: POST %s: %d %.300s", who, p, resp.StatusCode, body)
			}
			none(who+": POST "+p, body)
		}
		if p, _ := k.app.LifePlan.Plan(ctx, "ada"); p.Goals[0].State != lifeplan.Dream || p.Beliefs[0].Evidence[1].Status != lifeplan.Suggested {
			t.Fatalf("%s: a locked screen changed the plan: %+v", who, p)
		}
	}
	pinForm := `name="then" value="plan"`
	if _, page := k.get("/m/ada"); !strings.Contains(page, `href="/m/ada/plan"`) || !strings.Contains(page, "Life plan") {
		t.Fatal("the dashboard has no Life plan button")
	}
	locked("a fresh screen", pinForm)

	// Bo's PIN opens Bo, not Ada.
	unlockWithPIN(t, k, "bo", boPlanPIN)
	if code, _ := k.get("/m/bo/plan"); code != http.StatusOK {
		t.Fatalf("bo's own plan after his unlock: %d", code)
	}
	locked("a screen Bo unlocked", pinForm)

	// A tap without her PIN is refused and keeps the plan page's form.
	if _, body := k.post("/m/ada/unlock", formOf("then", "plan"), ""); !strings.Contains(body, "That is not ada&#39;s PIN.") || !strings.Contains(body, pinForm) {
		t.Fatalf("a tap without her PIN: %.300s", body)
	}
	locked("the screen after a tap without the PIN", pinForm)

	// Her PIN from the plan page goes back to it.
	if _, body := k.post("/m/ada/unlock", formOf("pin", adaPlanPIN, "then", "plan"), ""); !strings.Contains(body, "window.location.assign('/m/ada/plan')") {
		t.Fatalf("ada's unlock: %.300s", body)
	}
	code, page := k.get("/m/ada/plan")
	for _, s := range secrets {
		if !strings.Contains(page, s) {
			t.Errorf("the unlocked plan page lacks %q", s)
		}
	}
	if code != http.StatusOK {
		t.Fatalf("the unlocked plan page: %d", code)
	}
	k.get("/") // the household view locks the screen again
	locked("the screen after the household view", pinForm)

	// Without a PIN, a tap unlocks her dashboard but never her plan.
	if err := k.hh.SetPIN(ctx, "ada", ""); err != nil {
		t.Fatal(err)
	}
	if resp, body := k.post("/m/ada/unlock", url.Values{}, ""); resp.StatusCode != http.StatusOK || !strings.Contains(body, "/m/ada") {
		t.Fatalf("ada's tap unlock without a PIN: %d %.300s", resp.StatusCode, body)
	}
	locked("a tap-unlocked member without a PIN", "has none yet: an admin sets one on Admin → Household")
}

// On the unlocked page, Ada moves her goal with a reason (kept in its
// history as the member's), a refused move shows the service's reason and
// a move without a reason asks for one; her taps accept and dismiss the
// suggested evidence.
func TestLifePlanPageTaps(t *testing.T) {
	k := newKiosk(t)
	ctx := context.Background()
	goal, suggested, _ := lifePlanFixture(t, k)
	unlockWithPIN(t, k, "ada", adaPlanPIN)
	move := "/m/ada/plan/goals/" + strconv.FormatInt(goal.ID, 10)

	if _, page := k.get("/m/ada/plan"); !strings.Contains(page, `name="to" value="considered"`) || !strings.Contains(page, `name="to" value="abandoned"`) ||
		strings.Contains(page, `name="to" value="achieved"`) {
		t.Fatalf("a dream's moves: %.2000s", page)
	}
	if _, body := k.post(move, formOf("to", "achieved", "reason", "I feel like it"), ""); !strings.Contains(body,
		"A goal cannot move from dream to achieved; from dream it can move to considered, abandoned.") {
		t.Fatalf("dream → achieved: %.500s", body)
	}
	if _, body := k.post(move, formOf("to", "considered"), ""); !strings.Contains(body, "Say why: the reason is required.") {
		t.Fatalf("a move without a reason: %.500s", body)
	}
	if _, body := k.post(move, formOf("to", "considered", "reason", "We found a plan"), ""); !strings.Contains(body, "Moved to considered.") ||
		!strings.Contains(body, `name="to" value="ready"`) {
		t.Fatalf("dream → considered: %.500s", body)
	}
	h, err := k.app.LifePlan.GoalHistory(ctx, "ada", goal.ID)
	if err != nil || len(h) != 2 || h[1].From != lifeplan.Dream || h[1].To != lifeplan.Considered || h[1].Reason != "We found a plan" || h[1].By != "member" {
		t.Fatalf("history = %+v (%v)", h, err)
	}
	// A plain form post (no Datastar): a redirect back to the page.
	if resp, body := k.send(move, formOf("to", "ready", "reason", "First run on Saturday"), "", false); resp.StatusCode != http.StatusSeeOther ||
		resp.Header.Get("Location") != "/m/ada/plan" {
		t.Fatalf("a plain move: %d %s %.300s", resp.StatusCode, resp.Header.Get("Location"), body)
	}

	evidence := func(id int64) string { return "/m/ada/plan/evidence/" + strconv.FormatInt(id, 10) }
	if _, body := k.post(evidence(suggested[0]), formOf("decision", "accept"), ""); !strings.Contains(body, "Accepted: it counts as evidence now.") {
		t.Fatalf("accept: %.500s", body)
	}
	if _, body := k.post(evidence(suggested[1]), formOf("decision", "dismiss"), ""); !strings.Contains(body, "Dismissed") ||
		strings.Contains(body, "Two late sessions") {
		t.Fatalf("dismiss: %.500s", body)
	}
	if _, body := k.post(evidence(suggested[0]), formOf("decision", "dismiss"), ""); !strings.Contains(body, "This note was already accepted.") {
		t.Fatalf("deciding twice: %.500s", body)
	}
	bs, _ := k.app.LifePlan.Beliefs(ctx, "ada")
	if ev := bs[0].Evidence; ev[1].Status != lifeplan.Accepted || ev[2].Status != lifeplan.Dismissed {
		t.Fatalf("evidence = %+v", ev)
	}
	// Bo's URL does not reach Ada's goal (unlocked for Bo: his plan, no such goal).
	unlockWithPIN(t, k, "bo", boPlanPIN)
	if resp, _ := k.send("/m/bo/plan/goals/"+strconv.FormatInt(goal.ID, 10), formOf("to", "abandoned", "reason", "x"), "", false); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("Bo's URL moved Ada's goal: %d", resp.StatusCode)
	}
}

// "Talk it through" offers tap prompts from the plan's state: the
// suggested values (sent together by "Keep these"), then "My purpose is "
// in the field, then "My goal is " and each goal's moves.
func TestLifePlanChatTapPrompts(t *testing.T) {
	k := newKiosk(t)
	ctx := context.Background()
	if err := k.hh.SetPIN(ctx, "ada", adaPlanPIN); err != nil {
		t.Fatal(err)
	}
	unlockWithPIN(t, k, "ada", adaPlanPIN)
	_, body := sheet(t, k, "/m/ada/plan/chat/latest")
	for _, want := range []string{`name="pick" value="Family"`, `name="pick" value="Faith"`, "Keep these", `id="plan-form"`} {
		if !strings.Contains(body, want) {
			t.Fatalf("no values yet: the sheet lacks %s: %.1500s", want, body)
		}
	}
	_, body = k.post("/m/ada/plan/chat", url.Values{"pick": {"Family", "Health", "Adventure"}, "keep": {"1"}, "thread": {"0"}}, "")
	waitIdle(t, k.app, "ada")
	if p, _ := k.app.LifePlan.Values(ctx, "ada"); len(p) != 3 || p[0].Name != "Family" || p[2].Name != "Adventure" {
		t.Fatalf("values after Keep these = %+v (%.800s)", p, body)
	}
	if last := body[strings.LastIndex(body, "data: mode replace"):]; !strings.Contains(last, `value="My purpose is "`) || strings.Contains(last, `name="pick"`) {
		t.Fatalf("after the values, the form does not ask for the purpose: %s", body[max(0, len(body)-3000):])
	}
	_, body = sheet(t, k, "/m/ada/plan/chat/latest")
	if !strings.Contains(body, `value="My purpose is "`) || strings.Contains(body, `name="pick"`) {
		t.Fatalf("no purpose yet: %.1500s", body)
	}
	k.post("/m/ada/plan/chat", formOf("message", "My purpose is to be there for the people I love"), "")
	waitIdle(t, k.app, "ada")
	k.post("/m/ada/plan/chat", formOf("message", "My goal is to run a 10k"), "")
	waitIdle(t, k.app, "ada")
	_, body = sheet(t, k, "/m/ada/plan/chat/latest")
	for _, want := range []string{`value="My goal is "`, `value="Move “Run a 10k” to considered because "`, ">Move “Run a 10k” to abandoned<"} {
		if !strings.Contains(body, want) {
			t.Fatalf("with a goal: the sheet lacks %s: %.3000s", want, body)
		}
	}
	_, body = k.post("/m/ada/plan/chat", formOf("message", "Move “Run a 10k” to considered because we found a plan"), "")
	waitIdle(t, k.app, "ada")
	if p, _ := k.app.LifePlan.Goals(ctx, "ada"); len(p) != 1 || p[0].State != lifeplan.Considered {
		t.Fatalf("goals = %+v", p)
	}
	// The finished turn refreshed the page's plan and the chips.
	if !strings.Contains(body, `id="plan-view"`) || !strings.Contains(body, `value="Move “Run a 10k” to ready because "`) {
		t.Fatalf("the turn's stream did not refresh the plan and its chips: %.3000s", body)
	}
}
