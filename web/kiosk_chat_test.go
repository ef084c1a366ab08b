package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"hearth/internal/agent"
)

// chatPost sends a message from the kiosk's chat form (as Datastar does)
// and returns the streamed answer.
func chatPost(s *swServer, member string, form url.Values) (int, string) {
	rec := s.do(swReq{method: http.MethodPost, path: "/m/" + member + "/chat", ctype: "application/x-www-form-urlencoded",
		body: []byte(form.Encode()), datastar: true})
	return rec.Code, rec.Body.String()
}

// The kiosk chat: a message streams its answer into the sheet (the turn
// element, finished), the member's text stays out of Datastar-evaluated
// attributes in the stream and in the sheet, which lists conversations
// (not the threads of requests to the coach), a repeated request id is
// answered without a second message, and another member cannot read,
// write to or delete the conversation.
func TestKioskChat(t *testing.T) {
	s := newSweepServer(t)
	ctx := context.Background()
	threads := s.app.Agents.Threads()
	before, err := threads.Threads(ctx, "health-coach", "maya", 100)
	if err != nil {
		t.Fatal(err)
	}

	code, body := chatPost(s, "maya", url.Values{"message": {"How is my weight going? " + dsPayload}, "thread": {"0"}, "_rid": {"chat-rid-0123456789ab"}})
	if code != http.StatusOK || !strings.Contains(body, "zqx") || !strings.Contains(body, `class="chat-msg from-coach chat-turn"`) {
		t.Fatalf("send: %d %s", code, body)
	}
	dsCheck(t, "chat stream", body)
	ts, err := threads.Threads(ctx, "health-coach", "maya", 100)
	if err != nil || len(ts) != len(before)+1 || !strings.HasPrefix(ts[0].Title, "How is my weight going?") {
		t.Fatalf("threads: %v %v", ts, err)
	}
	th := ts[0]
	// The same request id again: the first answer, not a second message.
	if code, again := chatPost(s, "maya", url.Values{"message": {"How is my weight going? " + dsPayload}, "thread": {"0"}, "_rid": {"chat-rid-0123456789ab"}}); code != http.StatusOK || again != body {
		t.Errorf("repeat: %d, same answer %v", code, again == body)
	}
	msgs, err := threads.Messages(ctx, th.ID, 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	var users, answers int // texts of this conversation
	for _, m := range msgs {
		if m.Type == agent.MessageText && m.Role == agent.RoleUser {
			users++
		} else if m.Type == agent.MessageText {
			answers++
		}
	}
	if users != 1 || answers != 1 {
		t.Fatalf("after a repeat: %d messages of the member, %d answers", users, answers)
	}

	// The sheet, reopened: the conversation listed and shown.
	sheet := s.do(swReq{method: http.MethodGet, path: "/m/maya/chat/latest", datastar: true}).Body.String()
	if !strings.Contains(sheet, "zqx") || !strings.Contains(sheet, "checked your weight trend") || !strings.Contains(sheet, `aria-current="true"`) {
		t.Fatalf("sheet: %s", sheet)
	}
	dsCheck(t, "chat sheet", sheet)
	// The demo's scheduled reminder made a thread too: not a conversation
	// of the member's, so not listed.
	var request string
	for _, th := range before {
		if !th.Chat {
			request = th.Title
		}
	}
	if request == "" || strings.Contains(sheet, request) {
		t.Errorf("the request thread %q is listed (or the demo has none): %s", request, sheet)
	}

	// A message that is not one line of text is refused on the form, kept.
	_, refused := chatPost(s, "maya", url.Values{"message": {"   "}, "thread": {fmt.Sprint(th.ID)}})
	if !strings.Contains(refused, "Your message is required.") || !strings.Contains(refused, `id="chat-form"`) {
		t.Errorf("empty message: %s", refused)
	}

	// Member scope: theo cannot see, continue or delete maya's
	// conversation (Datastar gets errors as a flash patch, status 200).
	other := fmt.Sprint(th.ID)
	notFound := func(what, body string) {
		t.Helper()
		if !strings.Contains(body, "conversation "+other+" not found") || strings.Contains(body, "zqx") {
			t.Errorf("%s: %s", what, body)
		}
	}
	notFound("theo reads maya's conversation", s.do(swReq{method: http.MethodGet, path: "/m/theo/chat/" + other, datastar: true}).Body.String())
	_, b := chatPost(s, "theo", url.Values{"message": {"hi"}, "thread": {other}})
	notFound("theo writes to maya's conversation", b)
	notFound("theo deletes maya's conversation", s.do(swReq{method: http.MethodPost, path: "/m/theo/chat/" + other + "/delete",
		ctype: "application/x-www-form-urlencoded", datastar: true}).Body.String())
	// maya can delete it.
	rec := s.do(swReq{method: http.MethodPost, path: "/m/maya/chat/" + other + "/delete", ctype: "application/x-www-form-urlencoded", datastar: true})
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "chat-empty") || strings.Contains(rec.Body.String(), "zqx") {
		t.Fatalf("delete: %d %s", rec.Code, rec.Body.String())
	}
	if ts, _ := threads.Threads(ctx, "health-coach", "maya", 100); len(ts) != len(before) {
		t.Errorf("threads after delete: %v", ts)
	}
}
