package llm_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"hearth/internal/agent"
	"hearth/internal/agent/llm/llmtest"
)

// A streamed reply hands its text over piece by piece as the server sends
// it (not at the end), runs the tool calls of a tool turn (not passed on
// as text), and ends with the same result as an unstreamed one.
func TestStreamedReplyArrivesInPieces(t *testing.T) {
	srv := llmtest.New(t,
		llmtest.Reply{ToolCalls: []llmtest.Call{{Name: "lookup", Arguments: `{"q":"trend"}`}}, PromptTokens: 5, CompletionTokens: 2},
		llmtest.Reply{Content: "Your weight is down 0.6 kg this week.", Chunks: []string{"Your weight ", "is down ", "0.6 kg ", "this week."},
			ChunkDelay: 80 * time.Millisecond, PromptTokens: 30, CompletionTokens: 9},
	)
	start := time.Now()
	var pieces []string
	var at []time.Duration
	var calls []string
	res, err := newClient(t, srv, nil).Execute(context.Background(), agent.ModelRequest{
		Messages: []agent.Message{{Role: agent.RoleUser, Content: "how is my weight going?"}},
		Tools:    []agent.ToolSpec{lookupSpec},
		CallTool: func(_ context.Context, name string, args json.RawMessage) (any, error) {
			calls = append(calls, name+" "+string(args))
			return map[string]string{"trend": "-0.6 kg"}, nil
		},
		OnDelta: func(s string) { pieces = append(pieces, s); at = append(at, time.Since(start)) },
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Output != "Your weight is down 0.6 kg this week." || strings.Join(pieces, "") != res.Output || len(pieces) != 4 {
		t.Fatalf("output %q, pieces %q", res.Output, pieces)
	}
	if at[3]-at[0] < 150*time.Millisecond {
		t.Errorf("the pieces arrived together (%v): not streamed", at)
	}
	if len(calls) != 1 || calls[0] != `lookup {"q":"trend"}` || len(res.ToolCalls) != 1 {
		t.Errorf("tool calls %v / %+v", calls, res.ToolCalls)
	}
	if res.Usage.InputTokens != 35 || res.Usage.OutputTokens != 11 {
		t.Errorf("usage %+v, want the two turns' usage chunks summed", res.Usage)
	}
	reqs := srv.ChatRequests()
	if len(reqs) != 2 || reqs[0].Get("stream") != true {
		t.Fatalf("requests %d, stream %v", len(reqs), reqs[0].Get("stream"))
	}
	// The tool turn went back to the model as the assistant's tool call and
	// the tool's result, in the wire format.
	ms := reqs[1].Messages()
	if len(ms) != 3 || len(ms[1].ToolCalls) != 1 || ms[1].ToolCalls[0].Arguments != `{"q":"trend"}` ||
		ms[2].Role != "tool" || ms[2].ToolCallID != ms[1].ToolCalls[0].ID {
		t.Errorf("second request messages %+v", ms)
	}
}
