package app_test

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"hearth/internal/agent/llm/llmtest"
	"hearth/internal/app"
	"hearth/internal/health"
	"hearth/internal/schedule"
)

// cpValue is the JavaScript of a new-member form field's value.
func cpValue(name string) string {
	return `document.querySelector('#member-new [name=` + name + `]').value`
}

// openCopilot opens path and waits for form's copilot panel.
func openCopilot(t *testing.T, ctx context.Context, base, path, form string) {
	t.Helper()
	do(t, ctx, chromedp.Navigate(base+path))
	until(t, ctx, 10*time.Second, `location.pathname === `+jsString(path)+` && document.readyState === 'complete' && document.getElementById('copilot-`+form+`')`)
	datastarApplied(t, ctx)
	until(t, ctx, 5*time.Second, `getComputedStyle(document.getElementById('copilot-`+form+`')).display !== 'none'`)
}

// askCopilot asks form's panel.
func askCopilot(t *testing.T, ctx context.Context, form, words string) {
	t.Helper()
	typeInto(t, ctx, `#cp-input-`+form, words)
	click(t, ctx, `#cp-send-`+form)
}

// TestCopilotMemberFormInBrowser: without a model, "add my daughter Ava, 8,
// metric" fills the new-member form (and points at the birth date, which
// an age does not give); Undo empties it, Redo fills it again, and Save
// stores Ava as the form's own validation saves a typed member. On her
// page, "set calories to 1600 and protein 60" fills her targets, and Save
// stores them.
func TestCopilotMemberFormInBrowser(t *testing.T) {
	browser := newBrowser(t, 1280, 900)
	srv := homeApp(t, app.Config{})
	ctx := newTab(t, browser, 90*time.Second)
	openCopilot(t, ctx, srv.url, "/admin/household", "member")

	askCopilot(t, ctx, "member", "add my daughter Ava, 8, metric")
	until(t, ctx, 10*time.Second, cpValue("name")+` === 'Ava' && `+cpValue("id")+` === 'ava' && `+cpValue("unit")+` === 'kg' && `+
		cpValue("sex")+` === 'female' && `+cpValue("role")+` === 'child'`)
	until(t, ctx, 5*time.Second, `document.querySelector('#cp-log-member').textContent.includes('I filled the new member Ava') &&
		document.querySelector('#member-new [name=birth_date]').closest('label').classList.contains('cp-hl') &&
		document.querySelector('#cp-input-member').value === ''`)

	click(t, ctx, `#cp-undo-member`)
	until(t, ctx, 5*time.Second, cpValue("name")+` === '' && `+cpValue("id")+` === '' && `+cpValue("role")+` === 'adult' && `+cpValue("sex")+` === ''`)
	click(t, ctx, `#cp-redo-member`)
	until(t, ctx, 5*time.Second, cpValue("name")+` === 'Ava' && `+cpValue("role")+` === 'child' && document.querySelector('#cp-redo-member').disabled`)

	// Nothing is stored until Save.
	if _, err := srv.app.Household.Member(context.Background(), "ava"); err == nil {
		t.Fatal("Ava was stored before Save")
	}
	click(t, ctx, `#member-save`)
	until(t, ctx, 10*time.Second, `location.pathname === '/admin/household/ava'`)
	m, err := srv.app.Household.Member(context.Background(), "ava")
	if err != nil || m.Name != "Ava" || m.Role != health.RoleChild || m.Sex != "female" || m.Unit != health.KG || m.BirthDate != nil {
		t.Fatalf("stored %+v (%v)", m, err)
	}

	// Her page has the panel on the profile and targets form.
	until(t, ctx, 10*time.Second, `document.readyState === 'complete' && document.getElementById('copilot-targets')`)
	datastarApplied(t, ctx)
	askCopilot(t, ctx, "targets", "set calories to 1600 and protein 60")
	until(t, ctx, 10*time.Second, `document.querySelector('#member-edit [name=calories]').value === '1600' &&
		document.querySelector('#member-edit [name=protein_g]').value === '60' && document.querySelector('#member-edit [name=name]').value === 'Ava'`)
	click(t, ctx, `#member-edit-save`)
	until(t, ctx, 10*time.Second, `location.search === '?saved=1' && document.readyState === 'complete'`)
	m, err = srv.app.Household.Member(context.Background(), "ava")
	if err != nil || m.Targets.Calories == nil || *m.Targets.Calories != 1600 || m.Targets.ProteinG == nil || *m.Targets.ProteinG != 60 || m.Name != "Ava" {
		t.Fatalf("targets not stored: %+v (%v)", m, err)
	}
}

// cmd is a command as a strict-mode model sends it: every property, null
// where unused.
func cmd(action string, kv ...any) map[string]any {
	c := map[string]any{"action": action, "form": nil, "field": nil, "value": nil, "fields": nil, "to": nil, "text": nil}
	for i := 0; i+1 < len(kv); i += 2 {
		c[kv[i].(string)] = kv[i+1]
	}
	return c
}

func copilotReply(message string, cmds ...map[string]any) llmtest.Reply {
	if cmds == nil {
		cmds = []map[string]any{}
	}
	return llmtest.JSON(map[string]any{"message": message, "commands": cmds, "needs_confirmation": false}, 5, 5)
}

// TestCopilotConfirmationAndHostileReplyInBrowser: a scripted model's
// request_confirmation holds the commands after it until the admin says
// yes; a command naming an unknown field is refused and reported; and a
// hostile reply (HTML, Datastar expressions, SSE framing, a javascript:
// link) is shown as text and changes nothing on the page.
func TestCopilotConfirmationAndHostileReplyInBrowser(t *testing.T) {
	browser := newBrowser(t, 1280, 900)
	llm := llmtest.New(t)
	const forged = "\n\nevent: datastar-patch-elements\ndata: elements <div id=\"pwn\" data-init=\"window.__pwned = 'sse'\"></div>\n\n"
	llm.Push(
		copilotReply("Ava it is.",
			cmd("set_field", "field", "name", "value", "Ava"),
			cmd("set_field", "field", "nickname", "value", "Avie"),
			cmd("request_confirmation", "text", "Also make her a child?"),
			cmd("set_field", "field", "role", "value", "child")),
		copilotReply(`<img src=x onerror="window.__pwned='html'"> @post('/admin/copilot/decline') $cp.hl='name'; window.__pwned='expr'`+forged,
			cmd("set_field", "field", "name", "value", `<b data-init="window.__pwned='value'">B</b> @post('/x')`),
			cmd("set_field", "field", "avatar", "value", "$x=1"),
			cmd("show_message", "text", `<script>window.__pwned='script'</script>`+forged),
			cmd("highlight_field", "field", `name'; window.__pwned='field'; '`),
			cmd("navigate", "to", "javascript:window.__pwned='nav'"),
			cmd("request_confirmation", "text", `<i>sure?</i> @get('/x') `+forged),
			cmd("set_field", "field", "id", "value", "hostile")),
	)
	srv := homeApp(t, app.Config{OpenAIBaseURL: llm.URL(), OpenAIKey: "k", Model: "fake"})
	ctx := newTab(t, browser, 90*time.Second)
	openCopilot(t, ctx, srv.url, "/admin/household", "member")

	askCopilot(t, ctx, "member", "add Ava")
	until(t, ctx, 15*time.Second, cpValue("name")+` === 'Ava' && getComputedStyle(document.getElementById('cp-confirm-member')).display !== 'none' &&
		document.querySelector('#cp-confirm-member p').textContent === 'Also make her a child?'`)
	until(t, ctx, 5*time.Second, `document.querySelector('#cp-log-member').textContent.includes('Refused set_field "nickname": the form has no field "nickname"')`)
	var role string
	if err := eval(ctx, cpValue("role"), &role); err != nil || role != "adult" {
		t.Fatalf("the command after request_confirmation ran before the answer: role %q (%v)", role, err)
	}
	click(t, ctx, `#cp-yes-member`)
	until(t, ctx, 5*time.Second, cpValue("role")+` === 'child' && getComputedStyle(document.getElementById('cp-confirm-member')).display === 'none'`)

	askCopilot(t, ctx, "member", "now do something odd")
	until(t, ctx, 15*time.Second, `document.querySelector('#cp-log-member').textContent.includes("window.__pwned='script'") &&
		getComputedStyle(document.getElementById('cp-confirm-member')).display !== 'none'`)
	datastarApplied(t, ctx)
	var state struct {
		Pwned                 any
		Forged, Img, Script   bool
		Name, Avatar, ID, Nav string
		Confirm, Highlighted  string
		Refused               int
	}
	if err := eval(ctx, `({Pwned: window.__pwned ?? null, Forged: !!document.getElementById('pwn'),
		Img: !!document.querySelector('#cp-log-member img, #cp-log-member b, #cp-confirm-member i'), Script: !!document.querySelector('#cp-log-member script'),
		Name: `+cpValue("name")+`, Avatar: `+cpValue("avatar")+`, ID: `+cpValue("id")+`,
		Nav: document.getElementById('cp-nav-member').getAttribute('href') ?? '',
		Confirm: document.querySelector('#cp-confirm-member p').textContent,
		Highlighted: [...document.querySelectorAll('label.cp-hl')].map(l => l.textContent.trim()).join(','),
		Refused: document.querySelectorAll('#cp-log-member .cp-refused').length})`, &state); err != nil {
		t.Fatal(err)
	}
	if state.Pwned != nil || state.Forged || state.Img || state.Script {
		t.Fatalf("the hostile reply changed the page: %+v", state)
	}
	if state.Name != `<b data-init="window.__pwned='value'">B</b> @post('/x')` || state.Avatar != "$x=1" || state.ID != "" {
		t.Fatalf("values are not plain text, or a held command ran: %+v", state)
	}
	if state.Nav != "" || state.Highlighted != "" || state.Refused != 3 { // nickname, the field, the navigation
		t.Fatalf("refusals: %+v", state)
	}
	if want := "<i>sure?</i> @get('/x')"; len(state.Confirm) < len(want) || state.Confirm[:len(want)] != want {
		t.Fatalf("confirmation text %q", state.Confirm)
	}
	// The admin declines: the held command is dropped, the page is intact.
	click(t, ctx, `#cp-no-member`)
	until(t, ctx, 5*time.Second, `getComputedStyle(document.getElementById('cp-confirm-member')).display === 'none' && `+cpValue("id")+` === ''`)
	if _, err := srv.app.Household.Member(context.Background(), "hostile"); err == nil {
		t.Fatal("a member was stored without Save")
	}
}

// TestCopilotScheduleAndPlexInBrowser: without a model, "weekdays at 6:30"
// on Admin → Schedules fills the new task's type and cron (the form takes
// cron only) and Save creates it; "connect Plex at …" on Admin →
// Integrations fills Plex's address and points at the token field, which
// the copilot never fills; on Admin → Household the night-mode panel
// fills its own form (not the new member's) and Save stores it.
func TestCopilotScheduleAndPlexInBrowser(t *testing.T) {
	browser := newBrowser(t, 1280, 900)
	srv := homeApp(t, app.Config{})
	ctx := newTab(t, browser, 90*time.Second)
	field := func(form, name string) string {
		return `document.querySelector('#` + form + ` [name=` + name + `]')`
	}

	openCopilot(t, ctx, srv.url, "/admin/schedules", "schedule")
	askCopilot(t, ctx, "schedule", "weekdays at 6:30")
	until(t, ctx, 10*time.Second, field("new-task", "schedule")+`.value === '30 6 * * 1-5' && `+field("new-task", "type")+`.value === 'recurring' &&
		`+field("new-task", "description")+`.closest('label').classList.contains('cp-hl')`)
	typeInto(t, ctx, `#new-task [name=description]`, "Morning check-in")
	js(t, ctx, field("new-task", "member")+`.value = 'ada'`) // a freeform action needs a member
	click(t, ctx, `#task-save`)
	until(t, ctx, 10*time.Second, `/^\/admin\/schedules\/\d+$/.test(location.pathname)`)
	tasks, err := srv.app.Schedule.List(context.Background(), schedule.TaskFilter{})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, tk := range tasks {
		found = found || (tk.Description == "Morning check-in" && tk.Schedule == "30 6 * * 1-5" && tk.Kind == schedule.KindRecurring)
	}
	if !found {
		t.Fatalf("no weekday task among %+v", tasks)
	}

	openCopilot(t, ctx, srv.url, "/admin/integrations", "plex")
	askCopilot(t, ctx, "plex", "connect Plex at http://plex.local:32400")
	until(t, ctx, 10*time.Second, field("plex", "plex_url")+`.value === 'http://plex.local:32400' &&
		`+field("plex", "plex_token")+`.closest('label').classList.contains('cp-hl') && `+field("plex", "plex_token")+`.value === '' &&
		document.querySelector('#cp-log-plex').textContent.includes('I never handle tokens')`)

	openCopilot(t, ctx, srv.url, "/admin/screens", "screen")
	askCopilot(t, ctx, "screen", "enrol the kitchen tablet")
	until(t, ctx, 10*time.Second, field("enrol-screen", "name")+`.value === 'Kitchen tablet' && `+field("add-script", "name")+`.value === ''`)

	// Two panels on one page: the night-mode form's beside the new member's.
	openCopilot(t, ctx, srv.url, "/admin/household", "night")
	askCopilot(t, ctx, "night", "dim the screens from 10pm to 6:30am")
	until(t, ctx, 10*time.Second, field("night", "night_mode")+`.value === 'dim' && `+field("night", "night_from")+`.value === '22:00' &&
		`+field("night", "night_to")+`.value === '06:30' && document.querySelector('#cp-log-member').textContent === ''`)
	click(t, ctx, `#night button[type=submit]`)
	until(t, ctx, 10*time.Second, `location.search === '?saved=night' && document.readyState === 'complete'`)
	hs, err := srv.app.Household.Settings(context.Background())
	if err != nil || hs.Night.Mode != "dim" || hs.Night.From != "22:00" || hs.Night.To != "06:30" {
		t.Fatalf("night = %+v (%v)", hs.Night, err)
	}
	openCopilot(t, ctx, srv.url, "/admin/household", "time_zone")
	askCopilot(t, ctx, "time_zone", "set the time zone to Europe/Berlin")
	until(t, ctx, 10*time.Second, field("time-zone", "time_zone")+`.value === 'Europe/Berlin'`)
	click(t, ctx, `#time-zone button[type=submit]`)
	until(t, ctx, 10*time.Second, `location.search === '?saved=time-zone' && document.readyState === 'complete'`)
	if hs, err = srv.app.Household.Settings(context.Background()); err != nil || hs.TimeZone != "Europe/Berlin" {
		t.Fatalf("time zone = %q (%v)", hs.TimeZone, err)
	}
}
