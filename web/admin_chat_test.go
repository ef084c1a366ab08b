package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"hearth/internal/agent"
)

// Admin → Chat: a message sent as a member is answered on the thread; the
// page shows the raw tool call with its arguments, its result, the answer
// and the run's link; the form's request id sends a message once; a
// conversation of another member is not shown; the live stream patches the
// messages.
func TestAdminChat(t *testing.T) {
	s := newSweepServer(t)
	ctx := context.Background()
	form := url.Values{"agent": {"health-coach"}, "member": {"maya"}, "thread": {"0"}, "message": {"How is my weight going?"},
		"_rid": {"admin-chat-rid-0123456789"}}
	post := func() *http.Response {
		rec := s.do(swReq{method: http.MethodPost, path: "/admin/chat", ctype: "application/x-www-form-urlencoded", body: []byte(form.Encode())})
		return rec.Result()
	}
	first := post()
	loc := first.Header.Get("Location")
	if first.StatusCode != http.StatusSeeOther || !strings.HasPrefix(loc, "/admin/chat?") {
		t.Fatalf("send: %d %q", first.StatusCode, loc)
	}
	u, _ := url.Parse(loc)
	var thread int64
	fmt.Sscan(u.Query().Get("thread"), &thread)
	threads := s.app.Agents.Threads()
	var msgs []agent.ThreadMessage
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		var err error
		if msgs, err = threads.Messages(ctx, thread, 0, 100); err != nil {
			t.Fatal(err)
		}
		if n := len(msgs); n > 0 && msgs[n-1].Role == agent.RoleAssistant && msgs[n-1].Type == agent.MessageText {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no answer on thread %d: %+v", thread, msgs)
		}
	}
	if again := post(); again.StatusCode != http.StatusSeeOther || again.Header.Get("Location") != loc {
		t.Errorf("repeat: %d %q", again.StatusCode, again.Header.Get("Location"))
	}
	if m, _ := threads.Messages(ctx, thread, 0, 100); len(m) != len(msgs) {
		t.Errorf("a repeated request id sent the message again: %d messages, had %d", len(m), len(msgs))
	}
	answer := msgs[len(msgs)-1]
	page := s.do(swReq{method: http.MethodGet, path: loc}).Body.String()
	for _, want := range []string{
		"call <code>get_weight_trend</code>", "(checked your weight trend)", "result of <code>get_weight_trend</code>",
		fmt.Sprintf(`href="/admin/runs/%d"`, *answer.RunID), "How is my weight going?",
		strings.ReplaceAll(answer.Content[:20], "'", "&#39;"), `data-init="@get(&#39;/admin/live/chat/`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the conversation page lacks %q", want)
		}
	}
	other := s.do(swReq{method: http.MethodGet, path: fmt.Sprintf("/admin/chat?agent=health-coach&member=theo&thread=%d", thread)})
	if other.Code != http.StatusNotFound {
		t.Errorf("maya's conversation under theo: %d", other.Code)
	}
	live := s.do(swReq{method: http.MethodGet, path: fmt.Sprintf("/admin/live/chat/%d", thread), datastar: true}).Body.String()
	if !strings.Contains(live, `id="admin-chat-log"`) || !strings.Contains(live, "get_weight_trend") {
		t.Errorf("live: %s", live)
	}
}
