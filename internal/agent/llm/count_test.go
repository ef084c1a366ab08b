package llm_test

import (
	"context"
	"encoding/json"
	"testing"

	"hearth/internal/agent"
	"hearth/internal/agent/llm/llmtest"
	"hearth/internal/agent/llm/tokens"
)

// Every request sent is counted by part with the offline tokenizer: the
// memory is taken out of the message that carries it, the tool round's
// second request counts the tool turns as history, and the server's own
// usage stays what it said.
func TestPromptsAreCountedByPart(t *testing.T) {
	srv := llmtest.New(t,
		llmtest.Tool("lookup", map[string]string{"q": "weight"}),
		llmtest.JSON(map[string]string{"answer": "ok"}, 1234, 5),
	)
	mem := "### Persistent\n- **goal**: \"run a 10k in spring\""
	facts := "## Facts\nWeight: 80.2 kg, down 0.4 kg this week.\n\n## Working memory\n" + mem
	schema := map[string]any{"type": "object", "properties": map[string]any{"answer": map[string]any{"type": "string"}},
		"required": []string{"answer"}, "additionalProperties": false}
	call := func(context.Context, string, json.RawMessage) (any, error) {
		return map[string]float64{"kg": 80.2}, nil
	}
	res, err := newClient(t, srv, nil).Execute(context.Background(), agent.ModelRequest{
		System: "You are a coach. Be brief.",
		Messages: []agent.Message{
			{Role: agent.RoleUser, Content: facts, Pinned: true},
			{Role: agent.RoleAssistant, Content: "Earlier answer."},
		},
		Tools: []agent.ToolSpec{lookupSpec}, CallTool: call,
		Output: &agent.OutputSchema{Name: "answer", Schema: schema},
		Memory: mem,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Prompts) != 2 {
		t.Fatalf("counted %d prompts, want one per request (2): %+v", len(res.Prompts), res.Prompts)
	}
	first, second := res.Prompts[0], res.Prompts[1]
	if first.System != tokens.Count("You are a coach. Be brief.") {
		t.Errorf("system = %d, want %d", first.System, tokens.Count("You are a coach. Be brief."))
	}
	if first.Memory != tokens.Count(mem) || first.Facts != tokens.Count(facts)-tokens.Count(mem) {
		t.Errorf("memory %d, facts %d: want the memory (%d) taken out of the facts (%d)", first.Memory, first.Facts,
			tokens.Count(mem), tokens.Count(facts))
	}
	if first.ToolCount != 1 || first.Tools == 0 || first.Schema == 0 {
		t.Errorf("tools %d (%d tokens), schema %d: want the tool and the schema counted", first.ToolCount, first.Tools, first.Schema)
	}
	if first.History != tokens.Count("Earlier answer.") {
		t.Errorf("history = %d, want the unpinned turn only (%d)", first.History, tokens.Count("Earlier answer."))
	}
	if second.History <= first.History || second.Facts != first.Facts || second.Tools != first.Tools {
		t.Errorf("second request %+v: want the tool turns added to history, the rest as before (%+v)", second, first)
	}
	if res.Usage.InputTokens < 1234 {
		t.Errorf("usage input = %d, want the server's own count kept", res.Usage.InputTokens)
	}
}
