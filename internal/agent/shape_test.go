package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"hearth/internal/agent"
	"hearth/internal/agent/llm/llmtest"
)

// shapedAssignment is the test assignment with an editable definition's
// shape (agent.Shaper).
type shapedAssignment struct {
	*testAssignment
	shape func(x *agent.Exec) (*agent.Shape, error)
}

func (a *shapedAssignment) Shape(_ context.Context, x *agent.Exec, _ *agent.Memory, _ agent.Prompt) (*agent.Shape, error) {
	return a.shape(x)
}

// TestShapeDrivesTheModelPath: a shape's tools replace the agent's, its
// check sends a reply back like a domain rule, its hooks fire around the
// model; a shape that cannot be built sends the run to the heuristic with
// the reason, rather than failing the member's run.
func TestShapeDrivesTheModelPath(t *testing.T) {
	f := newFixture(t, fixtureOpts{model: true})
	var fired []string
	asg := &shapedAssignment{testAssignment: &testAssignment{log: f.log}}
	asg.shape = func(*agent.Exec) (*agent.Shape, error) {
		return &agent.Shape{Fingerprint: "v1", System: "## Extra\nsection", Tools: []agent.ToolSpec{},
			Check: func(_ context.Context, out json.RawMessage) ([]agent.ValidationError, error) {
				if strings.Contains(string(out), `"score":1`) {
					return []agent.ValidationError{{Path: "/score", Message: "score must not be 1"}}, nil
				}
				return nil, nil
			},
			Before: func(context.Context) { fired = append(fired, "before") },
			After:  func(_ context.Context, out json.RawMessage) { fired = append(fired, "after "+string(out)) },
		}, nil
	}
	if err := f.orch.Register(agent.Agent{ID: "shaped", Description: "Shaped", SystemPrompt: "Shaped agent.",
		Tools: []agent.ToolFactory{whoamiTool(&f.seen, &f.mu)}, Assignments: []agent.Assignment{asg}}); err != nil {
		t.Fatal(err)
	}
	f.srv.Push(llmtest.JSON(map[string]any{"title": "a", "score": 1}, 5, 5), llmtest.JSON(map[string]any{"title": "b", "score": 2}, 5, 5))
	run := func() agent.Run {
		t.Helper()
		r, err := f.orch.Run(context.Background(), agent.Request{Agent: "shaped", Assignment: "daily", Member: "ada"})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	r := run()
	reqs := f.srv.ChatRequests()
	if r.Status != agent.StatusSucceeded || len(reqs) != 2 {
		t.Fatalf("run %s (%s), %d requests", r.Status, r.FallbackReason, len(reqs))
	}
	if _, hasTools := reqs[0].Body["tools"]; hasTools || !strings.Contains(r.Prompt.System, "## Extra\nsection") {
		t.Fatalf("the shape's empty tool list and section were not used: tools %v", reqs[0].Body["tools"])
	}
	if !strings.Contains(reqs[1].LastMessage().Content, "score must not be 1") {
		t.Fatalf("the shape's check did not go back to the model: %q", reqs[1].LastMessage().Content)
	}
	if len(fired) != 2 || fired[0] != "before" || !strings.Contains(fired[1], `"title":"b"`) {
		t.Fatalf("hooks fired %v", fired)
	}

	asg.shape = func(*agent.Exec) (*agent.Shape, error) { return nil, errors.New(`unknown tool "gone"`) }
	r = run()
	if r.Status != agent.StatusFellBack || !strings.Contains(r.FallbackReason, `definition_error: unknown tool "gone"`) {
		t.Fatalf("broken shape: run %s (%q)", r.Status, r.FallbackReason)
	}
}
