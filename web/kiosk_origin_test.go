package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"hearth/internal/agent"
)

// A conversation an admin had as a member (the threads API, Admin → Chat)
// is the admin's: every kiosk chat route answers 404 for it (open, latest,
// continue, delete), the sheet does not list it, and a kiosk turn does not
// recall what was said in it. The admin sees the kiosk's threads too.
func TestAdminThreadsStayOffTheKiosk(t *testing.T) {
	s := newSweepServer(t)
	ctx := context.Background()
	const secret = "zebrafishadmin"

	// Through the API: a thread, and a message in it.
	rec := s.do(swReq{method: http.MethodPost, path: "/api/agents/health-coach/threads", ctype: "application/json",
		body: []byte(`{"member":"maya","title":"Plan ` + secret + `"}`)})
	var api agent.Thread
	if err := json.Unmarshal(rec.Body.Bytes(), &api); rec.Code != http.StatusCreated || err != nil || api.Origin != agent.SurfaceAdmin {
		t.Fatalf("create: %d %s %v", rec.Code, rec.Body.String(), err)
	}
	if rec := s.do(swReq{method: http.MethodPost, path: fmt.Sprintf("/api/threads/%d/messages", api.ID), ctype: "application/json",
		body: []byte(`{"content":"I told the admin about my ` + secret + ` diet"}`)}); rec.Code != http.StatusOK {
		t.Fatalf("message: %d %s", rec.Code, rec.Body.String())
	}
	// Through Admin → Chat.
	rec = s.do(swReq{method: http.MethodPost, path: "/admin/chat", ctype: "application/x-www-form-urlencoded",
		body: []byte(url.Values{"agent": {"health-coach"}, "member": {"maya"}, "message": {"Admin page note " + secret}}.Encode())})
	if rec.Code != http.StatusSeeOther {
		t.Fatalf("admin chat: %d %s", rec.Code, rec.Body.String())
	}
	loc, _ := url.Parse(rec.Header().Get("Location"))
	page := loc.Query().Get("thread")
	waitIdle(t, s.app, "maya")

	for _, id := range []string{fmt.Sprint(api.ID), page} {
		notFound := func(what string, r *httptest.ResponseRecorder) {
			t.Helper()
			if r.Code != http.StatusNotFound || strings.Contains(r.Body.String(), secret) {
				t.Errorf("%s of admin thread %s: %d %s", what, id, r.Code, r.Body.String())
			}
		}
		notFound("open", s.do(swReq{method: http.MethodGet, path: "/m/maya/chat/" + id}))
		if r := s.do(swReq{method: http.MethodGet, path: "/m/maya/chat/" + id, datastar: true}); !strings.Contains(r.Body.String(),
			"conversation "+id+" not found") || strings.Contains(r.Body.String(), secret) {
			t.Errorf("open (Datastar) admin thread %s: %s", id, r.Body.String())
		}
		notFound("continue", s.do(swReq{method: http.MethodPost, path: "/m/maya/chat", ctype: "application/x-www-form-urlencoded",
			body: []byte(url.Values{"message": {"hello"}, "thread": {id}}.Encode())}))
		notFound("delete", s.do(swReq{method: http.MethodPost, path: "/m/maya/chat/" + id + "/delete",
			ctype: "application/x-www-form-urlencoded"}))
		var n int64
		if _, err := fmt.Sscan(id, &n); err != nil {
			t.Fatal(err)
		}
		if _, err := s.app.Agents.Threads().Thread(ctx, n); err != nil {
			t.Errorf("admin thread %s after the kiosk's delete: %v", id, err)
		}
	}
	for _, path := range []string{"/m/maya/chat/latest", "/m/maya/chat"} {
		if body := s.do(swReq{method: http.MethodGet, path: path, datastar: true}).Body.String(); strings.Contains(body, secret) {
			t.Errorf("%s shows the admin's conversation: %s", path, body)
		}
	}

	// A kiosk conversation that asks about earlier ones recalls its own
	// surface only.
	code, body := chatPost(s, "maya", url.Values{"message": {"What did I tell you about my " + secret + " diet before?"}, "thread": {"0"}})
	if code != http.StatusOK {
		t.Fatalf("kiosk chat: %d %s", code, body)
	}
	waitIdle(t, s.app, "maya")
	kiosk, err := s.app.Agents.Threads().Chats(ctx, "health-coach", "maya", agent.SurfaceKiosk, 10)
	if err != nil || len(kiosk) != 1 || kiosk[0].Origin != agent.SurfaceKiosk {
		t.Fatalf("kiosk threads: %+v %v", kiosk, err)
	}
	msgs, err := s.app.Agents.Threads().Messages(ctx, kiosk[0].ID, 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range msgs {
		if m.Role != agent.RoleUser && strings.Contains(m.Content, secret) {
			t.Errorf("the kiosk's answer recalls the admin's conversation: %q", m.Content)
		}
	}
	// The admin sees every thread, the kiosk's included.
	rec = s.do(swReq{method: http.MethodGet, path: "/api/agents/health-coach/threads?member=maya"})
	var list struct{ Threads []agent.Thread }
	_ = json.Unmarshal(rec.Body.Bytes(), &list)
	origins := map[agent.Surface]int{}
	for _, th := range list.Threads {
		origins[th.Origin]++
	}
	if origins[agent.SurfaceKiosk] != 1 || origins[agent.SurfaceAdmin] < 2 {
		t.Errorf("admin's thread list by origin: %v", origins)
	}
}
