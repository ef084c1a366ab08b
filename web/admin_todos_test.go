package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"hearth/internal/schedule"
)

func TestTodoPage(t *testing.T) {
	env := newAdminEnv(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := env.openLive(ctx, "/admin/live/todos")
	s.waitEvent(t, 2*time.Second, `id="todos"`, "Nothing here")
	resp, body := env.form("/admin/todos", url.Values{"agent": {"tester"}, "member": {"ada"}, "text": {"  "}}, false)
	if resp.StatusCode != 400 || !strings.Contains(body, "to-do text is required") {
		t.Fatalf("empty text: %d", resp.StatusCode)
	}
	if resp, _ := env.form("/admin/todos", url.Values{"agent": {"tester"}, "member": {"ada"}, "text": {"Ask about sleep"}}, false); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("add: %d", resp.StatusCode)
	}
	s.waitEvent(t, 2*time.Second, `id="todos"`, "Ask about sleep", `data-status="pending"`)
	todos, _ := env.sched.Todos().List(ctx, schedule.TodoFilter{})
	if len(todos) != 1 {
		t.Fatalf("todos = %v", todos)
	}
	id := itoa(todos[0].ID)
	if resp, _ := env.form("/admin/todos/"+id+"/complete", nil, false); resp.StatusCode != 400 {
		t.Fatalf("complete without the form: %d", resp.StatusCode)
	}
	if resp, _ := env.form("/admin/todos/"+id+"/complete", url.Values{"show": {"open"}}, false); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("complete: %d", resp.StatusCode)
	}
	// The open list (this stream's view) no longer shows it.
	s.waitEvent(t, 2*time.Second, `id="todos"`, "Nothing here")
	_, body = env.page("/admin/todos?show=done")
	mustContain(t, "done list", body, "Ask about sleep", "completed by an admin")
	if resp, _ := env.form("/admin/todos/"+id+"/delete", url.Values{"show": {"done"}}, false); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("delete: %d", resp.StatusCode)
	}
	if todos, _ := env.sched.Todos().List(ctx, schedule.TodoFilter{}); len(todos) != 0 {
		t.Fatalf("after delete: %v", todos)
	}
	if resp, _ := env.form("/admin/todos/"+id+"/delete", url.Values{"show": {"all"}}, false); resp.StatusCode != 404 {
		t.Fatalf("delete again: %d", resp.StatusCode)
	}
}
