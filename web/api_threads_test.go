package web_test

import (
	"context"
	"encoding/json"
	"hearth/internal/testkit"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"hearth/internal/agent"
	"hearth/internal/agent/llm/llmtest"
	"hearth/internal/app"
)

// modelApp is the real app (demo household) with its model at srv, served.
func modelApp(t *testing.T, srv *llmtest.Server) (*app.App, *served) {
	t.Helper()
	ta := newTestApp(t, withDemo(), withModel(srv.URL(), "fake"), withEnv("OPENAI_API_KEY", "sk-test"))
	return ta.app, ta.serve()
}

// apiDo sends a JSON request as a script would: no browser headers, from
// loopback, with no password set (open admin).
func apiDo(t *testing.T, ctx context.Context, hs *served, method, path, body string, header map[string]string) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, method, hs.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// POST /api/threads/:id/messages with Accept: text/event-stream streams the
// answer as the model writes it: the tool chip first, deltas spaced as the
// model sent them (before the answer is complete), then the stored
// message; the thread keeps the tool call, its result and the answer.
func TestThreadMessageStreamsTheAnswer(t *testing.T) {
	srv := llmtest.New(t,
		llmtest.Tool("get_weight_trend", map[string]any{}),
		llmtest.Reply{Content: "Your trend is down this week. Keep going!", Chunks: []string{"Your trend ", "is down ", "this week. ", "Keep going!"},
			ChunkDelay: 150 * time.Millisecond},
	)
	_, hs := modelApp(t, srv)
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Patience)
	defer cancel()
	resp := apiDo(t, ctx, hs, "POST", "/api/agents/health-coach/threads", `{"member":"maya"}`, nil)
	var th agent.Thread
	_ = json.NewDecoder(resp.Body).Decode(&th)
	resp.Body.Close()
	if resp.StatusCode != 201 || th.ID == 0 {
		t.Fatalf("create thread: %d %+v", resp.StatusCode, th)
	}
	start := time.Now()
	resp = apiDo(t, ctx, hs, "POST", "/api/threads/"+itoa(th.ID)+"/messages", `{"content":"How is my weight going?"}`,
		map[string]string{"Accept": "text/event-stream"})
	defer resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("message: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	ch := make(chan sseEvent, 32)
	go readEvents(t, resp, ch)
	var names []string
	var text string
	var at []time.Duration
	var final map[string]any
	for ev := range ch {
		names = append(names, ev.name)
		switch ev.name {
		case "delta":
			text += ev.data["text"].(string)
			at = append(at, time.Since(start))
		case "tool":
			if ev.data["tool"] != "get_weight_trend" || ev.data["label"] != "checked your weight trend" {
				t.Errorf("tool event %v", ev.data)
			}
		case "message":
			final = ev.data
		}
	}
	if strings.Join(names, ",") != "tool,delta,delta,delta,delta,message" {
		t.Fatalf("events %v", names)
	}
	if at[len(at)-1]-at[0] < 300*time.Millisecond {
		t.Errorf("deltas arrived together at %v: not streamed", at)
	}
	if text != "Your trend is down this week. Keep going!" || final["content"] != text || final["type"] != "text" {
		t.Errorf("text %q final %v", text, final)
	}
	resp = apiDo(t, ctx, hs, "GET", "/api/threads/"+itoa(th.ID), "", nil)
	var got struct {
		Messages []agent.ThreadMessage
	}
	_ = json.NewDecoder(resp.Body).Decode(&got)
	resp.Body.Close()
	var types []string
	for _, m := range got.Messages {
		types = append(types, string(m.Type))
	}
	if strings.Join(types, ",") != "text,tool-call,tool-result,text" || got.Messages[1].ToolName != "get_weight_trend" {
		t.Errorf("thread %+v", got.Messages)
	}
}

// A client that goes away mid-answer does not lose it: the answer is
// written on the server's context and stored; a retried request with the
// same Idempotency-Key does not send the message twice.
func TestThreadMessageSurvivesTheClientGoing(t *testing.T) {
	srv := llmtest.New(t, llmtest.Reply{Content: "A long and careful answer.", Chunks: []string{"A long ", "and careful ", "answer."},
		ChunkDelay: 200 * time.Millisecond})
	a, hs := modelApp(t, srv)
	bg := context.Background()
	th, err := a.Agents.CreateThread(bg, "health-coach", "theo", "")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(bg)
	key := map[string]string{"Accept": "text/event-stream", "Idempotency-Key": "retry-key-0000000001"}
	resp := apiDo(t, ctx, hs, "POST", "/api/threads/"+itoa(th.ID)+"/messages", `{"content":"Tell me something"}`, key)
	buf := make([]byte, 64)
	_, _ = resp.Body.Read(buf) // the first delta
	cancel()
	resp.Body.Close()
	testkit.WaitFor(t, testkit.Patience, "the answer to be stored", func() bool {
		msgs, _ := a.Agents.Threads().Messages(bg, th.ID, 0, 0)
		return len(msgs) == 2 && msgs[1].Content == "A long and careful answer."
	})
	resp = apiDo(t, bg, hs, "POST", "/api/threads/"+itoa(th.ID)+"/messages", `{"content":"Tell me something"}`, key)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	msgs, _ := a.Agents.Threads().Messages(bg, th.ID, 0, 0)
	if len(msgs) != 2 || len(srv.ChatRequests()) != 1 {
		t.Errorf("the retry sent the message again: %d messages, %d model requests (%d %s)", len(msgs), len(srv.ChatRequests()), resp.StatusCode, body)
	}
}
