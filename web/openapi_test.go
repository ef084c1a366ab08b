package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	legacyrouter "github.com/getkin/kin-openapi/routers/legacy"

	"hearth/internal/health"
	"hearth/internal/lifeplan"
	"hearth/internal/talos"
	"hearth/internal/testkit"
	"hearth/web/api"
)

func loadOpenAPI(t *testing.T) *openapi3.T {
	t.Helper()
	doc, err := openapi3.NewLoader().LoadFromData(api.Spec())
	if err != nil {
		t.Fatal(err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("openapi.json is not a valid OpenAPI document: %v", err)
	}
	if !strings.HasPrefix(doc.OpenAPI, "3.1") {
		t.Fatalf("openapi %q, want 3.1", doc.OpenAPI)
	}
	return doc
}

// oasPath turns an Echo route path into an OpenAPI one: /a/:id → /a/{id}.
func oasPath(p string) string {
	parts := strings.Split(p, "/")
	for i, s := range parts {
		if strings.HasPrefix(s, ":") {
			parts[i] = "{" + s[1:] + "}"
		}
	}
	return strings.Join(parts, "/")
}

// Every route the server registers under /api is described, and every
// described operation is a route: a route added later without its
// description fails here.
func TestOpenAPIDescribesEveryRoute(t *testing.T) {
	doc := loadOpenAPI(t)
	s := newSweepServer(t)
	registered := map[string]bool{}
	for _, rt := range s.app.Echo.Routes() {
		if !strings.HasPrefix(rt.Path, "/api") {
			continue
		}
		switch rt.Method {
		case http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
		default:
			continue // group placeholders
		}
		key := rt.Method + " " + oasPath(rt.Path)
		registered[key] = true
		item := doc.Paths.Value(oasPath(rt.Path))
		if item == nil || item.GetOperation(rt.Method) == nil {
			t.Errorf("%s %s is a route but web/api/openapi.json does not describe it", rt.Method, rt.Path)
		}
	}
	if len(registered) < 20 {
		t.Fatalf("only %d /api routes: is the server wired?", len(registered))
	}
	for path, item := range doc.Paths.Map() {
		for method := range item.Operations() {
			if !registered[method+" "+path] {
				t.Errorf("web/api/openapi.json describes %s %s, which is not a route", method, path)
			}
		}
	}
}

// apiCall is one real request of the response check.
type apiCall struct {
	method, path, body string
	want               int
}

// Every response of every described route, successes and errors, is
// validated against the description, and so is every request sent.
func TestAPIResponsesMatchDescription(t *testing.T) {
	doc := loadOpenAPI(t)
	// The description's server is relative ("/"); the requests go to this host.
	doc.Servers = openapi3.Servers{{URL: "http://127.0.0.1:8080"}}
	router, err := legacyrouter.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}
	s := newSweepServer(t)
	future := time.Now().Add(48 * time.Hour).UTC().Format(time.RFC3339)
	future2 := time.Now().Add(2 * time.Minute)
	// Maya's newest weigh-in has a trend behind it (plausibility applies).
	var latest struct{ Readings []struct{ ID int64 } }
	_ = json.Unmarshal(s.do(swReq{method: "GET", path: "/api/v1/members/maya/weight?limit=1"}).Body.Bytes(), &latest)
	if len(latest.Readings) != 1 {
		t.Fatal("maya has no weigh-in")
	}
	newest := fmt.Sprintf("/api/v1/members/maya/weight/%d", latest.Readings[0].ID)
	// The Talos policy (its default, then one naming an unknown tool) and a decision to list.
	policy, _ := json.Marshal(talos.DefaultPolicy())
	badPolicy := strings.Replace(string(policy), `"home_list_entities"`, `"home_unlock"`, 1)
	recordDecision(t, s.app.DB, decision{at: time.Now(), member: "maya", role: "adult", tool: talos.ToolCallService, target: "lock.front_door",
		action: "Unlock the front door", outcome: "waiting", rule: "adult.confirm", expires: &future2})
	calls := []apiCall{
		{"GET", "/api/openapi.json", "", 200},
		{"GET", "/api/v1/members", "", 200},
		{"GET", "/api/v1/catalog?limit=3&kind=stretch", "", 200},
		{"GET", "/api/v1/catalog?limit=0", "", 400},
		{"GET", "/api/v1/health-dashboard/maya/today", "", 200},
		{"GET", "/api/v1/health-dashboard/maya/2001-01-01", "", 404},
		{"GET", "/api/v1/health-dashboard/maya/yesterday", "", 400},
		{"GET", "/api/v1/health-dashboard/nobody/today", "", 404},
		{"POST", "/api/v1/members/maya/weight", `{"weight_kg": 70.4, "body_fat_pct": 30.1, "lean_mass_kg": 48.2}`, 201},
		{"POST", "/api/v1/members/maya/weight", `{"weight_kg": 1}`, 400},
		{"POST", "/api/v1/members/nobody/weight", `{"weight_kg": 70}`, 404},
		{"GET", "/api/v1/members/maya/weight?limit=5", "", 200},
		{"GET", "/api/v1/members/maya/weight?limit=0", "", 400},
		{"POST", "/api/v1/members/maya/meals", `{"name": "Soup", "calories": 320.5, "protein_g": 12}`, 201},
		{"POST", "/api/v1/members/maya/meals", `{"name": "Soup"}`, 400},
		{"GET", "/api/v1/members/maya/meals?limit=5", "", 200},
		{"POST", "/api/v1/members/theo/workouts", `{"type": "run", "title": "Evening run", "duration_min": 31.5, "avg_hr": 140, "max_hr": 171}`, 201},
		{"POST", "/api/v1/members/theo/workouts", `{"type": "run"}`, 400},
		{"GET", "/api/v1/members/theo/workouts", "", 200},
		{"POST", "/api/v1/members/theo/body-scans", `{"body_fat_pct": 20.5, "lean_mass_kg": 70.2, "fat_mass_kg": 18.1}`, 201},
		{"POST", "/api/v1/members/theo/body-scans", `{"body_fat_pct": 20.5}`, 400},
		{"GET", "/api/v1/members/theo/body-scans", "", 200},
		{"GET", "/api/v1/members/nobody/body-scans", "", 404},
		// Corrections (ids 1: the sweep fixture's first entries; see newSweepServer).
		{"PATCH", "/api/v1/members/maya/weight/1", `{"body_fat_pct": 29.9}`, 200},
		{"PATCH", newest, `{"weight_kg": 7.1}`, 422},
		{"PATCH", newest, `{"weight_kg": 7.1, "confirm": true}`, 200},
		{"PATCH", "/api/v1/members/maya/weight/1", `{"weight_kg": 900}`, 400},
		{"PATCH", "/api/v1/members/theo/weight/1", `{"weight_kg": 80}`, 404},
		{"PATCH", "/api/v1/members/maya/meals/1", `{"calories": 480, "confirm": false}`, 200},
		{"PATCH", "/api/v1/members/maya/meals/1", `{"calories": 6000}`, 422},
		{"PATCH", "/api/v1/members/maya/meals/1", `{"calories": 6000, "confirm": true}`, 200},
		{"PATCH", "/api/v1/members/theo/workouts/1", `{"duration_min": 42}`, 404},
		{"PATCH", "/api/v1/members/maya/workouts/1", `{"duration_min": 42, "title": "Long run"}`, 200},
		{"PATCH", "/api/v1/members/maya/body-scans/1", `{"body_fat_pct": 30}`, 200},
		{"PATCH", "/api/v1/members/maya/body-scans/1", `{"body_fat_pct": 99}`, 400},
		{"POST", "/api/v1/members/maya/meals", `{"name": "Feast", "calories": 5400}`, 422},
		{"DELETE", "/api/v1/members/theo/body-scans/1", "", 404},
		{"DELETE", "/api/v1/members/maya/body-scans/1", "", 204},
		{"DELETE", "/api/v1/members/maya/weight/1", "", 204},
		{"DELETE", "/api/v1/members/maya/meals/1", "", 204},
		{"DELETE", "/api/v1/members/maya/workouts/1", "", 204},
		{"DELETE", "/api/v1/members/maya/workouts/1", "", 404},
		{"POST", "/api/v1/members/maya/prompts/no-such-prompt/answer", `{"answer": "Yes"}`, 0},
		{"POST", "/api/v1/members/maya/prompts/p1/answer", `{}`, 400},
		{"GET", "/api/agents", "", 200},
		{"GET", "/api/tool-factories", "", 200},
		{"GET", "/api/agents/health-coach/assignments", "", 200},
		{"GET", "/api/agents/nobody/assignments", "", 404},
		{"POST", "/api/agents/health-coach/assignments/daily-dashboard/run", `{"member": "maya", "wait": true}`, 200},
		{"POST", "/api/agents/health-coach/assignments/daily-dashboard/run", `{"all": true}`, 202},
		{"POST", "/api/agents/health-coach/assignments/daily-dashboard/run", `{}`, 400},
		{"POST", "/api/agents/health-coach/assignments/nothing/run", `{"member": "maya"}`, 404},
		{"POST", "/api/agents/health-coach/run", `{"member": "maya", "message": "How am I doing?"}`, 200},
		{"POST", "/api/agents/health-coach/run", `{"member": "maya"}`, 400},
		{"POST", "/api/agents/health-coach/run-background", `{"member": "theo", "message": "Plan my week"}`, 202},
		{"GET", "/api/runs?limit=3", "", 200},
		{"GET", "/api/runs?status=nope", "", 400},
		{"GET", "/api/runs/1", "", 200},
		{"GET", "/api/runs/999999", "", 404},
		{"GET", "/api/agent/tasks", "", 200},
		{"GET", "/api/agent/tasks?agent=system", "", 200},
		{"POST", "/api/agent/tasks", fmt.Sprintf(`{"description": "Check in", "type": "once", "schedule": %q, "agent": "health-coach", "member": "maya"}`, future), 201},
		{"POST", "/api/agent/tasks", `{"description": "x", "type": "interval", "schedule": "0"}`, 400},
		{"GET", "/api/agent/tasks/1", "", 200},
		{"GET", "/api/agent/tasks/99999", "", 404},
		{"PUT", "/api/agent/tasks/1", `{"status": "paused", "pause_note": "holiday"}`, 200},
		{"PUT", "/api/agent/tasks/1", `{"schedule": "99 * * * *"}`, 400},
		{"DELETE", "/api/agent/tasks/2", "", 200},
		{"DELETE", "/api/agent/tasks/99999", "", 404},
		{"GET", "/api/policies/talos", "", 200},
		{"PUT", "/api/policies/talos", string(policy), 200},
		{"PUT", "/api/policies/talos", badPolicy, 422},
		{"PUT", "/api/policies/talos", `[1]`, 400},
		{"GET", "/api/policies/talos/decisions?member=maya&role=adult&outcome=waiting&tool=home_call_service&limit=5", "", 200},
		{"GET", "/api/policies/talos/decisions?outcome=maybe", "", 400},
	}
	// A prompt of today's document, answered with one of its options, first:
	// the coach runs among the calls above write a new document (a run in
	// the background may finish at any time), whose prompts may differ.
	var answers []apiCall
	for _, m := range []string{"maya", "theo"} {
		rec := s.do(swReq{method: "GET", path: "/api/v1/health-dashboard/" + m + "/today"})
		var d struct {
			Coach struct {
				Prompts []struct {
					ID, Type string
					Options  []string
				}
			}
		}
		_ = json.Unmarshal(rec.Body.Bytes(), &d)
		for _, p := range d.Coach.Prompts {
			if p.Type == "multiple_choice" && len(p.Options) > 0 {
				b, _ := json.Marshal(map[string]string{"answer": p.Options[0]})
				answers = append(answers, apiCall{"POST", "/api/v1/members/" + m + "/prompts/" + p.ID + "/answer", string(b), 201})
			}
		}
	}
	calls = append(answers, calls...)
	covered := map[string]bool{}
	check := func(c apiCall) {
		rec := s.do(swReq{method: c.method, path: c.path, ctype: "application/json", body: []byte(c.body)})
		what := fmt.Sprintf("%s %s", c.method, c.path)
		if c.want != 0 && rec.Code != c.want {
			t.Errorf("%s: status %d, want %d: %.300s", what, rec.Code, c.want, rec.Body.String())
		}
		req := httptest.NewRequest(c.method, "http://127.0.0.1:8080"+c.path, strings.NewReader(c.body))
		if c.body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		route, params, err := router.FindRoute(req)
		if err != nil {
			t.Errorf("%s: no described route: %v", what, err)
			return
		}
		covered[route.Method+" "+route.Path] = true
		in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route,
			Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc, MultiError: true}}
		if rec.Code < 300 { // what the server accepted must be what the description allows
			if err := openapi3filter.ValidateRequest(context.Background(), in); err != nil {
				t.Errorf("%s: the request the server accepted does not match the description: %v", what, err)
			}
		}
		validateResponse(t, what, in, rec)
	}
	for _, c := range calls {
		check(c)
	}
	// Workflows: a weekly review waits for maya's answer, theo's is paused
	// and restarted.
	openapi3filter.RegisterBodyDecoder("text/event-stream", openapi3filter.PlainBodyDecoder)
	// The daily dashboard ran as its workflow before: the reviews follow.
	base := lastWorkflowRun(t, s)
	first, second := base+1, base+2
	run := func(id int64, rest string) string { return fmt.Sprintf("/api/workflow-runs/%d%s", id, rest) }
	for _, c := range []apiCall{
		{"GET", "/api/workflows", "", 200},
		{"POST", "/api/workflows/weekly-review/runs", `{"member": "maya"}`, 201},
		{"POST", "/api/workflows/weekly-review/runs", `{"member": "theo", "input": {}}`, 201},
		{"POST", "/api/workflows/weekly-review/runs", `{"member": "nobody"}`, 400},
		{"POST", "/api/workflows/weekly-review/runs", `{"member": "maya", "input": {"x": 1}}`, 400},
		{"POST", "/api/workflows/nothing/runs", `{"member": "maya"}`, 404},
	} {
		check(c)
	}
	waitWorkflowRun(t, s, first, "suspended")
	waitWorkflowRun(t, s, second, "suspended")
	for _, c := range []apiCall{
		{"GET", run(first, ""), "", 200},
		{"GET", "/api/workflow-runs/999999", "", 404},
		{"GET", "/api/workflow-runs?member=maya&status=suspended&limit=5", "", 200},
		{"GET", "/api/workflow-runs?status=nope", "", 400},
		{"POST", run(first, "/resume"), `{"step": "ask", "data": {"choice": "sometimes"}}`, 400},
		{"POST", run(first, "/resume"), `{"step": "summarise", "data": {"choice": "same"}}`, 409},
		{"POST", run(first, "/resume"), `{"step": "ask", "data": {"choice": "same"}}`, 200},
		{"POST", run(first, "/resume"), `{"step": "ask", "data": {"choice": "same"}}`, 409},
		{"POST", run(second, "/pause"), "", 200},
		{"POST", run(second, "/pause"), "", 409},
		{"POST", run(second, "/restart"), "", 200},
	} {
		check(c)
	}
	waitWorkflowRun(t, s, first, "success")
	// Chat threads: start one, talk (JSON), read it, list, delete.
	for _, c := range []apiCall{
		{"POST", "/api/agents/health-coach/threads", `{"member": "maya", "title": "Knees"}`, 201},
		{"POST", "/api/agents/health-coach/threads", `{"member": "nobody"}`, 400},
		{"POST", "/api/agents/nobody/threads", `{"member": "maya"}`, 404},
		{"GET", "/api/agents/health-coach/threads?member=maya", "", 200},
		{"GET", "/api/agents/health-coach/threads", "", 400},
		{"POST", "/api/threads/1/messages", `{"content": "How is my weight going?"}`, 200},
		{"POST", "/api/threads/1/messages", `{"content": ""}`, 400},
		{"POST", "/api/threads/999999/messages", `{"content": "hi"}`, 404},
		{"GET", "/api/threads/1", "", 200},
		{"GET", "/api/threads/999999", "", 404},
		{"DELETE", "/api/threads/1", "", 204},
		{"DELETE", "/api/threads/1", "", 404},
	} {
		check(c)
	}
	for _, c := range []apiCall{
		{"GET", run(first, "/events"), "", 200},
		{"GET", "/api/workflow-runs/999999/events", "", 404},
		{"POST", run(first, "/restart"), "", 409},
		{"POST", "/api/workflow-runs/999999/restart", "", 404},
	} {
		check(c)
	}
	for _, c := range lifePlanCalls(t, s) {
		check(c)
	}
	for path, item := range doc.Paths.Map() {
		for method := range item.Operations() {
			if !covered[method+" "+path] {
				t.Errorf("no response of %s %s was checked: add a call", method, path)
			}
		}
	}
}

// lifePlanCalls are calls of the life plan's API on Maya's plan (the
// sweep's server is loopback with no password: the admin), over a belief,
// a goal, suggested notes and a fitness goal made through the services.
func lifePlanCalls(t *testing.T, s *swServer) []apiCall {
	t.Helper()
	ctx, lp := context.Background(), s.app.LifePlan
	b, err := lp.AddBelief(ctx, "maya", lifeplan.BeliefInput{If: "I stretch at night", Then: "my back is fine"})
	if err != nil {
		t.Fatal(err)
	}
	g, err := lp.AddGoal(ctx, "maya", lifeplan.GoalInput{Name: "Hike with the kids"}, "member")
	if err != nil {
		t.Fatal(err)
	}
	var notes [2]int64
	for i := range notes {
		e, err := lp.SuggestEvidence(ctx, "maya", b.ID, lifeplan.FromCoach, fmt.Sprintf("Stretched and slept well (%d)", i))
		if err != nil {
			t.Fatal(err)
		}
		notes[i] = e.ID
	}
	fit, err := s.app.DB.AddGoal(ctx, health.Goal{MemberID: "maya", Kind: "custom", Description: "Walk 10 km"})
	if err != nil {
		t.Fatal(err)
	}
	p := "/api/v1/members/maya/lifeplan"
	belief, goal := fmt.Sprintf("%s/beliefs/%d", p, b.ID), fmt.Sprintf("%s/goals/%d", p, g.ID)
	link := fmt.Sprintf("%s/fitness-links/%d", goal, fit.ID)
	ev := func(i int, what string) string { return fmt.Sprintf("%s/evidence/%d/%s", p, notes[i], what) }
	return []apiCall{
		{"GET", p, "", 200},
		{"GET", "/api/v1/members/nobody/lifeplan", "", 404},
		{"PUT", p + "/purpose", `{"statement": "Keep up with my kids on the trail"}`, 200},
		{"PUT", p + "/purpose", `{}`, 400},
		{"PUT", p + "/values", `{"values": [{"name": "family", "description": "time together"}, {"name": "health"}]}`, 200},
		{"PUT", p + "/values", `{"values": [{"name": "calm"}, {"name": "Calm"}]}`, 400},
		{"PUT", p + "/values", `{}`, 400},
		{"GET", p + "/values", "", 200},
		{"POST", p + "/values/rank", `{"ranking": ["health"]}`, 200},
		{"POST", p + "/values/rank", `{"ranking": ["wealth"]}`, 400},
		{"GET", p + "/beliefs", "", 200},
		{"POST", p + "/beliefs", `{"if": "I train in the morning", "then": "I sleep better", "confidence": 0.6}`, 201},
		{"POST", p + "/beliefs", `{"if": "I train"}`, 400},
		{"PATCH", belief, `{"state": "testing", "confidence": 0.7}`, 200},
		{"PATCH", belief, `{"state": "sure"}`, 400},
		{"PATCH", p + "/beliefs/999999", `{"state": "testing"}`, 404},
		{"POST", belief + "/evidence", `{"text": "Slept 8 h after stretching"}`, 201},
		{"POST", p + "/beliefs/999999/evidence", `{"text": "x"}`, 404},
		{"POST", ev(0, "accept"), "", 200},
		{"POST", ev(0, "accept"), "", 409},
		{"POST", ev(1, "dismiss"), "", 200},
		{"POST", p + "/evidence/999999/dismiss", "", 404},
		{"GET", p + "/goals", "", 200},
		{"POST", p + "/goals", fmt.Sprintf(`{"name": "Walk the ridge", "why": "the view", "state": "considered", "parent_id": %d}`, g.ID), 201},
		{"POST", p + "/goals", `{"name": "Run a marathon", "state": "committed"}`, 400},
		{"POST", goal + "/transitions", `{"to": "achieved", "reason": "done"}`, 409},
		{"POST", goal + "/transitions", `{"to": "considered", "reason": ""}`, 400},
		{"POST", goal + "/transitions", `{"to": "considered", "reason": "weighed it"}`, 200},
		{"GET", goal + "/history", "", 200},
		{"GET", p + "/goals/999999/history", "", 404},
		{"PUT", link, "", 200},
		{"PUT", goal + "/fitness-links/999999", "", 404},
		{"DELETE", link, "", 204},
		{"DELETE", link, "", 404},
		{"GET", p + "/qualities", "", 200},
		{"POST", p + "/qualities", `{"name": "patience", "why": "kids"}`, 201},
		{"POST", p + "/qualities", `{"name": "Patience"}`, 400},
	}
}

// waitWorkflowRun waits until workflow run id has status.
func waitWorkflowRun(t *testing.T, s *swServer, id int64, status string) {
	t.Helper()
	last := ""
	testkit.WaitFor(t, testkit.Patience, fmt.Sprintf("workflow run %d to be %s", id, status), func() bool {
		rec := s.do(swReq{method: "GET", path: fmt.Sprintf("/api/workflow-runs/%d", id)})
		var r struct{ Status, Error string }
		_ = json.Unmarshal(rec.Body.Bytes(), &r)
		if now := r.Status + " " + r.Error; now != last {
			t.Logf("workflow run %d: %s", id, now) // shown if the wait fails
			last = now
		}
		return r.Status == status
	})
}

func validateResponse(t *testing.T, what string, in *openapi3filter.RequestValidationInput, rec *httptest.ResponseRecorder) {
	t.Helper()
	out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: rec.Code, Header: rec.Header(),
		Options: &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true}}
	out.SetBodyBytes(rec.Body.Bytes())
	if err := openapi3filter.ValidateResponse(context.Background(), out); err != nil {
		t.Errorf("%s: the %d response does not match the description: %v\n%.400s", what, rec.Code, err, rec.Body.String())
	}
}

// Admin → API renders the description (server-side, every route and schema).
func TestAdminAPIPageRendersTheDescription(t *testing.T) {
	doc := loadOpenAPI(t)
	s := newSweepServer(t)
	rec := s.do(swReq{method: http.MethodGet, path: "/admin/api"})
	if rec.Code != 200 {
		t.Fatalf("/admin/api: %d", rec.Code)
	}
	page := rec.Body.String()
	for path, item := range doc.Paths.Map() {
		for method := range item.Operations() {
			if !strings.Contains(page, method+" "+path) {
				t.Errorf("the page does not show %s %s", method, path)
			}
		}
	}
	for name := range doc.Components.Schemas {
		if !strings.Contains(page, `id="schema-`+name+`"`) {
			t.Errorf("the page does not show schema %s", name)
		}
	}
	if strings.Contains(page, "cdn") || strings.Contains(page, "https://") {
		t.Error("the page loads something from outside")
	}
	served := s.do(swReq{method: http.MethodGet, path: "/api/openapi.json"})
	if served.Body.String() != string(api.Spec()) {
		t.Error("/api/openapi.json is not the embedded description")
	}
}
