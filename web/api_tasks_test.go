package web_test

import (
	"strings"
	"testing"
	"time"
)

// apiTasks lists the tasks through the API (the app's default tasks
// included: daily dashboard, heartbeat, backup, weekly review).
func apiTasks(t *testing.T, env *adminEnv) []any {
	t.Helper()
	code, body := env.api("GET", "/api/agent/tasks", "")
	tasks, ok := body["tasks"].([]any)
	if code != 200 || !ok {
		t.Fatalf("list: %d %v", code, body)
	}
	return tasks
}

func TestTaskAPILifecycle(t *testing.T) {
	env := newAdminEnv(t)
	defaults := len(apiTasks(t, env))
	code, body := env.api("POST", "/api/agent/tasks", `{"description":"Morning notes","type":"recurring","schedule":"30 7 * * *","agent":"tester","assignment":"note","member":"ada"}`)
	task, _ := body["task"].(map[string]any)
	if code != 201 || task == nil || task["status"] != "active" || task["created_by"] != "user" {
		t.Fatalf("create: %d %v", code, body)
	}
	if next, _ := task["next_run_at"].(string); !strings.HasPrefix(next, "2026-03-03T07:30:00") {
		t.Fatalf("next_run_at = %v, want tomorrow 07:30 (clock is 2026-03-02 09:00)", task["next_run_at"])
	}
	id := itoa(int64(task["id"].(float64)))

	if tasks := apiTasks(t, env); len(tasks) != defaults+1 {
		t.Fatalf("list: %d tasks, want the %d defaults and the new one: %v", len(tasks), defaults, tasks)
	}
	code, body = env.api("PUT", "/api/agent/tasks/"+id, `{"status":"paused","pause_note":"holiday"}`)
	if code != 200 || field(body, "task", "status") != "paused" || field(body, "task", "pause_note") != "holiday" {
		t.Fatalf("pause: %d %v", code, body)
	}
	code, body = env.api("PUT", "/api/agent/tasks/"+id, `{"status":"active"}`)
	if code != 200 || field(body, "task", "status") != "active" {
		t.Fatalf("resume: %d %v", code, body)
	}
	code, body = env.api("PUT", "/api/agent/tasks/"+id, `{"schedule":"0 12 * * *"}`)
	if next, _ := field(body, "task", "next_run_at").(string); code != 200 || !strings.HasPrefix(next, "2026-03-02T12:00:00") {
		t.Fatalf("reschedule: %d %v", code, body)
	}
	if code, body = env.api("GET", "/api/agent/tasks/"+id, ""); code != 200 || field(body, "task", "schedule") != "0 12 * * *" {
		t.Fatalf("get: %d %v", code, body)
	}
	if code, body = env.api("DELETE", "/api/agent/tasks/"+id, `{"really":true}`); code != 400 {
		t.Fatalf("delete with a body: %d %v", code, body)
	}
	if code, body = env.api("DELETE", "/api/agent/tasks/"+id, ""); code != 200 {
		t.Fatalf("delete: %d %v", code, body)
	}
	for _, m := range []string{"GET", "PUT", "DELETE"} {
		b := ""
		if m == "PUT" {
			b = `{"status":"paused"}`
		}
		if code, _ := env.api(m, "/api/agent/tasks/"+id, b); code != 404 {
			t.Errorf("%s deleted task: %d, want 404", m, code)
		}
	}
	if code, _ := env.api("PUT", "/api/agent/tasks/abc", `{}`); code != 404 {
		t.Errorf("PUT /abc: %d, want 404", code)
	}
}

func TestTaskAPIValidation(t *testing.T) {
	env := newAdminEnv(t)
	defaults := len(apiTasks(t, env))
	past := env.clock.Now().Add(-time.Hour).Format(time.RFC3339)
	cases := []struct {
		name, body, want string
	}{
		{"bad cron", `{"description":"x","type":"recurring","schedule":"61 * * * *","agent":"tester","assignment":"note"}`, "cron"},
		{"bad interval", `{"description":"x","type":"interval","schedule":"0","agent":"tester","assignment":"note"}`, "interval"},
		{"interval not a number", `{"description":"x","type":"interval","schedule":"often","agent":"tester","assignment":"note"}`, "minutes"},
		{"once in the past", `{"description":"x","type":"once","schedule":"` + past + `","agent":"tester","assignment":"note"}`, "future"},
		{"bad time", `{"description":"x","type":"once","schedule":"tomorrowish","agent":"tester","assignment":"note"}`, "time"},
		{"bad type", `{"description":"x","type":"weekly","schedule":"1","agent":"tester","assignment":"note"}`, "type"},
		{"no description", `{"type":"interval","schedule":"5","agent":"tester","assignment":"note"}`, "description"},
		{"unknown member", `{"description":"x","type":"interval","schedule":"5","agent":"tester","assignment":"note","member":"zed"}`, "zed"},
		{"unknown assignment", `{"description":"x","type":"interval","schedule":"5","assignment":"nothing"}`, "nothing"},
		{"unknown agent", `{"description":"x","type":"interval","schedule":"5","agent":"nobody","assignment":"note"}`, "nobody"},
		{"freeform without member", `{"description":"x","type":"interval","schedule":"5"}`, "member"},
		{"unknown field", `{"description":"x","type":"interval","schedule":"5","cron":"x"}`, "unknown field"},
		{"malformed", `{"description":`, "malformed"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, body := env.api("POST", "/api/agent/tasks", tc.body)
			msg, _ := body["error"].(string)
			if code != 400 || !strings.Contains(msg, tc.want) {
				t.Fatalf("%d %v, want 400 naming %q", code, body, tc.want)
			}
		})
	}
	if tasks := apiTasks(t, env); len(tasks) != defaults {
		t.Fatalf("refused creates stored tasks: %d tasks, want the %d defaults: %v", len(tasks), defaults, tasks)
	}
	code, body := env.api("POST", "/api/agent/tasks", `{"description":"Check in","type":"interval","schedule":"30","member":"ada"}`)
	if code != 201 {
		t.Fatalf("freeform create: %d %v", code, body)
	}
	id := itoa(int64(field(body, "task", "id").(float64)))
	if code, body = env.api("PUT", "/api/agent/tasks/"+id, `{"status":"done"}`); code != 400 || !strings.Contains(body["error"].(string), "status") {
		t.Fatalf("bad status: %d %v", code, body)
	}
	if code, body = env.api("PUT", "/api/agent/tasks/"+id, `{"schedule":"* * *"}`); code != 400 {
		t.Fatalf("bad patch: %d %v", code, body)
	}
}
