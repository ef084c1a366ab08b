package web_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"

	"hearth/internal/agent"
	"hearth/internal/agent/llm/llmtest"
	"hearth/internal/app"
	"hearth/internal/coach"
	"hearth/internal/testkit"
)

// kioskForm posts a kiosk form in-process as a plain browser form (no
// Datastar: errors keep their status) from the client address remote.
func kioskForm(a *app.App, path string, form url.Values, remote string) *httptest.ResponseRecorder {
	const token = "abababababababababababababababab"
	req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1:8080"+path, strings.NewReader(form.Encode()))
	req.RemoteAddr = remote
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	req.Header.Set("X-CSRF-Token", token)
	req.AddCookie(&http.Cookie{Name: "hearth_csrf", Value: token})
	rec := httptest.NewRecorder()
	a.Echo.ServeHTTP(rec, req)
	return rec
}

// waitIdle waits until the member's chat turns are over (each answered
// or failed).
func waitIdle(t testing.TB, a *app.App, member string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Patience)
	defer cancel()
	for _, cs := range a.Agents.ActiveChats(member) {
		for _, changed, done := cs.Next(0); !done; _, changed, done = cs.Next(0) {
			select {
			case <-changed:
			case <-ctx.Done():
				t.Fatalf("chat turn %d still under way", cs.RunID)
			}
		}
	}
	// A turn's stream ends with its answer; the run's own record (status,
	// finish time) is saved just after: wait for every run of the member.
	for _, st := range []agent.Status{agent.StatusQueued, agent.StatusRunning} {
		runs, err := a.Agents.Runs().List(ctx, agent.RunFilter{Member: member, Status: st})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range runs {
			if _, err := a.Agents.Wait(ctx, r.ID); err != nil {
				t.Fatalf("run %d still under way: %v", r.ID, err)
			}
		}
	}
}

// The kiosk's chat model is offered the kiosk's model tools only (a subset
// of the kiosk's tools: reads and the coach's memory of the member; a CPU
// server reads every definition each turn), and a call of another tool is refused by
// the server whatever the model asks: here the model tries to schedule a
// task, which is not created. An admin's chat is offered every tool.
func TestKioskChatOffersOnlyKioskTools(t *testing.T) {
	srv := llmtest.New(t,
		llmtest.Tool("schedule_action", map[string]any{"description": "Ping", "type": "interval", "schedule": "1", "prompt": nil}),
		llmtest.Text("I can't schedule that from here.", 1, 1),
	)
	a, _ := modelApp(t, srv)
	rec := kioskForm(a, "/m/theo/chat", url.Values{"message": {"Remind me every minute"}, "thread": {"0"}}, "192.168.1.20:5000")
	if rec.Code != http.StatusSeeOther {
		t.Fatalf("chat: %d %s", rec.Code, rec.Body.String())
	}
	waitIdle(t, a, "theo")
	reqs := srv.ChatRequests()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests, want 2", len(reqs))
	}
	offered := reqs[0].ToolNames()
	if !slices.Equal(slices.Sorted(slices.Values(offered)), slices.Sorted(slices.Values(coach.KioskModelTools))) {
		t.Errorf("the kiosk chat was offered %v, want %v", offered, coach.KioskModelTools)
	}
	for _, n := range offered {
		if !slices.Contains(coach.KioskTools, n) {
			t.Errorf("the kiosk chat was offered %s, not a kiosk tool", n)
		}
	}
	var result string
	for _, m := range reqs[1].Messages() {
		if m.Role == "tool" {
			result = m.Content
		}
	}
	if !strings.Contains(result, `unknown tool`) || !strings.Contains(result, "schedule_action") {
		t.Errorf("the refused call's result: %q", result)
	}
	var tasks, requests int
	if err := a.DB.Read.QueryRow(`SELECT (SELECT count(*) FROM scheduled_tasks WHERE created_by = 'agent'),
		(SELECT count(*) FROM agent_task_requests)`).Scan(&tasks, &requests); err != nil || tasks+requests != 0 {
		t.Fatalf("a refused tool scheduled %d tasks (%d requests): %v", tasks, requests, err)
	}

	// The admin's chat (Admin → Chat) gets every tool.
	srv.Push(llmtest.Text("Sure.", 1, 1))
	rec = kioskForm(a, "/admin/chat", url.Values{"agent": {"health-coach"}, "member": {"theo"}, "message": {"hello"}}, "127.0.0.1:5000")
	if rec.Code != http.StatusSeeOther {
		t.Fatalf("admin chat: %d %s", rec.Code, rec.Body.String())
	}
	waitIdle(t, a, "theo")
	if reqs := srv.ChatRequests(); len(reqs) != 3 || !slices.Contains(reqs[2].ToolNames(), "schedule_action") || len(reqs[2].ToolNames()) <= len(coach.KioskTools) {
		t.Errorf("the admin's chat was offered %v", reqs[len(reqs)-1].ToolNames())
	}
}
