package definition

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"hearth/internal/agent"
)

// Shape is what agentID's current definition changes in one run of one of
// the engine's assignments (agent.Shaper: the coach's daily dashboard): the
// tools the model is offered (its tool_ids, wrapped with its tool hooks),
// its context types as prompt sections, its rules (with its max_retries,
// which the assignment's tuning already carries) and its sub-agents (run
// on each accepted output, the rules on their keys checked on the composed
// result; the composition is traced, the assignment writes its own
// output), and its hooks before and after the model. The trace of the
// pipeline is recorded on the run (Run.Steps). The assignment's gather,
// heuristic and act are untouched.
func (r *Invoker) Shape(ctx context.Context, x *agent.Exec, agentID string, mem *agent.Memory, p agent.Prompt) (*agent.Shape, error) {
	cur, err := r.repo.current(ctx, agentID)
	if err != nil {
		return nil, err
	}
	inv, err := r.newInvocation(ctx, Params{Member: x.Member(), Message: p.User})
	if err != nil {
		return nil, err
	}
	inv.x = x
	def := &cur.Definition
	idx := inv.addStep(Step{AgentID: def.AgentID, Version: cur.Number, User: p.User})
	record := func() {
		if raw, err := marshalJSON(inv.trace()); err == nil {
			x.SetSteps(raw)
		}
	}
	t := time.Now()
	sections, err := inv.contexts(ctx, def, mem)
	x.Timing("context", t)
	if err != nil {
		return nil, err
	}
	var sys strings.Builder
	for i, name := range def.ContextTypes {
		if s := strings.TrimSpace(sections[i]); s != "" {
			fmt.Fprintf(&sys, "\n\n## %s\n%s", sectionTitle(name), s)
		}
	}
	scope := x.Scope(def.AgentID, mem)
	specs, caller, err := inv.tools(ctx, def, scope, idx)
	if err != nil {
		return nil, err
	}
	if specs == nil {
		specs = []agent.ToolSpec{} // the definition offers no tools: none, not all
	}
	own, _ := def.splitRules()
	var composed any
	after := inv.composer(def, call{path: []string{agentID}, message: p.User}, p.User, &composed)
	// The trace is recorded from Before on: a run the heuristic answers has none.
	return &agent.Shape{
		Fingerprint: fmt.Sprintf("definition %s version %d", agentID, cur.ID),
		System:      strings.TrimSpace(sys.String()),
		Tools:       specs,
		CallTool:    caller,
		Check: func(ctx context.Context, output json.RawMessage) ([]agent.ValidationError, error) {
			defer record()
			inv.updateStep(idx, func(s *Step) { s.Attempts++ })
			var out any
			if err := json.Unmarshal(output, &out); err != nil {
				return []agent.ValidationError{{Path: "/", Message: "not valid JSON: " + err.Error()}}, nil
			}
			if errs := Evaluate(own, out); len(errs) > 0 {
				return errs, nil
			}
			return after(ctx, out)
		},
		Before: func(ctx context.Context) {
			defer record()
			inv.fire(ctx, idx, scope, def.Hooks.Before, HookEvent{Point: BeforeAgent, AgentID: def.AgentID},
				map[string]any{"member": inv.member, "message": p.User, "input": p.User, "extras": inv.extras})
		},
		After: func(ctx context.Context, output json.RawMessage) {
			defer record()
			if composed == nil {
				_ = json.Unmarshal(output, &composed)
			}
			inv.updateStep(idx, func(s *Step) { s.Output = composed })
			inv.fire(ctx, idx, scope, def.Hooks.After, HookEvent{Point: AfterAgent, AgentID: def.AgentID}, composed)
		},
	}, nil
}
