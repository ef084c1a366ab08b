package web_test

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"hearth/internal/health"
	"hearth/internal/store"
	"hearth/internal/talos"
)

// policyValues is p as Admin → Policies posts it.
func policyValues(p talos.Policy) url.Values {
	v := url.Values{}
	for _, r := range health.Roles {
		rp, f := p.Roles[r], "roles."+string(r)+"."
		v[f+"tools"] = rp.Tools
		v.Set(f+"entities", strings.Join(rp.Entities, "\n"))
		v.Set(f+"confirm", strings.Join(rp.Confirm, "\n"))
		if c := rp.Climate; c != nil {
			v.Set(f+"climate.min", fmt.Sprint(c.Min))
			v.Set(f+"climate.max", fmt.Sprint(c.Max))
		}
		if w := rp.QuietHours; w != nil {
			v.Set(f+"quiet_hours.from", w.From)
			v.Set(f+"quiet_hours.to", w.To)
		}
		v.Set(f+"per_hour", strconv.Itoa(rp.PerHour))
	}
	return v
}

// policyJSON is p as stored (nil and empty lists alike), for comparing.
func policyJSON(t *testing.T, p talos.Policy) string {
	t.Helper()
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(string(b), `null`, `[]`)
}

func storedPolicy(t *testing.T, db *store.DB) talos.Policy {
	t.Helper()
	p, err := talos.NewStore(db, nil).Policy(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// decision is a recorded decision as the gate writes it.
type decision struct {
	at                                                time.Time
	member, role, tool, target, action, outcome, rule string
	reason, decidedBy, result                         string
	expires                                           *time.Time
}

func recordDecision(t *testing.T, db *store.DB, d decision) int64 {
	t.Helper()
	var exp, decidedAt any
	if d.expires != nil {
		exp = store.FormatTime(*d.expires)
	}
	if d.decidedBy != "" {
		decidedAt = store.FormatTime(d.at.Add(time.Minute))
	}
	res, err := db.Write.Exec(`INSERT INTO policy_decisions (at, member_id, role, tool, target, action, args, outcome, rule, reason,
		expires_at, decided_by, decided_at, result) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
		store.FormatTime(d.at), d.member, d.role, d.tool, d.target, d.action, `{"entity_id":"`+d.target+`"}`, d.outcome, d.rule,
		d.reason, exp, d.decidedBy, decidedAt, d.result)
	if err != nil {
		t.Fatal(err)
	}
	id, _ := res.LastInsertId()
	return id
}

// Admin → Policies: the default policy as the form; a valid save is the
// policy in force; an invalid one names every problem next to its field,
// keeps what was typed and saves nothing; a reset asks first, then saves
// the default.
func TestAdminPoliciesEditAndReset(t *testing.T) {
	env := newAdminEnv(t)
	const page = "/admin/policies"

	code, body := env.page(page)
	if code != http.StatusOK {
		t.Fatalf("GET %s: %d", page, code)
	}
	mustContain(t, "the policy page", body, `href="/admin/policies" class="active"`,
		`<fieldset class="policy-role form-grid" id="policy-adult">`, `id="policy-child"`, `id="policy-guest"`,
		`name="roles.child.per_hour" type="number" value="30"`,
		`name="roles.guest.tools" value="home_call_service" checked`, `Act on a device (lights, locks, thermostat, …)`,
		`name="roles.child.quiet_hours.from" type="time" value="20:00"`, `name="roles.adult.climate.min" type="number" value="16"`,
		"lock.*\nalarm_control_panel.*\ncover.*</textarea>",
		"e.g. light.*, lock.front_door, media_player.living_room_*", "e.g. lock.*, cover.garage_door",
		`href="/admin/policies/reset"`, "Nothing recorded yet.")
	mustNotContain(t, "the policy page", body, `name="roles.guest.tools" value="plex_play" checked`)

	// A valid save: the policy in force.
	want := talos.DefaultPolicy()
	child := want.Roles[health.RoleChild]
	child.Tools = []string{talos.ToolListEntities, talos.ToolGetState, talos.ToolCallService}
	child.Entities = []string{"light.kids_*", "media_player.kids_tv"}
	child.QuietHours = &talos.Window{From: "19:30", To: "07:00"}
	child.Climate, child.PerHour = nil, 10
	want.Roles[health.RoleChild] = child
	v := policyValues(want)
	v.Set("roles.child.entities", "light.kids_*, media_player.kids_tv\n\n") // commas and blank lines are fine
	resp, body := env.form(page, v, false)
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != page+"?saved=1" {
		t.Fatalf("save: %d %s %.500s", resp.StatusCode, resp.Header.Get("Location"), body)
	}
	if got := storedPolicy(t, env.db); policyJSON(t, got) != policyJSON(t, want) {
		t.Fatalf("saved policy:\n%s\nwant\n%s", policyJSON(t, got), policyJSON(t, want))
	}
	_, body = env.page(page + "?saved=1")
	mustContain(t, "the saved page", body, "Saved.", "light.kids_*\nmedia_player.kids_tv</textarea>",
		`name="roles.child.quiet_hours.from" type="time" value="19:30"`, `name="roles.child.climate.min" type="number" value=""`)
	mustNotContain(t, "the saved page", body, `name="roles.child.tools" value="plex_play" checked`)

	// An invalid save: every problem on its field, what was typed kept,
	// nothing saved.
	bad := policyValues(want)
	bad.Add("roles.child.tools", "home_unlock")
	bad.Set("roles.child.entities", "ligth.*\nlight.kids_*")
	bad.Set("roles.guest.quiet_hours.from", "25:00")
	bad.Set("roles.adult.climate.min", "warm")
	bad.Set("roles.adult.per_hour", "")
	bad.Del("roles.child.quiet_hours.to")
	resp, body = env.form(page, bad, false)
	if resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("invalid save: %d", resp.StatusCode)
	}
	mustContain(t, "the refused save", body, "Nothing was saved: 6 problems.",
		`unknown tool &#34;home_unlock&#34;`, `unknown domain &#34;ligth&#34;`, "ligth.*\nlight.kids_*</textarea>",
		`name="roles.guest.quiet_hours.from" type="time" value="25:00" step="any" aria-invalid`, `&#34;25:00&#34; is not a time like 21:30`,
		"give both times, or neither",
		`name="roles.adult.climate.min" type="number" value="warm" step="any" aria-invalid`, "must be a number",
		"must be a whole number (0: no cap)", `name="roles.child.quiet_hours.from" type="time" value="19:30"`)
	if got := storedPolicy(t, env.db); policyJSON(t, got) != policyJSON(t, want) {
		t.Fatalf("a refused save changed the policy: %s", policyJSON(t, got))
	}
	// A bad pattern alone is refused by the policy's own validation.
	bad = policyValues(want)
	bad.Set("roles.guest.confirm", "lock front door")
	if resp, body = env.form(page, bad, false); resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("a bad pattern: %d", resp.StatusCode)
	}
	mustContain(t, "a bad pattern", body, "Nothing was saved: one problem.", "is not a pattern like light.*")

	// Without the CSRF token neither a save nor a reset goes through.
	for path, v := range map[string]url.Values{page: policyValues(talos.DefaultPolicy()), page + "/reset": {"confirm": {"reset"}}} {
		req, _ := http.NewRequest(http.MethodPost, env.srv.URL+path, strings.NewReader(v.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Sec-Fetch-Site", "same-origin")
		resp, err := env.client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		if resp.Body.Close(); resp.StatusCode != http.StatusForbidden {
			t.Errorf("POST %s without a token: %d, want 403", path, resp.StatusCode)
		}
	}
	if got := storedPolicy(t, env.db); policyJSON(t, got) != policyJSON(t, want) {
		t.Fatal("a post without the CSRF token changed the policy")
	}

	// Reset: asks first; without the confirmation nothing changes.
	code, body = env.page(page + "/reset")
	if code != http.StatusOK {
		t.Fatalf("reset page: %d", code)
	}
	mustContain(t, "the reset page", body, `action="/admin/policies/reset"`, `name="confirm" value="reset"`, "Reset to default")
	if resp, _ = env.form(page+"/reset", nil, false); resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("reset without confirming: %d", resp.StatusCode)
	}
	if got := storedPolicy(t, env.db); policyJSON(t, got) != policyJSON(t, want) {
		t.Fatal("an unconfirmed reset changed the policy")
	}
	resp, _ = env.form(page+"/reset", url.Values{"confirm": {"reset"}}, false)
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != page+"?saved=reset" {
		t.Fatalf("reset: %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
	if got := storedPolicy(t, env.db); policyJSON(t, got) != policyJSON(t, talos.DefaultPolicy()) {
		t.Fatalf("after the reset: %s", policyJSON(t, got))
	}
	_, body = env.page(page + "?saved=reset")
	mustContain(t, "after the reset", body, "The policy is back to the default.", `name="roles.child.per_hour" type="number" value="30"`)
}

// The decision log: newest first, who by name ("Guest" for a screen's
// guest), waiting ones marked with when they time out, the filters, and
// the model's and Home Assistant's text as text.
func TestAdminPoliciesDecisionLog(t *testing.T) {
	env := newAdminEnv(t)
	ctx := context.Background()
	if err := env.db.UpdateMember(ctx, health.Member{ID: "bo", Name: "Bo Adult", Color: "#4f8cff", Unit: health.KG}); err != nil {
		t.Fatal(err)
	}
	if _, err := env.db.CreateMember(ctx, health.Member{ID: "cleo", Name: "Cleo", Color: "#4f8cff", Unit: health.KG, Role: health.RoleChild}); err != nil {
		t.Fatal(err)
	}
	at := env.clock.Now()
	exp := at.Add(2 * time.Minute)
	denied := recordDecision(t, env.db, decision{at: at.Add(-3 * time.Hour), member: "cleo", role: "child", tool: talos.ToolCallService,
		target: "lock.front_door", action: "Unlock the front door", outcome: "denied", rule: "child.entities",
		reason: "a child may not use lock.front_door"})
	confirmed := recordDecision(t, env.db, decision{at: at.Add(-2 * time.Hour), member: "bo", role: "adult", tool: talos.ToolCallService,
		target: "cover.garage", action: "Open the garage", outcome: "confirmed", rule: "adult.confirm", reason: "cover.garage (cover.*) waits for an adult",
		decidedBy: "bo", result: "<b>opened</b>"})
	guest := recordDecision(t, env.db, decision{at: at.Add(-time.Hour), role: "guest", tool: talos.ToolGetState,
		target: "sensor.<script>x</script>", outcome: "allowed", rule: "guest.tools"})
	waiting := recordDecision(t, env.db, decision{at: at, member: "bo", role: "adult", tool: talos.ToolCallService,
		target: "lock.front_door", action: "Unlock the front door", outcome: "waiting", rule: "adult.confirm", expires: &exp})

	const page = "/admin/policies"
	_, body := env.page(page)
	row := func(id int64) string { return fmt.Sprintf(`id="decision-%d"`, id) }
	iw, ig, ic, id := strings.Index(body, row(waiting)), strings.Index(body, row(guest)), strings.Index(body, row(confirmed)), strings.Index(body, row(denied))
	if iw < 0 || !(iw < ig && ig < ic && ic < id) {
		t.Fatalf("the log is not newest first: %d %d %d %d", iw, ig, ic, id)
	}
	mustContain(t, "the log", body,
		row(waiting)+` data-outcome="waiting" class="waiting"`, "Waiting for an adult", "refused at Mon 2 Mar 09:02:00 unless an adult answers",
		"<td>Bo Adult</td>", "<td>Cleo</td>", "<td>Guest</td>", "<td>Child</td>", "Unlock the front door",
		`<span class="badge outcome-denied">Denied</span>`, "<code>child.entities</code>", "a child may not use lock.front_door",
		"&lt;b&gt;opened&lt;/b&gt;", "sensor.&lt;script&gt;x&lt;/script&gt;", "Mon 2 Mar 09:00:00")
	mustNotContain(t, "the log", body, "<b>opened</b>", "<script>x</script>", "Nothing recorded yet.")

	for _, tc := range []struct {
		query     string
		want, not []int64
	}{
		{"member=cleo", []int64{denied}, []int64{confirmed, guest, waiting}},
		{"member=bo&outcome=waiting", []int64{waiting}, []int64{confirmed, guest, denied}},
		{"role=guest", []int64{guest}, []int64{confirmed, waiting, denied}},
		{"tool=home_call_service&role=adult", []int64{confirmed, waiting}, []int64{guest, denied}},
	} {
		_, body := env.page(page + "?" + tc.query)
		for _, w := range tc.want {
			mustContain(t, tc.query, body, row(w))
		}
		for _, n := range tc.not {
			mustNotContain(t, tc.query, body, row(n))
		}
	}
	_, body = env.page(page + "?tool=plex_play")
	mustContain(t, "no match", body, "No decision matches these filters.", `<option value="plex_play" selected>`)
}

// The API: GET the policy in force with the tools, PUT a new one (422
// naming unknown tools and domains, 400 for what is not a policy), and the
// decisions with filters.
func TestAPIPoliciesTalos(t *testing.T) {
	env := newAdminEnv(t)
	code, body := env.api("GET", "/api/policies/talos", "")
	if code != 200 || len(body["tools"].([]any)) != len(talos.ToolNames) || field(body, "policy", "roles") == nil {
		t.Fatalf("GET: %d %v", code, body)
	}
	p := talos.DefaultPolicy()
	guest := p.Roles[health.RoleGuest]
	guest.PerHour = 5
	p.Roles[health.RoleGuest] = guest
	b, _ := json.Marshal(p)
	if code, body = env.api("PUT", "/api/policies/talos", string(b)); code != 200 {
		t.Fatalf("PUT: %d %v", code, body)
	}
	if got := storedPolicy(t, env.db); got.Roles[health.RoleGuest].PerHour != 5 {
		t.Fatalf("PUT did not save: %+v", got.Roles[health.RoleGuest])
	}
	bad := strings.Replace(string(b), `"light.*"`, `"ligth.*"`, 1)
	bad = strings.Replace(bad, `"home_list_entities"`, `"home_unlock"`, 1)
	code, body = env.api("PUT", "/api/policies/talos", bad)
	fields, _ := body["fields"].(map[string]any)
	if code != http.StatusUnprocessableEntity || len(fields) != 2 {
		t.Fatalf("invalid PUT: %d %v", code, body)
	}
	for k, v := range fields {
		if s := v.(string); !strings.Contains(s, `unknown tool "home_unlock"`) && !strings.Contains(s, `unknown domain "ligth"`) {
			t.Errorf("field %s: %s", k, s)
		}
	}
	for _, notPolicy := range []string{`{"roles":{},"extra":1}`, `[1]`, `{"roles":{}} {}`} {
		if code, body = env.api("PUT", "/api/policies/talos", notPolicy); code != http.StatusBadRequest {
			t.Errorf("PUT %s: %d %v", notPolicy, code, body)
		}
	}
	if got := storedPolicy(t, env.db); got.Roles[health.RoleGuest].PerHour != 5 {
		t.Fatal("a refused PUT changed the policy")
	}

	at := env.clock.Now()
	recordDecision(t, env.db, decision{at: at.Add(-time.Hour), member: "ada", role: "child", tool: talos.ToolPlay, target: "Living room TV",
		outcome: "denied", rule: "child.quiet_hours"})
	recordDecision(t, env.db, decision{at: at, member: "bo", role: "adult", tool: talos.ToolCallService, target: "lock.front_door",
		outcome: "waiting", rule: "adult.confirm"})
	code, body = env.api("GET", "/api/policies/talos/decisions", "")
	ds, _ := body["decisions"].([]any)
	if code != 200 || len(ds) != 2 || ds[0].(map[string]any)["member"] != "bo" {
		t.Fatalf("decisions: %d %v", code, body)
	}
	code, body = env.api("GET", "/api/policies/talos/decisions?member=ada&outcome=denied&tool=plex_play&role=child&limit=5", "")
	if ds, _ = body["decisions"].([]any); code != 200 || len(ds) != 1 || ds[0].(map[string]any)["rule"] != "child.quiet_hours" {
		t.Fatalf("filtered decisions: %d %v", code, body)
	}
	for _, q := range []string{"role=robot", "outcome=maybe", "tool=home_unlock", "limit=0"} {
		if code, body = env.api("GET", "/api/policies/talos/decisions?"+q, ""); code != 400 {
			t.Errorf("decisions?%s: %d %v", q, code, body)
		}
	}
}

// A member's decisions are their data: in their export, erased with them;
// another member's and a guest's stay, without the name of the erased
// adult who confirmed one.
func TestPolicyDecisionsAreMemberData(t *testing.T) {
	s := newSweepServer(t)
	at := time.Now().UTC().Truncate(time.Second)
	recordDecision(t, s.app.DB, decision{at: at, member: "maya", role: "adult", tool: talos.ToolCallService, target: "light.zqxmaya",
		action: "Turn on the kitchen light", outcome: "allowed", rule: "adult.allowed"})
	recordDecision(t, s.app.DB, decision{at: at, member: "theo", role: "adult", tool: talos.ToolCallService, target: "light.zqxtheo",
		outcome: "confirmed", rule: "adult.confirm", decidedBy: "maya"})
	recordDecision(t, s.app.DB, decision{at: at, role: "guest", tool: talos.ToolGetState, target: "sensor.zqxguest", outcome: "allowed",
		rule: "guest.tools"})
	rec := s.do(swReq{method: http.MethodGet, path: "/admin/household/maya/export"})
	zr, err := zip.NewReader(bytes.NewReader(rec.Body.Bytes()), int64(rec.Body.Len()))
	if err != nil {
		t.Fatalf("export: %d %v", rec.Code, err)
	}
	var csv string
	for _, f := range zr.File {
		if f.Name == "assistant_decisions.csv" {
			r, _ := f.Open()
			b, _ := io.ReadAll(r)
			csv = string(b)
		}
	}
	if !strings.Contains(csv, "light.zqxmaya") || !strings.Contains(csv, "Turn on the kitchen light") || strings.Contains(csv, "zqxtheo") ||
		strings.Contains(csv, "zqxguest") {
		t.Fatalf("assistant_decisions.csv:\n%s", csv)
	}
	if page := s.do(swReq{method: http.MethodGet, path: "/admin/household/maya/erase"}).Body.String(); !strings.Contains(page,
		"what they asked the home assistant to do") {
		t.Error("the erase page does not list the decisions")
	}
	r := form(url.Values{"confirm": {"maya"}})
	r.path = "/admin/household/maya/erase"
	if rec := s.do(r); rec.Code != http.StatusSeeOther {
		t.Fatalf("erase: %d", rec.Code)
	}
	var mine, others int
	_ = s.app.DB.Read.QueryRow(`SELECT count(*) FROM policy_decisions WHERE member_id = 'maya'`).Scan(&mine)
	_ = s.app.DB.Read.QueryRow(`SELECT count(*) FROM policy_decisions WHERE member_id != 'maya'`).Scan(&others)
	if mine != 0 || others != 2 {
		t.Fatalf("after erasing maya: %d of hers, %d others", mine, others)
	}
	var by string
	_ = s.app.DB.Read.QueryRow(`SELECT decided_by FROM policy_decisions WHERE member_id = 'theo'`).Scan(&by)
	if by != "an erased member" {
		t.Fatalf("Theo's decision confirmed by Maya says decided_by %q after her erasure", by)
	}
}
