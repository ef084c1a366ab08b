package web_test

// The life plan's JSON API (issue 40): every goal transition guard through
// the API, the access rule (the admin, or a screen the member unlocked
// with their PIN, never anything the request says), and isolation between
// members. The real app, served, with an admin password and token set (a
// loopback client is the admin only while neither is).

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"hearth/internal/health"
	"hearth/internal/lifeplan"
)

const (
	lpPassword = "lifeplan-admin-pw"
	lpToken    = "lifeplan-api-token-0123456789"
	adaPIN     = "2468"
	boPIN      = "1357"
)

// lpEnv is a served app with a password and token, ada and bo each with a PIN.
type lpEnv struct {
	*kiosk
}

func newLifePlanEnv(t *testing.T) *lpEnv {
	t.Helper()
	k := newKioskWith(t, withPassword(lpPassword, lpToken))
	ctx := context.Background()
	if err := k.hh.SetPIN(ctx, "ada", adaPIN); err != nil {
		t.Fatal(err)
	}
	if err := k.hh.SetPIN(ctx, "bo", boPIN); err != nil {
		t.Fatal(err)
	}
	return &lpEnv{k}
}

// lpClient is one way of calling the API: a screen (a browser with its
// cookies: CSRF and the screen's id), or a script with the bearer token.
type lpClient struct {
	env    *lpEnv
	client *http.Client
	csrf   string
	bearer string
}

// screen is a new browser at the household view: it has a CSRF cookie and
// a screen id, and unlocks nobody.
func (env *lpEnv) screen() *lpClient {
	env.t.Helper()
	c := &lpClient{env: env, client: browser(10 * time.Second)}
	resp, err := c.client.Get(env.srv.URL + "/")
	if err != nil {
		env.t.Fatal(err)
	}
	resp.Body.Close()
	u, _ := url.Parse(env.srv.URL)
	var sid string
	for _, ck := range c.client.Jar.Cookies(u) {
		switch ck.Name {
		case "hearth_csrf":
			c.csrf = ck.Value
		case "hearth_screen":
			sid = ck.Value
		}
	}
	if c.csrf == "" || sid == "" {
		env.t.Fatal("the household view set no CSRF cookie or screen id")
	}
	return c
}

// script calls with the bearer token and no cookies.
func (env *lpEnv) script() *lpClient {
	return &lpClient{env: env, client: &http.Client{Timeout: 10 * time.Second}, bearer: lpToken}
}

// unlock enters member's PIN on this screen through the kiosk's real form.
func (c *lpClient) unlock(member, pin string) {
	c.env.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, c.env.srv.URL+"/m/"+member+"/unlock", strings.NewReader(url.Values{"pin": {pin}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	req.Header.Set("X-CSRF-Token", c.csrf)
	resp, err := c.client.Do(req)
	if err != nil {
		c.env.t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		c.env.t.Fatalf("unlock %s: %d %.300s", member, resp.StatusCode, b)
	}
}

// lpAnswer is a response: status, body, and the body decoded.
type lpAnswer struct {
	code int
	body string
	m    map[string]any
	hdr  http.Header
}

func (a lpAnswer) String() string { return fmt.Sprintf("%d %.400s", a.code, a.body) }

// id is the answer's "id".
func (a lpAnswer) id() int64 {
	f, _ := a.m["id"].(float64)
	return int64(f)
}

// do sends a JSON request to the API; path is relative to
// /api/v1/members/ unless it starts with "/".
func (c *lpClient) do(method, path, body string) lpAnswer {
	c.env.t.Helper()
	if !strings.HasPrefix(path, "/") {
		path = "/api/v1/members/" + path
	}
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, _ := http.NewRequest(method, c.env.srv.URL+path, r)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.bearer != "" {
		req.Header.Set("Authorization", "Bearer "+c.bearer)
	}
	if c.csrf != "" {
		req.Header.Set("Sec-Fetch-Site", "same-origin")
		req.Header.Set("X-CSRF-Token", c.csrf)
	}
	resp, err := c.client.Do(req)
	if err != nil {
		c.env.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	a := lpAnswer{code: resp.StatusCode, body: string(b), hdr: resp.Header}
	_ = json.Unmarshal(b, &a.m)
	return a
}

// must is do, failing unless the status is want.
func (c *lpClient) must(want int, method, path, body string) lpAnswer {
	c.env.t.Helper()
	a := c.do(method, path, body)
	if a.code != want {
		c.env.t.Fatalf("%s %s: %s, want %d", method, path, a, want)
	}
	return a
}

// lpDigest hashes every row of the life-plan tables (and the recorded
// replies): any change by a request alters it.
func lpDigest(t *testing.T, env *lpEnv) string {
	t.Helper()
	ctx := context.Background()
	conn, err := env.db.Read.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	rows, err := conn.QueryContext(ctx, `SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'lifeplan_%' ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	for rows.Next() {
		var n string
		_ = rows.Scan(&n)
		tables = append(tables, n)
	}
	rows.Close()
	if len(tables) < 8 {
		t.Fatalf("only %d life-plan tables: %v", len(tables), tables)
	}
	h := sha256.New()
	for _, tb := range tables {
		fmt.Fprintf(h, "table %s\n", tb)
		if err := hashTable(ctx, conn, tb, h); err != nil {
			t.Fatal(err)
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// pathFrom is the shortest list of allowed moves from dream to state.
func pathFrom(to lifeplan.GoalState) []lifeplan.GoalState {
	prev := map[lifeplan.GoalState]lifeplan.GoalState{lifeplan.Dream: ""}
	queue := []lifeplan.GoalState{lifeplan.Dream}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		for _, n := range lifeplan.Next(s) {
			if _, seen := prev[n]; !seen {
				prev[n] = s
				queue = append(queue, n)
			}
		}
	}
	var path []lifeplan.GoalState
	for s := to; s != lifeplan.Dream; s = prev[s] {
		path = append([]lifeplan.GoalState{s}, path...)
	}
	return path
}

// goalIn adds a goal for member through the API and walks it to state.
func (c *lpClient) goalIn(member string, state lifeplan.GoalState) int64 {
	c.env.t.Helper()
	id := c.must(http.StatusCreated, "POST", member+"/lifeplan/goals", `{"name": "toward `+string(state)+`"}`).id()
	for _, step := range pathFrom(state) {
		g := c.must(http.StatusOK, "POST", fmt.Sprintf("%s/lifeplan/goals/%d/transitions", member, id),
			fmt.Sprintf(`{"to": %q, "reason": "on the way to %s"}`, step, state))
		if g.m["state"] != string(step) {
			c.env.t.Fatalf("walking to %s: %s", state, g)
		}
	}
	return id
}

type lpTransition struct{ From, To, Reason, By string }

func (c *lpClient) history(member string, id int64) []lpTransition {
	c.env.t.Helper()
	a := c.must(http.StatusOK, "GET", fmt.Sprintf("%s/lifeplan/goals/%d/history", member, id), "")
	var h struct{ History []lpTransition }
	if err := json.Unmarshal([]byte(a.body), &h); err != nil {
		c.env.t.Fatal(err)
	}
	return h.History
}

func (c *lpClient) goalState(member string, id int64) string {
	c.env.t.Helper()
	var gs struct {
		Goals []struct {
			ID    int64
			State string
		}
	}
	_ = json.Unmarshal([]byte(c.must(http.StatusOK, "GET", member+"/lifeplan/goals", "").body), &gs)
	for _, g := range gs.Goals {
		if g.ID == id {
			return g.State
		}
	}
	c.env.t.Fatalf("no goal %d of %s", id, member)
	return ""
}

// Every pair of goal states through the API: an allowed move answers 200
// and appends (from, to, reason, who) to the history; any other move is
// 409 naming the moves allowed from the goal's state, and changes nothing;
// a move without a reason, or to no state, is a 400 naming the field.
func TestLifePlanGoalTransitionsThroughTheAPI(t *testing.T) {
	env := newLifePlanEnv(t)
	admin := env.script()
	moved, refused := 0, 0
	for _, from := range lifeplan.GoalStates {
		stay := admin.goalIn("ada", from)
		before := admin.history("ada", stay)
		for _, to := range lifeplan.GoalStates {
			what := fmt.Sprintf("%s → %s", from, to)
			body := fmt.Sprintf(`{"to": %q, "reason": "because %s"}`, to, what)
			if !lifeplan.CanTransition(from, to) {
				a := admin.do("POST", fmt.Sprintf("ada/lifeplan/goals/%d/transitions", stay), body)
				if a.code != http.StatusConflict || a.m["code"] != "conflict" {
					t.Errorf("%s: %s, want 409 conflict", what, a)
				}
				msg, _ := a.m["error"].(string)
				for _, n := range lifeplan.Next(from) {
					if !strings.Contains(msg, string(n)) {
						t.Errorf("%s: the refusal %q does not name the allowed move to %s", what, msg, n)
					}
				}
				if from == lifeplan.Achieved && to != from && !strings.Contains(msg, "final") {
					t.Errorf("%s: %q does not say achieved is final", what, msg)
				}
				if s := admin.goalState("ada", stay); s != string(from) {
					t.Errorf("%s refused, but the goal is now %s", what, s)
				}
				if h := admin.history("ada", stay); !slices.Equal(h, before) {
					t.Errorf("%s refused, but the history changed: %v", what, h)
				}
				refused++
				continue
			}
			id := admin.goalIn("ada", from)
			h0 := admin.history("ada", id)
			a := admin.must(http.StatusOK, "POST", fmt.Sprintf("ada/lifeplan/goals/%d/transitions", id), body)
			if a.m["state"] != string(to) {
				t.Errorf("%s: answered %s", what, a)
			}
			h := admin.history("ada", id)
			want := lpTransition{From: string(from), To: string(to), Reason: "because " + what, By: "admin"}
			if len(h) != len(h0)+1 || h[len(h)-1] != want || !slices.Equal(h[:len(h0)], h0) {
				t.Errorf("%s: history %v, want %v then %+v", what, h, h0, want)
			}
			moved++
		}
	}
	if moved != len(lifeplan.Transitions) || refused != len(lifeplan.GoalStates)*len(lifeplan.GoalStates)-len(lifeplan.Transitions) {
		t.Fatalf("moved %d, refused %d", moved, refused)
	}
	// dream → achieved, the example.
	dream := admin.goalIn("ada", lifeplan.Dream)
	a := admin.must(http.StatusConflict, "POST", fmt.Sprintf("ada/lifeplan/goals/%d/transitions", dream), `{"to": "achieved", "reason": "done!"}`)
	if msg := a.m["error"]; msg != "a goal cannot move from dream to achieved; from dream it can move to considered, abandoned" {
		t.Errorf("dream → achieved: %q", msg)
	}
	for _, body := range []string{`{"to": "considered", "reason": ""}`, `{"to": "considered", "reason": "   "}`, `{"to": "considered"}`} {
		a := admin.must(http.StatusBadRequest, "POST", fmt.Sprintf("ada/lifeplan/goals/%d/transitions", dream), body)
		if f, _ := a.m["fields"].(map[string]any); f["reason"] == nil {
			t.Errorf("%s: %s, want a field error on reason", body, a)
		}
	}
	a = admin.must(http.StatusBadRequest, "POST", fmt.Sprintf("ada/lifeplan/goals/%d/transitions", dream), `{"to": "finished", "reason": "x"}`)
	if f, _ := a.m["fields"].(map[string]any); f["state"] == nil {
		t.Errorf("an unknown state: %s", a)
	}
	if h := admin.history("ada", dream); len(h) != 1 || admin.goalState("ada", dream) != "dream" {
		t.Errorf("refused moves changed the goal: %v", h)
	}
}

// lpFixture is ada's plan with one of everything, and bo's goal and
// fitness goal.
type lpFixture struct {
	adaGoal, adaBelief, adaNote, adaSuggested, adaSuggested2, adaFit int64
	boGoal, boFit                                                    int64
}

func seedLifePlans(t *testing.T, env *lpEnv) lpFixture {
	t.Helper()
	ctx := context.Background()
	lp := env.app.LifePlan
	var f lpFixture
	if _, err := lp.SetPurpose(ctx, "ada", "Hike with my kids"); err != nil {
		t.Fatal(err)
	}
	if _, err := lp.SetValues(ctx, "ada", []lifeplan.ValueInput{{Name: "family"}, {Name: "health"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := lp.AddQuality(ctx, "ada", lifeplan.QualityInput{Name: "patience"}); err != nil {
		t.Fatal(err)
	}
	g, err := lp.AddGoal(ctx, "ada", lifeplan.GoalInput{Name: "Hike the ridge"}, "member")
	if err != nil {
		t.Fatal(err)
	}
	f.adaGoal = g.ID
	b, err := lp.AddBelief(ctx, "ada", lifeplan.BeliefInput{If: "I train in the morning", Then: "I sleep better"})
	if err != nil {
		t.Fatal(err)
	}
	f.adaBelief = b.ID
	for i, p := range []*int64{&f.adaNote, &f.adaSuggested, &f.adaSuggested2} {
		src := lifeplan.FromCoach
		if i == 0 {
			src = lifeplan.FromMember
		}
		e, err := lp.SuggestEvidence(ctx, "ada", b.ID, src, fmt.Sprintf("note %d", i))
		if err != nil {
			t.Fatal(err)
		}
		*p = e.ID
	}
	fit, err := env.db.AddGoal(ctx, health.Goal{MemberID: "ada", Kind: "custom", Description: "Run a 10k"})
	if err != nil {
		t.Fatal(err)
	}
	f.adaFit = fit.ID
	if _, err := lp.LinkFitnessGoal(ctx, "ada", f.adaGoal, f.adaFit); err != nil {
		t.Fatal(err)
	}
	bg, err := lp.AddGoal(ctx, "bo", lifeplan.GoalInput{Name: "Swim a mile"}, "member")
	if err != nil {
		t.Fatal(err)
	}
	f.boGoal = bg.ID
	bfit, err := env.db.AddGoal(ctx, health.Goal{MemberID: "bo", Kind: "custom", Description: "Swim twice a week"})
	if err != nil {
		t.Fatal(err)
	}
	f.boFit = bfit.ID
	return f
}

// lpRoute is a life-plan route of the server.
type lpRoute struct{ method, path string }

// lifePlanRoutes are every route under /api whose path names the life
// plan: a route added there later is swept too.
func lifePlanRoutes(t *testing.T, env *lpEnv) []lpRoute {
	t.Helper()
	var out []lpRoute
	for _, rt := range env.app.Echo.Routes() {
		switch rt.Method {
		case http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
		default:
			continue // group placeholders
		}
		if strings.HasPrefix(rt.Path, "/api/") && strings.Contains(rt.Path, "lifeplan") {
			out = append(out, lpRoute{rt.Method, rt.Path})
		}
	}
	if len(out) < 19 {
		t.Fatalf("only %d life-plan routes: is the API wired?", len(out))
	}
	return out
}

// lpValidBodies is a valid body for every writing life-plan route (none:
// the route reads no body), so that a refusal is the access rule's.
var lpValidBodies = map[string]string{
	"PUT /api/v1/members/:member/lifeplan/purpose":                                  "{\"statement\": \"Keep up with my kids\"}",
	"PUT /api/v1/members/:member/lifeplan/values":                                   `{"values": [{"name": "health"}, {"name": "family"}]}`,
	"POST /api/v1/members/:member/lifeplan/values/rank":                             `{"ranking": ["family"]}`,
	"POST /api/v1/members/:member/lifeplan/beliefs":                                 `{"if": "I walk after dinner", "then": "I sleep well"}`,
	"PATCH /api/v1/members/:member/lifeplan/beliefs/:id":                            `{"state": "testing", "confidence": 0.7}`,
	"POST /api/v1/members/:member/lifeplan/beliefs/:id/evidence":                    `{"text": "Slept 8 h after a run"}`,
	"POST /api/v1/members/:member/lifeplan/evidence/:id/accept":                     "",
	"POST /api/v1/members/:member/lifeplan/evidence/:id/dismiss":                    "",
	"POST /api/v1/members/:member/lifeplan/goals":                                   `{"name": "Climb a hill"}`,
	"POST /api/v1/members/:member/lifeplan/goals/:id/transitions":                   `{"to": "considered", "reason": "weighed it"}`,
	"POST /api/v1/members/:member/lifeplan/qualities":                               `{"name": "courage"}`,
	"PUT /api/v1/members/:member/lifeplan/goals/:id/fitness-links/:fitness_goal":    "",
	"DELETE /api/v1/members/:member/lifeplan/goals/:id/fitness-links/:fitness_goal": "",
}

// fill makes a route's path for member with the fixture's ids.
func (f lpFixture) fill(route, member string) string {
	id := f.adaGoal
	switch {
	case strings.Contains(route, "/beliefs/"):
		id = f.adaBelief
	case strings.HasSuffix(route, "/accept"):
		id = f.adaSuggested
	case strings.HasSuffix(route, "/dismiss"):
		id = f.adaSuggested2
	}
	return strings.NewReplacer(":member", member, ":id", fmt.Sprint(id), ":fitness_goal", fmt.Sprint(f.adaFit)).Replace(route)
}

// Anonymous (a password is set; no session, no token, no unlock): every
// life-plan route, reading or writing, is 401 before its body is read
// (an oversized body is not 413), and nothing is written. The same
// requests with the token succeed: the refusal was the access rule's.
func TestLifePlanRoutesAreClosedToAnonymous(t *testing.T) {
	env := newLifePlanEnv(t)
	f := seedLifePlans(t, env)
	routes := lifePlanRoutes(t, env)
	anon := env.screen()
	before := lpDigest(t, env)
	huge := `{"name": "` + strings.Repeat("x", 2<<20) + `"}`
	for _, rt := range routes {
		key := rt.method + " " + rt.path
		body, ok := lpValidBodies[key]
		if !ok && rt.method != http.MethodGet {
			t.Errorf("%s: no valid body in lpValidBodies: add one", key)
		}
		path := f.fill(rt.path, "ada")
		a := anon.do(rt.method, path, body)
		if a.code != http.StatusUnauthorized || !strings.Contains(a.body, "ada's life plan is private: unlock with ada's PIN on this screen, or sign in as the admin.") {
			t.Errorf("anonymous %s %s: %s, want 401", rt.method, path, a)
		}
		if rt.method != http.MethodGet {
			if a := anon.do(rt.method, path, huge); a.code != http.StatusUnauthorized {
				t.Errorf("anonymous %s %s with a 2 MiB body: %s, want 401 before the body is read", rt.method, path, a)
			}
		}
	}
	if lpDigest(t, env) != before {
		t.Fatal("anonymous requests changed a life plan")
	}
	admin := env.script()
	for _, rt := range routes {
		path := f.fill(rt.path, "ada")
		if a := admin.do(rt.method, path, lpValidBodies[rt.method+" "+rt.path]); a.code >= 300 {
			t.Errorf("with the token, %s %s: %s", rt.method, path, a)
		}
	}
	// Unknown members are 404 for everyone; for the anonymous too (the
	// member list is open on the household network).
	if a := anon.do("GET", "nobody/lifeplan", ""); a.code != http.StatusNotFound {
		t.Errorf("nobody's plan: %s", a)
	}
}

// A screen opens a member's plan only after that member's PIN unlock on
// it: bo's unlock does not open ada's; ada's opens hers on that screen
// only, and writes there are the member's. The token and an admin session
// open it anywhere; nothing the request says (a query, a Datastar signal,
// another screen's cookie name) does.
func TestLifePlanOpensWithThePINOnThatScreenOnly(t *testing.T) {
	env := newLifePlanEnv(t)
	f := seedLifePlans(t, env)
	hall, kitchen := env.screen(), env.screen()
	locked := func(c *lpClient, what, path string) {
		t.Helper()
		if a := c.do("GET", path, ""); a.code != http.StatusUnauthorized {
			t.Errorf("%s: GET %s: %s, want 401", what, path, a)
		}
	}
	locked(hall, "a fresh screen", "ada/lifeplan")
	hall.unlock("bo", boPIN)
	locked(hall, "bo's unlock", "ada/lifeplan")
	if a := hall.do("POST", "ada/lifeplan/goals", `{"name": "bo's idea"}`); a.code != http.StatusUnauthorized {
		t.Errorf("bo's unlock writes ada's plan: %s", a)
	}
	hall.must(http.StatusOK, "GET", "bo/lifeplan", "")

	// A page signal or a query naming an unlock is not one.
	req, _ := http.NewRequest("GET", env.srv.URL+"/api/v1/members/ada/lifeplan?unlocked=true&datastar="+
		url.QueryEscape(`{"unlocked": true, "member": "ada"}`), nil)
	req.Header.Set("Datastar-Request", "true")
	if resp, err := kitchen.client.Do(req); err != nil || resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("a signal opened the plan: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}

	hall.unlock("ada", adaPIN)
	plan := hall.must(http.StatusOK, "GET", "ada/lifeplan", "")
	if p, _ := plan.m["purpose"].(map[string]any); p["statement"] != "Hike with my kids" {
		t.Errorf("ada's plan: %s", plan)
	}
	hall.must(http.StatusOK, "POST", fmt.Sprintf("ada/lifeplan/goals/%d/transitions", f.adaGoal), `{"to": "considered", "reason": "on the wall"}`)
	if h := hall.history("ada", f.adaGoal); h[len(h)-1].By != "member" {
		t.Errorf("a move on the unlocked screen is recorded as %q", h[len(h)-1].By)
	}
	locked(kitchen, "another screen", "ada/lifeplan")
	// The screen id is the cookie's value: a made-up one unlocks nothing.
	req, _ = http.NewRequest("GET", env.srv.URL+"/api/v1/members/ada/lifeplan", nil)
	req.AddCookie(&http.Cookie{Name: "hearth_screen", Value: strings.Repeat("A", 22)})
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("a made-up screen id opened the plan: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}
	// Back at the household view, the screen locks ada again.
	if resp, err := hall.client.Get(env.srv.URL + "/"); err == nil {
		resp.Body.Close()
	}
	locked(hall, "after the household view", "ada/lifeplan")

	// A member without a PIN is unlocked on an open screen with a tap,
	// which anyone at the screen can make: that opens their dashboard, not
	// their life plan.
	if err := env.hh.SetPIN(context.Background(), "bo", ""); err != nil {
		t.Fatal(err)
	}
	kitchen.unlock("bo", "")
	if a := kitchen.do("GET", "bo/lifeplan", ""); a.code != http.StatusUnauthorized || !strings.Contains(a.body, "there is none yet") {
		t.Errorf("a tap unlock opened bo's plan: %s", a)
	}

	admin := env.script()
	if a := admin.must(http.StatusOK, "GET", "ada/lifeplan", ""); a.hdr.Get("Cache-Control") != "no-store" {
		t.Errorf("a life plan may be cached: Cache-Control %q", a.hdr.Get("Cache-Control"))
	}
	admin.must(http.StatusOK, "POST", fmt.Sprintf("ada/lifeplan/goals/%d/transitions", f.adaGoal), `{"to": "ready", "reason": "by script"}`)
	if h := admin.history("ada", f.adaGoal); h[len(h)-1].By != "admin" {
		t.Errorf("a move with the token is recorded as %q", h[len(h)-1].By)
	}
	if a := (&lpClient{env: env, client: http.DefaultClient, bearer: "wrong-token"}).do("GET", "ada/lifeplan", ""); a.code != http.StatusUnauthorized {
		t.Errorf("a wrong token: %s", a)
	}
	// An admin session (the login form) opens it on any screen.
	desk := env.screen()
	req, _ = http.NewRequest(http.MethodPost, env.srv.URL+"/admin/login", strings.NewReader(url.Values{"password": {lpPassword}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	req.Header.Set("X-CSRF-Token", desk.csrf)
	resp, err := desk.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("login: %d", resp.StatusCode)
	}
	desk.must(http.StatusOK, "GET", "ada/lifeplan", "")
	desk.must(http.StatusOK, "GET", "bo/lifeplan", "")
}

// The ids of ada's goal, belief and notes through bo's path are 404 with
// the very answer an unknown id gets, and change nothing of either plan.
func TestLifePlanIsolation(t *testing.T) {
	env := newLifePlanEnv(t)
	f := seedLifePlans(t, env)
	admin := env.script()
	adaPlan := admin.must(http.StatusOK, "GET", "ada/lifeplan", "").body
	adaHistory := admin.history("ada", f.adaGoal)
	before := lpDigest(t, env)
	const unknown = 987654
	cases := []struct {
		method, path, body string
		ids                []int64 // ada's ids in the request, replaced by unknown for the comparison
	}{
		{"PATCH", "bo/lifeplan/beliefs/%d", `{"state": "refuted"}`, []int64{f.adaBelief}},
		{"POST", "bo/lifeplan/beliefs/%d/evidence", `{"text": "bo was here"}`, []int64{f.adaBelief}},
		{"POST", "bo/lifeplan/evidence/%d/accept", "", []int64{f.adaSuggested}},
		{"POST", "bo/lifeplan/evidence/%d/dismiss", "", []int64{f.adaSuggested}},
		{"POST", "bo/lifeplan/goals/%d/transitions", `{"to": "abandoned", "reason": "bo says so"}`, []int64{f.adaGoal}},
		{"GET", "bo/lifeplan/goals/%d/history", "", []int64{f.adaGoal}},
		{"PUT", "bo/lifeplan/goals/%d/fitness-links/" + fmt.Sprint(f.boFit), "", []int64{f.adaGoal}},
		{"PUT", fmt.Sprintf("bo/lifeplan/goals/%d/fitness-links/", f.boGoal) + "%d", "", []int64{f.adaFit}},
		{"DELETE", "bo/lifeplan/goals/%d/fitness-links/%d", "", []int64{f.adaGoal, f.adaFit}},
		{"DELETE", fmt.Sprintf("bo/lifeplan/goals/%d/fitness-links/", f.boGoal) + "%d", "", []int64{f.adaFit}},
		{"POST", "bo/lifeplan/goals", `{"name": "under ada's", "parent_id": %d}`, []int64{f.adaGoal}},
	}
	for _, c := range cases {
		args, unknowns := make([]any, len(c.ids)), make([]any, len(c.ids))
		for i, id := range c.ids {
			args[i], unknowns[i] = id, int64(unknown)
		}
		path, body := c.path, c.body
		if strings.Contains(body, "%d") {
			body = fmt.Sprintf(body, args...)
		} else {
			path = fmt.Sprintf(path, args...)
		}
		got := admin.do(c.method, path, body)
		if got.code != http.StatusNotFound {
			t.Errorf("%s %s %s: %s, want 404", c.method, path, body, got)
			continue
		}
		upath, ubody := c.path, c.body
		if strings.Contains(ubody, "%d") {
			ubody = fmt.Sprintf(ubody, unknowns...)
		} else {
			upath = fmt.Sprintf(upath, unknowns...)
		}
		want := admin.do(c.method, upath, ubody)
		norm := got.body
		for _, id := range c.ids {
			norm = strings.ReplaceAll(norm, fmt.Sprint(id), fmt.Sprint(unknown))
		}
		if norm != want.body || want.code != got.code {
			t.Errorf("%s %s: ada's id answers %s, an unknown one %s", c.method, path, got, want)
		}
	}
	if lpDigest(t, env) != before {
		t.Error("requests through bo's path changed a life plan")
	}
	if now := admin.must(http.StatusOK, "GET", "ada/lifeplan", "").body; now != adaPlan {
		t.Errorf("ada's plan changed:\n%s\nwas\n%s", now, adaPlan)
	}
	if h := admin.history("ada", f.adaGoal); !slices.Equal(h, adaHistory) {
		t.Errorf("ada's goal history changed: %v", h)
	}
	// Bo's own requests still work: the 404s were the member filter's.
	admin.must(http.StatusOK, "PUT", fmt.Sprintf("bo/lifeplan/goals/%d/fitness-links/%d", f.boGoal, f.boFit), "")
	bo := admin.must(http.StatusOK, "GET", "bo/lifeplan", "").body
	for _, s := range []string{"Hike", "morning", "note 0", "family", "patience"} {
		if strings.Contains(bo, s) {
			t.Errorf("bo's plan shows ada's %q", s)
		}
	}
}

// Erasing a member through the admin leaves no row of their life plan,
// and their plan reads as an unknown member's; the other member's stays.
func TestLifePlanErasedWithTheMember(t *testing.T) {
	env := newLifePlanEnv(t)
	seedLifePlans(t, env)
	admin := env.script()
	admin.must(http.StatusCreated, "POST", "ada/lifeplan/qualities", `{"name": "calm"}`)
	boBefore := admin.must(http.StatusOK, "GET", "bo/lifeplan", "").body
	req, _ := http.NewRequest(http.MethodPost, env.srv.URL+"/admin/household/ada/erase", bytes.NewReader([]byte("confirm=ada")))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Authorization", "Bearer "+lpToken)
	resp, err := browser(10 * time.Second).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode >= 400 {
		t.Fatalf("erase: %d %.300s", resp.StatusCode, b)
	}
	rows, err := env.db.Read.Query(`SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'lifeplan_%'`)
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	for rows.Next() {
		var n string
		_ = rows.Scan(&n)
		tables = append(tables, n)
	}
	rows.Close()
	for _, tb := range tables {
		if n := countWhere(t, env, tb, "ada"); n != 0 {
			t.Errorf("%s keeps %d of ada's rows", tb, n)
		}
	}
	admin.must(http.StatusNotFound, "GET", "ada/lifeplan", "")
	if now := admin.must(http.StatusOK, "GET", "bo/lifeplan", "").body; now != boBefore {
		t.Error("erasing ada changed bo's plan")
	}
}

func countWhere(t *testing.T, env *lpEnv, table, member string) int {
	t.Helper()
	var n int
	if err := env.db.Read.QueryRow(`SELECT count(*) FROM "`+table+`" WHERE member_id = ?`, member).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
