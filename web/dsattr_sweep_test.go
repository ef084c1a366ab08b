package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"hearth/internal/household"
	"hearth/internal/lifeplan"
)

// dsPayload is request text built to run as code inside a Datastar
// expression: an action call, a signal reference, every quote and an emoji
// (the __escaped placeholder markers Datastar uses are emoji). "zqx" marks
// it in the output.
const dsPayload = "zqx@post('/admin/household')$_csrf\"'`🖕JS_🚀zqx"

// dsAttr matches attributes Datastar evaluates (plugin names of v1.0.0).
// templ always writes attribute values in double quotes.
var dsAttr = regexp.MustCompile(`\s(data-(?:signals|on|init|text|show|attr|class|style|bind|effect|computed|indicator|ref|json-signals|preserve-attr|ignore)[a-z0-9:_.\-]*)="([^"]*)"`)

// swQueryNames are the query parameters Hearth reads anywhere.
var swQueryNames = []string{"agent", "assignment", "before", "created_by", "done", "from", "i", "limit", "m", "member",
	"next", "program", "q", "rolledback", "saved", "schedule", "show", "status", "type", "kind", "day", "page", "id"}

// dsCheck fails when the marker appears inside a Datastar-evaluated
// attribute of an HTML page or of the elements a stream patches.
func dsCheck(t *testing.T, what, body string) {
	t.Helper()
	for _, m := range dsAttr.FindAllStringSubmatch(body, -1) {
		if strings.Contains(m[2], "zqx") {
			t.Errorf("%s: request text inside %s=%q", what, m[1], m[2])
		}
	}
}

// TestNoRequestTextInDatastarAttributes renders every page and stream with
// every query parameter set to the payload, and after member text with the
// payload was stored, and fails if the payload lands in any attribute that
// Datastar evaluates (DESIGN §7): such text must travel as element text or
// plain attributes.
func TestNoRequestTextInDatastarAttributes(t *testing.T) {
	s := newSweepServer(t)
	// Stored member text: a meal, a workout and a member's name.
	for _, r := range []swReq{
		{method: http.MethodPost, path: "/api/v1/members/maya/meals", ctype: "application/json",
			body: []byte(fmt.Sprintf(`{"name":%q,"calories":100}`, dsPayload))},
		{method: http.MethodPost, path: "/api/v1/members/maya/workouts", ctype: "application/json",
			body: []byte(fmt.Sprintf(`{"type":"run","title":%q,"duration_min":10}`, dsPayload))},
	} {
		if rec := s.do(r); rec.Code != http.StatusCreated {
			t.Fatalf("%s: %d %s", r.path, rec.Code, rec.Body.String())
		}
	}
	q := url.Values{}
	for _, n := range swQueryNames {
		q.Set(n, dsPayload)
	}
	pages := 0
	for _, rt := range s.app.Echo.Routes() {
		if rt.Method != http.MethodGet {
			continue
		}
		for _, ds := range []bool{false, true} {
			for _, query := range []string{"", q.Encode()} {
				path := s.fill(rt.Path, "")
				if query != "" {
					path += "?" + query
				}
				rec := s.do(swReq{method: http.MethodGet, path: path, datastar: ds})
				dsCheck(t, fmt.Sprintf("GET %s (datastar=%v)", path, ds), rec.Body.String())
				pages++
			}
		}
		// Each parameter alone, so a route that refuses one bad value still
		// renders with the others.
		for _, n := range swQueryNames {
			path := s.fill(rt.Path, "") + "?" + url.Values{n: {dsPayload}}.Encode()
			dsCheck(t, "GET "+path, s.do(swReq{method: http.MethodGet, path: path}).Body.String())
		}
	}
	t.Logf("checked %d renders", pages)
	// A CSRF cookie planted by another site (32 characters, not hex) never
	// reaches a page: the server issues a fresh token instead.
	for _, p := range []string{"/", "/m/maya", "/admin"} {
		req := httptest.NewRequest(http.MethodGet, "http://127.0.0.1:8080"+p, nil)
		req.RemoteAddr = "127.0.0.1:40000"
		req.AddCookie(&http.Cookie{Name: "hearth_csrf", Value: "zqx@post('/x')$_a`'zzzzzzzzzzzzz"})
		rec := httptest.NewRecorder()
		s.app.Echo.ServeHTTP(rec, req)
		dsCheck(t, "planted cookie GET "+p, rec.Body.String())
	}
	// The pattern itself finds a payload in an evaluated attribute.
	if !dsAttr.MatchString(`<body data-signals="{&#34;q&#34;:&#34;zqx&#34;}">`) {
		t.Fatal("the attribute pattern misses data-signals")
	}
}

// TestNoPlanTextInDatastarAttributes: a life plan full of hostile text
// (the payload above and injected markup in every field a member or a
// coach writes) is rendered by the kiosk's Life plan page, its "Talk it
// through" sheet with the tap prompts built from it (values, goals'
// move chips), the answers to its taps and the admin's Life plan page:
// the payload lands in no Datastar-evaluated attribute, and no markup
// comes back unescaped.
func TestNoPlanTextInDatastarAttributes(t *testing.T) {
	k := newKiosk(t)
	ctx, lp := context.Background(), k.app.LifePlan
	check := func(what, body string) {
		t.Helper()
		dsCheck(t, what, body)
		swCheckEscaped(t, what, body)
	}
	hostile := dsPayload + swInjections[1]
	if _, err := lp.SetValues(ctx, "ada", []lifeplan.ValueInput{{Name: dsPayload}, {Name: swInjections[1]}}); err != nil {
		t.Fatal(err)
	}
	if _, err := lp.SetPurpose(ctx, "ada", hostile+swInjections[0]); err != nil {
		t.Fatal(err)
	}
	g, err := lp.AddGoal(ctx, "ada", lifeplan.GoalInput{Name: dsPayload, Why: hostile}, "member")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lp.AddGoal(ctx, "ada", lifeplan.GoalInput{Name: swInjections[2], ParentID: &g.ID}, "member"); err != nil {
		t.Fatal(err)
	}
	b, err := lp.AddBelief(ctx, "ada", lifeplan.BeliefInput{If: dsPayload, Then: swInjections[0]})
	if err != nil {
		t.Fatal(err)
	}
	var notes []int64
	for _, n := range []string{dsPayload, hostile} {
		e, err := lp.SuggestEvidence(ctx, "ada", b.ID, lifeplan.FromCoach, n)
		if err != nil {
			t.Fatal(err)
		}
		notes = append(notes, e.ID)
	}
	if _, err := lp.AddQuality(ctx, "ada", lifeplan.QualityInput{Name: dsPayload, Why: hostile}); err != nil {
		t.Fatal(err)
	}
	fit, err := k.hh.AddGoal(ctx, "ada", household.GoalInput{Kind: "custom", Description: hostile})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lp.LinkFitnessGoal(ctx, "ada", g.ID, fit.ID); err != nil {
		t.Fatal(err)
	}
	_, page := k.get("/m/ada/plan")
	check("the locked plan page", page)
	if err := k.hh.SetPIN(ctx, "ada", "2468"); err != nil {
		t.Fatal(err)
	}
	k.post("/m/ada/unlock", formOf("pin", "2468"), "")
	_, page = k.get("/m/ada/plan")
	if !strings.Contains(page, "zqx") {
		t.Fatal("the unlocked plan page does not show the plan")
	}
	check("the plan page", page)
	_, body := sheet(t, k, "/m/ada/plan/chat/latest")
	if !strings.Contains(body, "Move “zqx") {
		t.Fatalf("the sheet has no move chip of the hostile goal: %.2000s", body)
	}
	check("the plan sheet", body)
	gid := strconv.FormatInt(g.ID, 10)
	for p, form := range map[string]url.Values{
		"/m/ada/plan/goals/" + gid:                                formOf("to", "considered", "reason", hostile),
		"/m/ada/plan/evidence/" + strconv.FormatInt(notes[0], 10): formOf("decision", "accept"),
		"/m/ada/plan/evidence/" + strconv.FormatInt(notes[1], 10): formOf("decision", "dismiss"),
		"/m/ada/plan/chat":                                        formOf("message", "Move “"+dsPayload+"” to ready because "+hostile),
	} {
		_, body := k.post(p, form, "")
		waitIdle(t, k.app, "ada")
		check("POST "+p, body)
	}
	_, body = sheet(t, k, "/m/ada/plan/chat/latest")
	check("the plan sheet after the turn", body)
	_, page = k.get("/admin/household/ada/lifeplan")
	if !strings.Contains(page, "zqx") {
		t.Fatalf("the admin's life plan page does not show the plan: %.300s", page)
	}
	check("the admin's life plan page", page)
}
