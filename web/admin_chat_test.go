package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"hearth/internal/agent"
	"hearth/internal/agent/definition"
	"hearth/internal/testkit"
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
	testkit.WaitFor(t, testkit.Patience, fmt.Sprintf("an answer on thread %d", thread), func() bool {
		var err error
		if msgs, err = threads.Messages(ctx, thread, 0, 100); err != nil {
			t.Fatal(err)
		}
		n := len(msgs)
		return n > 0 && msgs[n-1].Role == agent.RoleAssistant && msgs[n-1].Type == agent.MessageText
	})
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
		strings.ReplaceAll(answer.Content[:20], "'", "&#39;"), `data-init__delay.1ms="@get(&#39;/admin/live/chat/`,
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

// Admin → Chat offers agents made in admin too, and talks to them (with the
// heuristic runtime: the answer says the agent needs a model).
func TestAdminChatWithAnAgentMadeInAdmin(t *testing.T) {
	s := newSweepServer(t)
	ctx := context.Background()
	def := definition.Definition{AgentID: "greeter", SystemPrompt: "You greet {{user.name}}.", MaxIterations: 1}
	if _, err := s.app.Definitions.Save(ctx, def, "admin", ""); err != nil {
		t.Fatal(err)
	}
	page := s.do(swReq{method: http.MethodGet, path: "/admin/chat?agent=greeter&member=maya"})
	if page.Code != http.StatusOK || !strings.Contains(page.Body.String(), "greeter (made in admin)") {
		t.Fatalf("Admin → Chat for greeter: %d, lists it: %v", page.Code, strings.Contains(page.Body.String(), "greeter (made in admin)"))
	}
	form := url.Values{"agent": {"greeter"}, "member": {"maya"}, "thread": {"0"}, "message": {"Hello"}, "_rid": {"admin-chat-greeter-0123456789"}}
	rec := s.do(swReq{method: http.MethodPost, path: "/admin/chat", ctype: "application/x-www-form-urlencoded", body: []byte(form.Encode())})
	if rec.Code != http.StatusSeeOther {
		t.Fatalf("send: %d %s", rec.Code, rec.Body.String())
	}
	ts, err := s.app.Agents.Threads().Threads(ctx, "greeter", "maya", 10)
	if err != nil || len(ts) != 1 {
		t.Fatalf("threads: %v %v", ts, err)
	}
	var msgs []agent.ThreadMessage
	testkit.WaitFor(t, testkit.Patience, "the agent's answer", func() bool {
		var err error
		if msgs, err = s.app.Agents.Threads().Messages(ctx, ts[0].ID, 0, 10); err != nil {
			t.Fatal(err)
		}
		return len(msgs) > 0 && msgs[len(msgs)-1].Role == agent.RoleAssistant
	})
	if got := msgs[len(msgs)-1].Content; got != definition.NeedsModelReply {
		t.Fatalf("answer = %q", got)
	}
}
