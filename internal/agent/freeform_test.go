package agent_test

import (
	"context"
	"strings"
	"testing"

	"hearth/internal/agent"
	"hearth/internal/agent/llm/llmtest"
	"hearth/internal/apperr"
)

func chat(t *testing.T, f *fixture, member, msg string, thread int64) agent.Run {
	t.Helper()
	r, err := f.orch.Run(context.Background(), agent.Request{Agent: "tester", Member: member, Message: msg, Thread: thread})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestChatPersistsThreadAndSendsHistory(t *testing.T) {
	f := newFixture(t, fixtureOpts{model: true, extraTools: []agent.ToolFactory{agent.MemoryTools()}})
	f.srv.Push(
		llmtest.Tool("remember", map[string]any{"key": "sleep", "value": "sleeps badly", "ttl_hours": 48}),
		llmtest.Text("Noted. Try an earlier bedtime.", 50, 10),
		llmtest.Text("You told me you sleep badly.", 60, 12),
	)
	first := chat(t, f, "ada", "I slept badly again", 0)
	if first.Status != agent.StatusSucceeded || first.ThreadID == nil || first.Assignment != "" ||
		string(first.Output) != `{"reply":"Noted. Try an earlier bedtime."}` || first.TokensIn != 50 {
		t.Fatal(fmtRun(first))
	}
	if mem := f.memory(t, "ada"); mem["sleep"] != "sleeps badly" {
		t.Fatalf("memory after chat = %v", mem)
	}

	second := chat(t, f, "ada", "What do you remember?", *first.ThreadID)
	mustEqual(t, "same thread", *second.ThreadID, *first.ThreadID)
	msgs := f.srv.ChatRequests()[2].Messages()
	roles := make([]string, len(msgs))
	for i, m := range msgs {
		roles[i] = m.Role
	}
	if strings.Join(roles, ",") != "system,user,assistant,user" || msgs[1].Content != "I slept badly again" ||
		msgs[2].Content != "Noted. Try an earlier bedtime." || !strings.Contains(msgs[0].Content, `- **sleep**: "sleeps badly"`) {
		t.Fatalf("second turn messages = %+v", msgs)
	}

	// The thread keeps the model's tool call and its result between the
	// texts, with the tool's name and arguments.
	stored, err := f.orch.Threads().Messages(context.Background(), *first.ThreadID, 0, 0)
	if err != nil || len(stored) != 6 || stored[5].Role != agent.RoleAssistant || *stored[5].RunID != second.ID {
		t.Fatalf("thread messages = %+v, %v", stored, err)
	}
	call, result := stored[1], stored[2]
	if call.Type != agent.MessageToolCall || call.ToolName != "remember" || !strings.Contains(string(call.ToolArgs), `"sleeps badly"`) ||
		result.Type != agent.MessageToolResult || result.Role != agent.RoleTool || result.ToolCallID != call.ToolCallID ||
		!strings.Contains(result.Content, "staged") {
		t.Fatalf("tool messages %+v / %+v", call, result)
	}
	threads, _ := f.orch.Threads().Threads(context.Background(), "tester", "ada", 0)
	if len(threads) != 1 || threads[0].Title != "I slept badly again" {
		t.Fatalf("threads = %+v", threads)
	}
}

func TestChatWithoutModelUsesTheAgentsReply(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	r := chat(t, f, "bob", "hello", 0)
	if r.Status != agent.StatusSucceeded || r.Model != "heuristic" || !strings.Contains(string(r.Output), "no language model") {
		t.Fatal(fmtRun(r))
	}
}

func TestChatModelErrorFallsBack(t *testing.T) {
	f := newFixture(t, fixtureOpts{model: true})
	f.srv.Push(llmtest.Error(503))
	r := chat(t, f, "ada", "hi", 0)
	if r.Status != agent.StatusFellBack || !strings.HasPrefix(r.FallbackReason, "model_error") {
		t.Fatal(fmtRun(r))
	}
	msgs, _ := f.orch.Threads().Messages(context.Background(), *r.ThreadID, 0, 0)
	mustEqual(t, "messages kept", len(msgs), 2)
}

func TestChatRequestErrors(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	bobs := chat(t, f, "bob", "mine", 0)
	ctx := context.Background()
	for _, tc := range []struct {
		req  agent.Request
		code apperr.Code
	}{
		{agent.Request{Agent: "tester", Member: "ada", Message: "  "}, apperr.Invalid},
		{agent.Request{Agent: "tester", Member: "ada", Message: strings.Repeat("x", agent.MaxChatMessageLen+1)}, apperr.Invalid},
		{agent.Request{Agent: "nope", Member: "ada", Message: "hi"}, apperr.NotFound},
		{agent.Request{Agent: "tester", Member: "zed", Message: "hi"}, apperr.NotFound},
		{agent.Request{Agent: "tester", Member: "ada", Message: "hi", Thread: *bobs.ThreadID}, apperr.NotFound},
		{agent.Request{Agent: "tester", Member: "ada", Message: "hi", Thread: 999}, apperr.NotFound},
	} {
		if _, err := f.orch.Run(ctx, tc.req); !apperr.Is(err, tc.code) {
			t.Errorf("%+v: err = %v, want %s", tc.req.Thread, err, tc.code)
		}
	}
	if msgs, _ := f.orch.Threads().Messages(ctx, *bobs.ThreadID, 0, 0); len(msgs) != 2 {
		t.Fatalf("bob's thread changed: %+v", msgs)
	}
}
