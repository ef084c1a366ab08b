package app_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"hearth/internal/agent"
	"hearth/internal/app"
	"hearth/internal/coach"
	"hearth/internal/content"
	"hearth/internal/dashboard"
	"hearth/internal/store"
	"hearth/web/ratelimit"
)

// Issue 32's acceptance, in real Chromium on the demo household as `make
// run` starts it (no model): what a member says in the chat or taps
// changes today's plan within seconds, without an admin.

// chatSay opens member's chat sheet (unless open) and sends message; it
// returns once the coach's answer to it is complete, with that answer.
func chatSay(t *testing.T, ctx context.Context, url, member, message string) string {
	t.Helper()
	var open bool
	_ = eval(ctx, `location.pathname === '/m/`+member+`' && getComputedStyle(document.getElementById('sheet-chat')).display !== 'none'`, &open)
	if !open {
		openPage(t, ctx, url+"/m/"+member)
		click(t, ctx, `.quick .ask-coach`)
		until(t, ctx, 3*time.Second, `getComputedStyle(document.getElementById('sheet-chat')).display !== 'none' &&
			document.querySelector('#chat-form input[name=message]')`)
	}
	var mine int
	if err := eval(ctx, `document.querySelectorAll('#chat-log .chat-msg.mine').length`, &mine); err != nil {
		t.Fatal(err)
	}
	typeInto(t, ctx, `#chat-form input[name=message]`, message)
	click(t, ctx, `#chat-form button[type=submit]`)
	until(t, ctx, 10*time.Second, fmt.Sprintf(`document.querySelectorAll('#chat-log .chat-msg.mine').length === %d &&
		[...document.querySelectorAll('#chat-log .chat-msg.mine')].pop().textContent.includes(%s) &&
		document.querySelector('#chat-log .chat-turn:not(.writing) .chat-text')?.textContent.length > 0`, mine+1, jsString(message)))
	var reply string
	if err := eval(ctx, `document.querySelector('#chat-log .chat-turn .chat-text').textContent`, &reply); err != nil {
		t.Fatal(err)
	}
	return reply
}

// openPage is open for a page that may already be the current one.
func openPage(t *testing.T, ctx context.Context, url string) {
	t.Helper()
	open(t, ctx, url)
}

// todayDoc is member's stored plan for today and the run that wrote it.
func todayDoc(t *testing.T, a *app.App, member string) (dashboard.Stored, agent.Run) {
	t.Helper()
	ctx := context.Background()
	st, err := a.Dashboards.Get(ctx, member, a.Dashboards.Day(time.Now()))
	if err != nil {
		t.Fatal(err)
	}
	r, err := a.Agents.Runs().Get(ctx, st.RunID)
	if err != nil {
		t.Fatal(err)
	}
	return st, r
}

// upNextItem is the catalog item the page shows as Up Next.
func upNextItem(t *testing.T, ctx context.Context, a *app.App) content.Item {
	t.Helper()
	var href string
	if err := eval(ctx, `decodeURIComponent(document.getElementById('upnext').getAttribute('href'))`, &href); err != nil {
		t.Fatal(err)
	}
	id, _, _ := strings.Cut(strings.TrimPrefix(href, "/content/"), "?")
	it, err := a.Catalog.Get(context.Background(), id)
	if err != nil {
		t.Fatalf("up next %q: %v", href, err)
	}
	return it
}

// "My knee hurts" in the chat: within 5 s the Up Next is low-impact and
// spares the knee and the briefing names the knee, re-planned after the
// turn (no admin); the note survives 10 later chat messages.
func TestChatKneeReplansInBrowser(t *testing.T) {
	browser := newBrowser(t, 1280, 800)
	// Eleven chat turns in a row: more than the kiosk's default model-call
	// limits let one member send in a minute.
	dir := t.TempDir()
	srv := startApp(t, app.Config{Addr: "127.0.0.1:0", DataDir: dir, DBPath: filepath.Join(dir, "hearth.db"), Location: time.UTC,
		Demo: true, KioskIdle: 10 * time.Minute, KioskModelCalls: ratelimit.Options{Client: ratelimit.Rule{Burst: 20, Every: time.Second},
			Member: ratelimit.Rule{Burst: 20, Every: time.Second}}})
	a := srv.app
	ctx := newTab(t, browser, 2*time.Minute)
	openPage(t, ctx, srv.url+"/m/theo")
	until(t, ctx, 3*time.Second, `document.getElementById('briefing')?.textContent.length > 20`)
	var before string
	if err := eval(ctx, `document.getElementById('briefing').textContent`, &before); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(before, "knee") {
		t.Fatalf("the demo's briefing names a knee already: %q", before)
	}

	sent := time.Now()
	reply := chatSay(t, ctx, srv.url, "theo", "my knee hurts")
	if !strings.Contains(reply, "knee") {
		t.Errorf("the chat does not acknowledge the knee: %q", reply)
	}
	// The page behind the sheet follows over its live stream.
	until(t, ctx, 5*time.Second-time.Since(sent), `document.getElementById('briefing')?.textContent.includes('knee')`)
	t.Logf("briefing names the knee %v after the message was sent", time.Since(sent).Round(time.Millisecond))
	st, run := todayDoc(t, a, "theo")
	if run.Origin != "replan" || run.Trigger != agent.TriggerManual {
		t.Fatalf("today's plan was written by run %d (trigger %s, origin %q), want the re-plan", run.ID, run.Trigger, run.Origin)
	}
	it := upNextItem(t, ctx, a)
	if m := it.Meta(); m.Impact == content.ImpactHigh || m.Loads(content.AreaKnee) || st.Document.Curated.UpNext.Primary.ContentID != it.ID {
		t.Fatalf("up next %s (%s): impact %s, areas %v; want low impact, sparing the knee", it.ID, it.Title, m.Impact, m.Areas)
	}

	for i := range 10 {
		chatSay(t, ctx, srv.url, "theo", fmt.Sprintf("How is my weight going? (%d)", i+1))
	}
	mem, err := a.Agents.Memory().Entries(context.Background(), coach.AgentID, "theo")
	if err != nil {
		t.Fatal(err)
	}
	kept := slices.ContainsFunc(mem, func(e agent.MemoryEntry) bool {
		return strings.HasPrefix(e.Key, "injury:") && strings.Contains(e.Value, "knee")
	})
	if !kept {
		t.Fatalf("after 10 more chat messages the knee is forgotten: %+v", mem)
	}
}

// "What did I eat yesterday?" lists yesterday's meals, with the total the
// briefing quotes (not today's meals).
func TestChatYesterdayMealsInBrowser(t *testing.T) {
	browser := newBrowser(t, 1280, 800)
	srv := demoApp(t)
	a, bg := srv.app, context.Background()
	ctx := newTab(t, browser, time.Minute)
	now := time.Now().UTC()
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	meals, err := a.DB.Meals(bg, "theo", store.Range{From: today.AddDate(0, 0, -1), To: today})
	if err != nil || len(meals) == 0 {
		t.Fatalf("the demo's theo logged no meals yesterday (%v)", err)
	}
	var kcal float64
	for _, m := range meals {
		kcal += m.Calories
	}
	total := dashboard.KcalText(kcal)
	openPage(t, ctx, srv.url+"/m/theo")
	var briefing string
	if err := eval(ctx, `document.getElementById('briefing').textContent`, &briefing); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(briefing, total) {
		t.Fatalf("the briefing %q does not quote yesterday's %s (the test's premise)", briefing, total)
	}
	reply := chatSay(t, ctx, srv.url, "theo", "What did I eat yesterday?")
	if !strings.Contains(reply, "you logged "+total) || strings.Contains(reply, "Today so far") {
		t.Errorf("reply %q: want yesterday's total %s", reply, total)
	}
	for _, m := range meals {
		if !strings.Contains(reply, m.Name) {
			t.Errorf("reply %q does not list %q", reply, m.Name)
		}
	}
}

// Tapping "A bit tired" at the energy check-in: an acknowledgement at
// once, and a lighter plan within 5 s, without an admin. The check-in is
// put on Maya's plan (under a hard Up Next) so the test does not depend
// on which question the day's rotation asks.
func TestTapTiredReplansInBrowser(t *testing.T) {
	browser := newBrowser(t, 1280, 800)
	srv := demoApp(t)
	a, bg := srv.app, context.Background()
	ctx := newTab(t, browser, time.Minute)
	st, _ := todayDoc(t, a, "maya")
	doc := st.Document
	day := a.Dashboards.Day(time.Now())
	checkIn := dashboard.Prompt{ID: "checkin-energy-" + strings.ReplaceAll(day, "-", ""), Type: dashboard.PromptMultipleChoice,
		Question: "How's your energy today?", Options: []string{"Full of energy", "Normal", "A bit tired", "Sick or injured"}}
	doc.Coach.Prompts = []dashboard.Prompt{checkIn}
	doc.Curated.UpNext.Primary = &dashboard.ContentRef{ContentID: "local:ember-core-05", Title: "Standing Core Burn", Duration: 20}
	if err := a.DB.Tx(bg, func(tx *store.Tx) error {
		return a.Dashboards.PutTx(bg, tx, time.Now(), "maya", day, st.RunID, doc, st.Sources)
	}); err != nil {
		t.Fatal(err)
	}
	openPage(t, ctx, srv.url+"/m/maya")
	until(t, ctx, 3*time.Second, `document.querySelector('#upnext .upnext-title')?.textContent === 'Standing Core Burn' &&
		document.querySelector('#prompt-`+checkIn.ID+` button.option[value="A bit tired"]')`)

	tapped := time.Now()
	click(t, ctx, `#prompt-`+checkIn.ID+` button.option[value="A bit tired"]`)
	until(t, ctx, 3*time.Second, `document.getElementById('flash')?.textContent === 'Noted — today stays light.'`)
	until(t, ctx, 5*time.Second-time.Since(tapped), `document.querySelector('#upnext .upnext-title')?.textContent !== 'Standing Core Burn'`)
	t.Logf("a lighter Up Next %v after the tap", time.Since(tapped).Round(time.Millisecond))
	it := upNextItem(t, ctx, a)
	if !slices.Contains([]string{content.KindYoga, content.KindStretch, content.KindMobility, content.KindRecovery, content.KindWalk}, it.Kind) {
		t.Fatalf("up next after the tap: %s (%s), want a light session", it.Title, it.Kind)
	}
	// On a day the program rests the re-plan says so ("Rest day …, a gentle
	// option"); on a training day it says it takes it easy. Either is the
	// lighter day (CI once crossed midnight into the demo's rest day).
	after, run := todayDoc(t, a, "maya")
	briefing := strings.ToLower(after.Document.Coach.Briefing)
	if run.Origin != "replan" || !strings.Contains(briefing, "easy") && !strings.Contains(briefing, "rest day") {
		t.Fatalf("plan by run %d (origin %q), briefing %q: want the re-plan, taking it easy", run.ID, run.Origin, after.Document.Coach.Briefing)
	}
}
