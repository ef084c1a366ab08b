package definition

import (
	"context"
	"strings"
	"testing"

	"hearth/internal/agent"
)

// TestRulesOnSubAgentKeysCheckTheComposedResult: a rule on a sub-agent's
// key is checked once the sub-agents ran; its failure goes back to the
// parent's model like any rule (a retry that runs the sub-agents again).
// Before, rules ran before the sub-agents and such a rule could never pass.
func TestRulesOnSubAgentKeysCheckTheComposedResult(t *testing.T) {
	f := newFixture(t)
	obj := map[string]any{"type": "object"}
	sum := def("summer", "agent:summer")
	sum.OutputSchema = obj
	f.save(sum)
	p := def("planner", "agent:planner")
	p.OutputSchema = obj
	p.MaxRetries = 1
	p.SubAgents = []SubAgent{{Key: "check", AgentID: "summer", Input: "$result.days"}}
	p.ValidationRules = []Rule{
		{Path: "days", Op: OpNonEmpty, Message: "give the days"},
		{Path: "check.ok", Op: OpTruthy, Message: "the check must pass: plan fewer days"},
	}
	f.save(p)
	m := newFakeModel()
	replies := []string{`{"days": "7"}`, `{"days": "3"}`}
	m.on("planner", func(_ context.Context, req agent.ModelRequest) (string, error) {
		n := len(m.requests("planner")) - 1
		return replies[min(n, len(replies)-1)], nil
	})
	m.on("summer", func(_ context.Context, req agent.ModelRequest) (string, error) {
		if req.Messages[0].Content == "3" {
			return `{"ok": true}`, nil
		}
		return `{"ok": false}`, nil
	})
	res, err := f.runner(m).Invoke(context.Background(), "planner", Params{Member: "ada", Message: "plan"})
	if err != nil {
		t.Fatal(err)
	}
	c := res.Composed.(map[string]any)
	if c["days"] != "3" || c["check"].(map[string]any)["ok"] != true {
		t.Fatalf("composed = %v", c)
	}
	reqs := m.requests("planner")
	if len(reqs) != 2 || !strings.Contains(reqs[1].Messages[len(reqs[1].Messages)-1].Content, "plan fewer days") {
		t.Fatalf("planner asked %d times; the retry did not carry the composed rule's message", len(reqs))
	}
	if n := len(m.requests("summer")); n != 2 {
		t.Fatalf("the sub-agent ran %d times, want once per parent attempt", n)
	}
}
