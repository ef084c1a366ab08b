package web_test

import (
	"fmt"
	"hearth/internal/testkit"
	"net/http"
	"strings"
	"testing"
)

func field(m map[string]any, path ...string) any {
	var v any = m
	for _, p := range path {
		mm, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = mm[p]
	}
	return v
}

func TestAgentsAPIListsAgentsAndAssignments(t *testing.T) {
	env := newAdminEnv(t)
	code, body := env.api("GET", "/api/agents", "")
	agents, _ := body["agents"].([]any)
	// The app's coach and Talos, the test's agent, then the seeded home
	// controller, life-plan coach and media curator (made in admin:
	// definitions listing a factory), and the config copilot.
	if code != 200 || len(agents) != 7 || agents[0].(map[string]any)["id"] != "health-coach" {
		t.Fatalf("GET /api/agents: %d %v", code, body)
	}
	if cc := agents[3].(map[string]any); cc["id"] != "config-copilot" || len(cc["tools"].([]any)) != 6 {
		t.Fatalf("config copilot = %v", cc)
	}
	if hc := agents[4].(map[string]any); hc["id"] != "home-controller" || fmt.Sprint(hc["tools"]) != "[home_list_entities home_get_state home_call_service]" {
		t.Fatalf("home controller = %v", hc)
	}
	if lc := agents[5].(map[string]any); lc["id"] != "lifeplan-coach" || len(lc["tools"].([]any)) != 12 {
		t.Fatalf("life-plan coach = %v", lc)
	}
	if mc := agents[6].(map[string]any); mc["id"] != "media-curator" || len(mc["tools"].([]any)) != 7 {
		t.Fatalf("media curator = %v", mc)
	}
	if tl := agents[1].(map[string]any); tl["id"] != "talos" || len(tl["tools"].([]any)) != 6 {
		t.Fatalf("talos = %v", tl)
	}
	a := agents[2].(map[string]any)
	as, _ := a["assignments"].([]any)
	if a["id"] != "tester" || a["description"] != "Writes notes" || len(as) != 1 || as[0].(map[string]any)["id"] != "note" {
		t.Fatalf("agent = %v", a)
	}
	code, body = env.api("GET", "/api/agents/tester/assignments", "")
	as, _ = body["assignments"].([]any)
	if code != 200 || len(as) != 1 {
		t.Fatalf("assignments: %d %v", code, body)
	}
	if got := as[0].(map[string]any); got["id"] != "note" || got["description"] != "Write a note" || got["schedule"] != "0 6 * * *" {
		t.Fatalf("assignment = %v", got)
	}
	if code, body := env.api("GET", "/api/agents/nobody/assignments", ""); code != 404 || !strings.Contains(body["error"].(string), "nobody") {
		t.Fatalf("unknown agent: %d %v", code, body)
	}
}

func runFields(t *testing.T, run map[string]any) {
	t.Helper()
	for _, k := range []string{"id", "agent", "assignment", "member", "trigger", "status", "started_at", "finished_at",
		"attempts", "model", "tokens_in", "tokens_out", "cost_usd", "error", "fallback_reason"} {
		if _, ok := run[k]; !ok {
			t.Errorf("run has no %q: %v", k, run)
		}
	}
}

func TestAssignmentRunAPIWaitAndBackground(t *testing.T) {
	env := newAdminEnv(t, withGate())
	// Background: 202 with the queued run, which is still going (gated).
	code, body := env.api("POST", "/api/agents/tester/assignments/note/run", `{"member":"ada"}`)
	runs, _ := body["runs"].([]any)
	if code != http.StatusAccepted || len(runs) != 1 {
		t.Fatalf("background: %d %v", code, body)
	}
	bg := runs[0].(map[string]any)
	runFields(t, bg)
	if bg["status"] != "queued" || bg["member"] != "ada" || bg["trigger"] != "api" {
		t.Fatalf("background run = %v", bg)
	}
	id := int64(bg["id"].(float64))
	// A second request for the same member joins the active run.
	_, body = env.api("POST", "/api/agents/tester/assignments/note/run", `{"member":"ada"}`)
	if again := body["runs"].([]any)[0].(map[string]any); int64(again["id"].(float64)) != id {
		t.Fatalf("second request made run %v, want the active run %d", again["id"], id)
	}
	env.release()
	testkit.WaitFor(t, testkit.Patience, "the background run to finish", func() bool {
		_, r := env.api("GET", "/api/runs/"+itoa(id), "")
		return r["status"] == "succeeded"
	})

	// Wait: 200 with the finished run.
	code, body = env.api("POST", "/api/agents/tester/assignments/note/run", `{"member":"bo","wait":true}`)
	runs, _ = body["runs"].([]any)
	if code != http.StatusOK || len(runs) != 1 {
		t.Fatalf("wait: %d %v", code, body)
	}
	done := runs[0].(map[string]any)
	runFields(t, done)
	if done["status"] != "succeeded" || done["model"] != "heuristic" || done["finished_at"] == nil || done["attempts"].(float64) < 1 {
		t.Fatalf("waited run = %v", done)
	}

	// All members, waiting.
	code, body = env.api("POST", "/api/agents/tester/assignments/note/run", `{"all":true,"wait":true}`)
	runs, _ = body["runs"].([]any)
	if code != 200 || len(runs) != 2 {
		t.Fatalf("all: %d %v", code, body)
	}
	for _, r := range runs {
		if r.(map[string]any)["status"] != "succeeded" {
			t.Fatalf("all: run %v", r)
		}
	}
}

func TestAssignmentRunAPIErrors(t *testing.T) {
	env := newAdminEnv(t)
	cases := []struct {
		name, path, body string
		status           int
		msg              string
	}{
		{"unknown agent", "/api/agents/nobody/assignments/note/run", `{"member":"ada"}`, 404, "nobody"},
		{"unknown assignment", "/api/agents/tester/assignments/nothing/run", `{"member":"ada"}`, 404, "nothing"},
		{"unknown member", "/api/agents/tester/assignments/note/run", `{"member":"zed"}`, 404, "zed"},
		{"malformed", "/api/agents/tester/assignments/note/run", `{"member":`, 400, "malformed JSON"},
		{"empty body", "/api/agents/tester/assignments/note/run", ``, 400, "malformed JSON"},
		{"neither member nor all", "/api/agents/tester/assignments/note/run", `{}`, 400, "invalid input"},
		{"both member and all", "/api/agents/tester/assignments/note/run", `{"member":"ada","all":true}`, 400, "not both"},
		{"unknown field", "/api/agents/tester/assignments/note/run", `{"who":"ada"}`, 400, "unknown field"},
		{"wrong type", "/api/agents/tester/assignments/note/run", `{"member":"ada","wait":"yes"}`, 400, "invalid input"},
		{"chat unknown agent", "/api/agents/nobody/run", `{"member":"ada","message":"hi"}`, 404, "nobody"},
		{"chat unknown member", "/api/agents/tester/run", `{"member":"zed","message":"hi"}`, 404, "zed"},
		{"chat empty message", "/api/agents/tester/run", `{"member":"ada","message":"  "}`, 400, "invalid input"},
		{"chat unknown thread", "/api/agents/tester/run", `{"member":"ada","message":"hi","thread_id":999}`, 404, "999"},
		{"chat bad body", "/api/agents/tester/run-background", `[]`, 400, "malformed JSON"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, body := env.api("POST", tc.path, tc.body)
			msg, _ := body["error"].(string)
			if code != tc.status || !strings.Contains(msg, tc.msg) {
				t.Fatalf("%d %v, want %d with %q", code, body, tc.status, tc.msg)
			}
		})
	}
	_, body := env.api("GET", "/api/runs", "")
	if runs := body["runs"].([]any); len(runs) != 0 {
		t.Fatalf("bad requests made runs: %v", runs)
	}
}

func TestChatAPI(t *testing.T) {
	env := newAdminEnv(t)
	code, body := env.api("POST", "/api/agents/tester/run", `{"member":"ada","message":"How am I doing?"}`)
	if code != 200 || body["status"] != "succeeded" || body["assignment"] != "" || field(body, "output", "reply") == nil {
		t.Fatalf("chat: %d %v", code, body)
	}
	runFields(t, body)
	thread := body["thread_id"].(float64)
	code, body = env.api("POST", "/api/agents/tester/run", `{"member":"ada","message":"And now?","thread_id":`+itoa(int64(thread))+`}`)
	if code != 200 || body["thread_id"].(float64) != thread {
		t.Fatalf("continue thread: %d %v", code, body)
	}
	code, body = env.api("POST", "/api/agents/tester/run-background", `{"member":"bo","message":"Hello"}`)
	if code != http.StatusAccepted || body["status"] != "queued" || body["member"] != "bo" {
		t.Fatalf("background chat: %d %v", code, body)
	}
}

func TestRunsAPIFilters(t *testing.T) {
	env := newAdminEnv(t)
	for _, m := range []string{"ada", "bo", "ada"} {
		if code, body := env.api("POST", "/api/agents/tester/assignments/note/run", `{"member":"`+m+`","wait":true}`); code != 200 {
			t.Fatalf("run: %d %v", code, body)
		}
	}
	env.api("POST", "/api/agents/tester/run", `{"member":"bo","message":"hi"}`)
	list := func(q string) []any {
		t.Helper()
		code, body := env.api("GET", "/api/runs"+q, "")
		if code != 200 {
			t.Fatalf("GET /api/runs%s: %d %v", q, code, body)
		}
		return body["runs"].([]any)
	}
	if n := len(list("")); n != 4 {
		t.Fatalf("all runs = %d, want 4", n)
	}
	adas := list("?agent=tester&assignment=note&member=ada&status=succeeded")
	if len(adas) != 2 {
		t.Fatalf("ada's runs = %v", adas)
	}
	if first, second := adas[0].(map[string]any)["id"].(float64), adas[1].(map[string]any)["id"].(float64); first < second {
		t.Fatal("runs are not newest first")
	}
	if n := len(list("?member=bo&assignment=note")); n != 1 {
		t.Fatalf("bo's note runs = %d", n)
	}
	if n := len(list("?limit=1")); n != 1 {
		t.Fatalf("limit 1 gave %d", n)
	}
	if n := len(list("?status=failed")); n != 0 {
		t.Fatalf("failed runs = %d", n)
	}
	one := adas[0].(map[string]any)
	code, body := env.api("GET", "/api/runs/"+itoa(int64(one["id"].(float64))), "")
	if code != 200 || body["id"] != one["id"] || field(body, "prompt", "user") == nil || field(body, "output", "text") == nil {
		t.Fatalf("GET run: %d %v", code, body)
	}
	for _, q := range []string{"?status=bogus", "?limit=0", "?limit=x", "?limit=501", "?before=-1"} {
		if code, body := env.api("GET", "/api/runs"+q, ""); code != 400 || body["fields"] == nil {
			t.Errorf("GET /api/runs%s: %d %v", q, code, body)
		}
	}
	for _, p := range []string{"/api/runs/9999", "/api/runs/abc", "/api/runs/0"} {
		if code, _ := env.api("GET", p, ""); code != 404 {
			t.Errorf("GET %s: %d, want 404", p, code)
		}
	}
}

func TestAdminAPIsNeedAuth(t *testing.T) {
	env := newAdminEnv(t, withPassword("", "tok-123"))
	for _, p := range []string{"/api/agents", "/api/runs", "/api/agent/tasks"} {
		if code, _ := env.api("GET", p, ""); code != 401 {
			t.Errorf("GET %s without credentials: %d, want 401", p, code)
		}
		if code, _ := env.api("GET", p, "", "Authorization", "Bearer wrong"); code != 401 {
			t.Errorf("GET %s with a wrong token: %d, want 401", p, code)
		}
		if code, _ := env.api("GET", p, "", "Authorization", "Bearer tok-123"); code != 200 {
			t.Errorf("GET %s with the token: %d, want 200", p, code)
		}
	}
	if code, _ := env.api("POST", "/api/agents/tester/assignments/note/run", `{"member":"ada"}`); code != 401 {
		t.Errorf("POST without credentials: %d", code)
	}
	if code, body := env.api("POST", "/api/agents/tester/assignments/note/run", `{"member":"ada","wait":true}`, "Authorization", "Bearer tok-123"); code != 200 {
		t.Errorf("POST with the token: %d %v", code, body)
	}
}
