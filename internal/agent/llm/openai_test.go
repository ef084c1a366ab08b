package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/openai/openai-go/v3"

	"hearth/internal/agent"
	"hearth/internal/agent/llm"
	"hearth/internal/agent/llm/llmtest"
)

func newClient(t *testing.T, srv *llmtest.Server, mod func(*llm.OpenAIConfig)) *llm.OpenAI {
	t.Helper()
	cfg := llm.OpenAIConfig{BaseURL: srv.URL(), APIKey: "test-key", Model: "fake-model", RequestTimeout: 5 * time.Second}
	if mod != nil {
		mod(&cfg)
	}
	c, err := llm.NewOpenAI(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

var lookupSpec = agent.ToolSpec{Name: "lookup", Description: "Look something up",
	Parameters: map[string]any{"type": "object", "properties": map[string]any{"q": map[string]any{"type": "string"}}}}

func TestToolLoopExecutesToolsAndSendsResultsBack(t *testing.T) {
	srv := llmtest.New(t,
		llmtest.Tool("lookup", map[string]string{"q": "weather"}),
		llmtest.Reply{Content: "it is sunny", PromptTokens: 20, CompletionTokens: 7},
	)
	var got []string
	call := func(_ context.Context, name string, args json.RawMessage) (any, error) {
		got = append(got, name+" "+string(args))
		return map[string]string{"answer": "sunny"}, nil
	}
	temp := 0.2
	res, err := newClient(t, srv, nil).Execute(context.Background(), agent.ModelRequest{
		System:   "be brief",
		Messages: []agent.Message{{Role: agent.RoleUser, Content: "weather?"}},
		Tools:    []agent.ToolSpec{lookupSpec}, CallTool: call,
		Temperature: &temp, MaxTokens: 100,
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Output != "it is sunny" {
		t.Fatalf("output = %q", res.Output)
	}
	if len(got) != 1 || got[0] != `lookup {"q":"weather"}` {
		t.Fatalf("tool calls executed = %v", got)
	}
	if len(res.ToolCalls) != 1 || string(res.ToolCalls[0].Result) != `{"answer":"sunny"}` {
		t.Fatalf("recorded tool calls = %+v", res.ToolCalls)
	}
	if res.Usage != (agent.Usage{InputTokens: 20, OutputTokens: 7}) || res.Attempts != 2 || res.Model != "fake-model" {
		t.Fatalf("usage/attempts/model = %+v %d %q", res.Usage, res.Attempts, res.Model)
	}
	reqs := srv.ChatRequests()
	if len(reqs) != 2 {
		t.Fatalf("requests = %d", len(reqs))
	}
	first := reqs[0]
	if names := first.ToolNames(); len(names) != 1 || names[0] != "lookup" {
		t.Fatalf("tools offered = %v", names)
	}
	// A server Hearth does not recognise gets max_tokens, which every family reads.
	if first.Get("temperature") != 0.2 || first.Get("max_tokens") != float64(100) {
		t.Fatalf("temperature/max tokens = %v %v", first.Get("temperature"), first.Get("max_tokens"))
	}
	if first.Header.Get("Authorization") != "Bearer test-key" {
		t.Fatalf("auth header = %q", first.Header.Get("Authorization"))
	}
	msgs := reqs[1].Messages()
	if len(msgs) != 4 || msgs[0].Role != "system" || msgs[1].Role != "user" || msgs[2].Role != "assistant" || msgs[3].Role != "tool" {
		t.Fatalf("second request messages = %+v", msgs)
	}
	if len(msgs[2].ToolCalls) != 1 || msgs[3].ToolCallID != msgs[2].ToolCalls[0].ID || msgs[3].Content != `{"answer":"sunny"}` {
		t.Fatalf("tool result not sent back: %+v", msgs[2:])
	}
}

func TestToolErrorsAreReportedToTheModel(t *testing.T) {
	srv := llmtest.New(t, llmtest.Tool("lookup", "{}"), llmtest.Text("ok", 1, 1))
	call := func(context.Context, string, json.RawMessage) (any, error) { return nil, errors.New("no such city") }
	res, err := newClient(t, srv, nil).Execute(context.Background(), agent.ModelRequest{
		Messages: []agent.Message{{Role: agent.RoleUser, Content: "x"}}, Tools: []agent.ToolSpec{lookupSpec}, CallTool: call})
	if err != nil {
		t.Fatal(err)
	}
	if res.ToolCalls[0].Error != "no such city" {
		t.Fatalf("tool call = %+v", res.ToolCalls[0])
	}
	if last := srv.ChatRequests()[1].LastMessage(); last.Role != "tool" || last.Content != `{"error":"no such city"}` {
		t.Fatalf("tool message = %+v", last)
	}
}

func TestIterationBoundStopsEndlessToolCalls(t *testing.T) {
	srv := llmtest.New(t)
	srv.Otherwise(func(llmtest.Request) llmtest.Reply {
		r := llmtest.Tool("lookup", map[string]string{"q": "again"})
		r.PromptTokens, r.CompletionTokens = 3, 1
		return r
	})
	calls := 0
	res, err := newClient(t, srv, nil).Execute(context.Background(), agent.ModelRequest{
		Messages: []agent.Message{{Role: agent.RoleUser, Content: "x"}}, Tools: []agent.ToolSpec{lookupSpec},
		CallTool:      func(context.Context, string, json.RawMessage) (any, error) { calls++; return "more", nil },
		MaxIterations: 3,
	})
	if err == nil || !strings.Contains(err.Error(), "still calling tools after 3") {
		t.Fatalf("err = %v", err)
	}
	if n := len(srv.ChatRequests()); n != 3 || calls != 3 {
		t.Fatalf("requests = %d, tool calls = %d; want 3 and 3", n, calls)
	}
	if res.Usage.InputTokens != 9 {
		t.Fatalf("usage of the failed loop = %+v", res.Usage)
	}
}

func TestStructuredOutputRequest(t *testing.T) {
	srv := llmtest.New(t, llmtest.JSON(map[string]string{"title": "x"}, 5, 2))
	schema := map[string]any{"type": "object", "properties": map[string]any{"title": map[string]any{"type": "string"}},
		"required": []string{"title"}, "additionalProperties": false}
	res, err := newClient(t, srv, func(c *llm.OpenAIConfig) { c.LegacyMaxTokens = true }).Execute(context.Background(), agent.ModelRequest{
		Messages: []agent.Message{{Role: agent.RoleUser, Content: "x"}}, Model: "other-model", MaxTokens: 50,
		Output: &agent.OutputSchema{Name: "task", Schema: schema},
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Output != `{"title":"x"}` {
		t.Fatalf("output = %q", res.Output)
	}
	req := srv.ChatRequests()[0]
	rf := req.ResponseFormat()
	js, _ := rf["json_schema"].(map[string]any)
	if rf["type"] != "json_schema" || js["name"] != "task" || js["strict"] != true || js["schema"] == nil {
		t.Fatalf("response_format = %v", rf)
	}
	if req.Model() != "other-model" || req.Get("max_tokens") != float64(50) || req.Get("max_completion_tokens") != nil {
		t.Fatalf("model/max_tokens = %q %v %v", req.Model(), req.Get("max_tokens"), req.Get("max_completion_tokens"))
	}
}

func TestRetriesRateLimitThenSucceeds(t *testing.T) {
	srv := llmtest.New(t, llmtest.RateLimited(), llmtest.Text("fine", 4, 2))
	res, err := newClient(t, srv, func(c *llm.OpenAIConfig) { c.MaxRetries = 2 }).Execute(context.Background(),
		agent.ModelRequest{Messages: []agent.Message{{Role: agent.RoleUser, Content: "x"}}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Output != "fine" || res.Attempts != 2 || len(srv.ChatRequests()) != 2 {
		t.Fatalf("output %q attempts %d requests %d", res.Output, res.Attempts, len(srv.ChatRequests()))
	}
}

func TestHTTPErrorWithoutRetries(t *testing.T) {
	srv := llmtest.New(t, llmtest.Error(500), llmtest.Text("never", 1, 1))
	_, err := newClient(t, srv, nil).Execute(context.Background(),
		agent.ModelRequest{Messages: []agent.Message{{Role: agent.RoleUser, Content: "x"}}})
	var apiErr *openai.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 500 {
		t.Fatalf("err = %v", err)
	}
	if len(srv.ChatRequests()) != 1 {
		t.Fatalf("requests = %d, want 1 (MaxRetries 0)", len(srv.ChatRequests()))
	}
}

func TestBrokenReplies(t *testing.T) {
	for name, tc := range map[string]struct {
		reply llmtest.Reply
		want  string
	}{
		"malformed JSON":    {llmtest.Reply{Body: `{"id": "x", "choices": [`}, "error parsing response json"},
		"connection drop":   {llmtest.Reply{CloseMidBody: true}, "unexpected EOF"},
		"no choices":        {llmtest.Reply{Body: `{"id":"x","object":"chat.completion","model":"m","choices":[]}`}, "no choices"},
		"refusal":           {llmtest.Reply{Refusal: "I cannot help with that"}, "refused"},
		"hanging (timeout)": {llmtest.Reply{Hang: true}, "deadline exceeded"},
	} {
		t.Run(name, func(t *testing.T) {
			srv := llmtest.New(t, tc.reply)
			start := time.Now()
			_, err := newClient(t, srv, func(c *llm.OpenAIConfig) { c.RequestTimeout = 200 * time.Millisecond }).Execute(
				context.Background(), agent.ModelRequest{Messages: []agent.Message{{Role: agent.RoleUser, Content: "x"}}})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to mention %q", err, tc.want)
			}
			if n := len(srv.ChatRequests()); n != 1 {
				t.Fatalf("requests = %d, want 1", n)
			}
			if d := time.Since(start); d > 3*time.Second {
				t.Fatalf("took %v", d)
			}
		})
	}
}

func TestHeuristic(t *testing.T) {
	res, err := llm.Heuristic{}.Execute(context.Background(), agent.ModelRequest{
		Planner: func(context.Context) (string, error) { return `{"ok":true}`, nil }})
	if err != nil || res.Output != `{"ok":true}` || res.Model != llm.HeuristicModel || res.Usage != (agent.Usage{}) {
		t.Fatalf("res = %+v, err = %v", res, err)
	}
	if _, err := (llm.Heuristic{}).Execute(context.Background(), agent.ModelRequest{}); err == nil {
		t.Fatal("want an error without a planner")
	}
}

func TestNewOpenAINeedsModel(t *testing.T) {
	if _, err := llm.NewOpenAI(llm.OpenAIConfig{BaseURL: "http://127.0.0.1:1/v1"}); err == nil {
		t.Fatal("want an error without a default model")
	}
}

func TestNewRuntimes(t *testing.T) {
	rt, err := llm.NewRuntimes(llm.OpenAIConfig{})
	if err != nil || rt.Model != nil || rt.Heuristic == nil {
		t.Fatalf("unconfigured: %+v, %v", rt, err)
	}
	srv := llmtest.New(t, llmtest.Text("hi", 1, 1))
	rt, err = llm.NewRuntimes(llm.OpenAIConfig{BaseURL: srv.URL()})
	if err != nil || rt.Model == nil {
		t.Fatalf("configured: %+v, %v", rt, err)
	}
	if _, err := rt.Model.Execute(context.Background(), agent.ModelRequest{Messages: []agent.Message{{Role: agent.RoleUser, Content: "x"}}}); err != nil {
		t.Fatal(err)
	}
	if m := srv.ChatRequests()[0].Model(); m != llm.DefaultModel {
		t.Fatalf("model = %q", m)
	}
}
