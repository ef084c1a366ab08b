package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"hearth/internal/household"
	"hearth/internal/messages"
	"hearth/internal/screen"
)

// privateFixture gives ada figures in every private place: weigh-ins, a
// body scan, the coach's briefing and feedback, a message. secrets are
// the bytes none of which a locked screen may carry.
func privateFixture(t *testing.T, k *kiosk) []string {
	t.Helper()
	ctx := context.Background()
	for _, w := range []float64{84.1, 83.7} {
		if _, err := k.hh.LogWeight(ctx, "ada", household.WeightInput{Weight: w}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := k.hh.LogBodyScan(ctx, "ada", household.ScanInput{BodyFatPct: 23.4, LeanMassKg: 52.1}); err != nil {
		t.Fatal(err)
	}
	doc := sampleDoc("Quiet words for Ada alone. Keep going.")
	doc.Coach.CTA[1].Message = "Protein averaged 81.9 g over 7 days."
	k.putDoc("ada", today(), doc)
	if _, err := k.ms.Send(ctx, "ada", "health-coach", "A private note: sleep by 22:45.", messages.Via{Source: "schedule"}); err != nil {
		t.Fatal(err)
	}
	return []string{">83.7<", "23.4", "Quiet words for Ada alone", "Three workouts this week", "Protein averaged 81.9", "sleep by 22:45"}
}

// With her figures private, a screen that has not unlocked Ada carries
// none of them (the page, its stream, the chat, corrections); her PIN
// unlocks that screen, the household view locks it again, and wrong PINs
// run out.
func TestPrivateFiguresAreAbsentOnALockedScreen(t *testing.T) {
	k := newKiosk(t)
	ctx := context.Background()
	secrets := privateFixture(t, k)
	has := func(where, body string, want bool) {
		t.Helper()
		for _, s := range secrets {
			if strings.Contains(body, s) != want {
				t.Errorf("%s: has %q = %v, want %v", where, s, !want, want)
			}
		}
	}
	_, page := k.get("/m/ada")
	has("the open dashboard", page, true) // the fixture puts every secret on the page

	if err := k.hh.SetPIN(ctx, "ada", "2468"); err != nil {
		t.Fatal(err)
	}
	if err := k.hh.SetPrivateFigures(ctx, "ada", true); err != nil {
		t.Fatal(err)
	}
	_, page = k.get("/m/ada")
	has("the locked dashboard", page, false)
	if !strings.Contains(page, "Your weight is private on this screen.") || !strings.Contains(page, "🔒 Unlock") {
		t.Error("the locked dashboard does not say so or offer Unlock")
	}
	sctx, cancel := context.WithCancel(ctx)
	s, stream := k.openStream(sctx, "/live/m/ada")
	var all strings.Builder // the first events patch every widget, then a keep-alive
	for !strings.Contains(all.String(), `"_ka"`) {
		ev, err := s.next()
		if err != nil {
			t.Fatal(err)
		}
		all.WriteString(ev)
	}
	if !strings.Contains(all.String(), `id="coach"`) || !strings.Contains(all.String(), `id="w-weight"`) {
		t.Fatal("the stream's first events did not patch the widgets")
	}
	has("the locked stream", all.String(), false)
	// A layout edit re-renders the open screen's grid: locked still.
	l, _ := screen.Shipped("wall-tablet")
	l.Landscape.Places = l.Landscape.Places[:4]
	if _, err := k.app.Screens.Save(ctx, "wall-tablet", l); err != nil {
		t.Fatal(err)
	}
	has("the locked stream's new grid", s.until(t, 2*time.Second, `id="screen-grid"`), false)
	cancel()
	stream.Body.Close()

	if code, body := k.get("/m/ada/chat"); code != http.StatusUnauthorized || !strings.Contains(body, "unlock with their PIN") {
		t.Errorf("chat on a locked screen: %d %.200s", code, body)
	}
	if code, body := k.get("/m/ada/history?span=all"); code != http.StatusUnauthorized || strings.Contains(body, "weigh-ins") {
		t.Errorf("history on a locked screen: %d %.200s", code, body)
	}
	// Her life plan is personal: locked too, with none of it in the answer.
	if _, err := k.app.LifePlan.SetPurpose(ctx, "ada", "Plan words for Ada alone"); err != nil {
		t.Fatal(err)
	}
	if code, body := k.get("/m/ada/plan"); code != http.StatusUnauthorized || strings.Contains(body, "Plan words") || !strings.Contains(body, `name="pin"`) {
		t.Errorf("the life plan on a locked screen: %d %.200s", code, body)
	}
	if strings.Contains(page, "/m/ada/history") {
		t.Error("the locked dashboard links to the history")
	}
	ws, _ := k.hh.Weights(ctx, "ada", 1)
	if code, _ := k.get("/m/ada/entry/weight/" + strconv.FormatInt(ws[0].ID, 10)); code != http.StatusUnauthorized {
		t.Errorf("a correction on a locked screen: %d", code)
	}
	// (A Datastar request's refusal is a flash; a plain form's, its status.)
	if resp, body := k.post("/m/ada/privacy", formOf("private", "off"), ""); !strings.Contains(body, "unlock with their PIN") {
		t.Errorf("privacy off on a locked screen: %d %.200s", resp.StatusCode, body)
	}
	if resp, _ := k.send("/m/ada/privacy", formOf("private", "off"), "", false); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("privacy off on a locked screen, a plain form: %d", resp.StatusCode)
	}
	if m, _ := k.hh.Member(ctx, "ada"); !m.PrivateFigures {
		t.Fatal("a locked screen turned ada's privacy off")
	}

	// Her PIN unlocks this screen: everything is back, page and stream.
	if resp, body := k.post("/m/ada/unlock", formOf("pin", "2468"), ""); resp.StatusCode != http.StatusOK || !strings.Contains(body, "/m/ada") {
		t.Fatalf("unlock: %d %s", resp.StatusCode, body)
	}
	_, page = k.get("/m/ada")
	has("the unlocked dashboard", page, true)
	sctx, cancel = context.WithCancel(ctx)
	defer cancel()
	s, stream = k.openStream(sctx, "/live/m/ada")
	defer stream.Body.Close()
	s.until(t, 2*time.Second, `id="w-weight"`, ">83.7<")
	if code, _ := k.get("/m/ada/chat"); code == http.StatusUnauthorized {
		t.Errorf("chat once unlocked: %d", code)
	}
	if code, body := k.get("/m/ada/history"); code != http.StatusOK || !strings.Contains(body, "2 weigh-ins") {
		t.Errorf("history once unlocked: %d", code)
	}
	if code, body := k.get("/m/ada/plan"); code != http.StatusOK || !strings.Contains(body, "Plan words for Ada alone") {
		t.Errorf("the life plan once unlocked: %d", code)
	}

	// The household view (a tap on ⌂, the idle return) locks the screen:
	// the open stream sends the page to be rendered again, locked.
	k.get("/")
	s.until(t, 2*time.Second, "window.location.assign", "/m/ada")
	_, page = k.get("/m/ada")
	has("the dashboard after the household view", page, false)
	if code, body := k.get("/m/ada/plan"); code != http.StatusUnauthorized || strings.Contains(body, "Plan words") {
		t.Errorf("the life plan after the household view: %d", code)
	}

	// Wrong PINs: refused, and after five this screen waits.
	for i := 0; i < screen.MaxTries; i++ {
		if _, body := k.post("/m/ada/unlock", formOf("pin", "1111"), ""); !strings.Contains(body, "That is not") {
			t.Fatalf("wrong PIN %d: %.300s", i+1, body)
		}
	}
	if _, body := k.post("/m/ada/unlock", formOf("pin", "2468"), ""); !strings.Contains(body, "Too many wrong PINs") {
		t.Errorf("the right PIN after %d wrong ones: %.200s", screen.MaxTries, body)
	}
	if resp, _ := k.send("/m/ada/unlock", formOf("pin", "2468"), "", false); resp.StatusCode != http.StatusTooManyRequests {
		t.Errorf("the right PIN after %d wrong ones, a plain form: %d, want 429", screen.MaxTries, resp.StatusCode)
	}
	if _, page = k.get("/m/ada"); strings.Contains(page, ">83.7<") {
		t.Error("unlocked after too many tries")
	}
}

// A household-only screen opens no member without their PIN: the page
// names the member and asks for it (or says there is none), and carries
// and streams nothing of theirs.
func TestHouseholdOnlyScreenNeedsThePIN(t *testing.T) {
	k := newKiosk(t)
	ctx := context.Background()
	secrets := privateFixture(t, k)
	l, _ := screen.Shipped("wall-tablet")
	l.Name, l.HouseholdOnly = "Hallway", true
	if _, err := k.app.Screens.Save(ctx, "hallway", l); err != nil {
		t.Fatal(err)
	}
	if err := k.hh.SetPIN(ctx, "ada", "2468"); err != nil {
		t.Fatal(err)
	}
	_, page := k.get("/m/ada?layout=hallway") // the screen remembers its layout
	for _, s := range append(secrets, "Core Ignite", `id="w-nutrition"`) {
		if strings.Contains(page, s) {
			t.Errorf("the sealed page carries %q", s)
		}
	}
	if !strings.Contains(page, `name="pin"`) || strings.Contains(page, `id="live"`) {
		t.Error("the sealed page has no PIN form, or a live stream")
	}
	if _, page = k.get("/m/bo"); !strings.Contains(page, "has none yet") {
		t.Error("bo, who has no PIN, is not told so")
	}
	if resp, body := k.send("/m/bo/unlock", url.Values{}, "", false); resp.StatusCode != http.StatusUnauthorized || !strings.Contains(body, "has none yet") {
		t.Errorf("a tap unlocks bo on a household-only screen: %d", resp.StatusCode)
	}
	if code, body := k.get("/m/bo/plan"); code != http.StatusUnauthorized || !strings.Contains(body, "has none yet") || strings.Contains(body, `name="then"`) {
		t.Errorf("bo's life plan on a household-only screen: %d, want the 401 saying he has no PIN, with no tap to unlock", code)
	}
	s, stream := k.openStream(ctx, "/live/m/ada")
	ev := s.until(t, 2*time.Second, "window.location.assign")
	stream.Body.Close()
	if strings.Contains(ev, "w-weight") {
		t.Error("the stream of a sealed member sent their widgets")
	}
	if _, body := k.post("/m/ada/unlock", formOf("pin", "2468"), ""); !strings.Contains(body, "window.location.assign") {
		t.Fatalf("unlock: %.200s", body)
	}
	if _, page = k.get("/m/ada"); !strings.Contains(page, ">83.7<") || !strings.Contains(page, "Core Ignite") {
		t.Error("ada's PIN does not open her dashboard")
	}
}
