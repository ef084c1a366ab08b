package definition

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"hearth/internal/agent"
)

// compose runs an accepted output's sub-agents and checks the rules on
// their keys against the composed result: validation errors go back to the
// model like the schema's; an error is a sub-agent that could not run.
type compose func(ctx context.Context, output any) ([]agent.ValidationError, error)

// reason asks the model through the engine's loop until the output passes
// the schema, the rules and (after composing its sub-agents' results) the
// rules on their keys, at most 1 + MaxRetries times.
func (inv *invocation) reason(ctx context.Context, cur *current, c call, idx int, req agent.ModelRequest, after compose) (any, error) {
	src := agent.SourceModel
	if c.key != "" {
		src += " (sub-agent " + c.key + ")"
	}
	out, err := inv.x.Reason(ctx, agent.Reasoning{ModelRequest: req, Retries: max(cur.MaxRetries, 0), Source: src,
		Check: func(ctx context.Context, raw string) (any, []agent.ValidationError, error) {
			inv.updateStep(idx, func(s *Step) { s.Attempts++ })
			out, errs := cur.check(raw)
			if len(errs) > 0 || after == nil {
				return out, errs, nil
			}
			if errs, err := after(ctx, out); err != nil || len(errs) > 0 {
				return nil, errs, err
			}
			return out, nil, nil
		}})
	var invalid *agent.InvalidOutputError
	switch {
	case err == nil:
		return out, nil
	case errors.As(err, &invalid):
		return nil, fmt.Errorf("definition: %s: the output is still invalid after %d attempts: %s", cur.AgentID, invalid.Attempts, summarize(invalid.Last))
	}
	inv.updateStep(idx, func(s *Step) { s.Attempts++ })
	return nil, fmt.Errorf("definition: %s: model: %w", cur.AgentID, err)
}

// plan answers a step with its agent's heuristic (no model configured),
// checked like a model's reply: schema and rules.
func (inv *invocation) plan(ctx context.Context, cur *current, idx int, scope agent.Scope, req agent.ModelRequest, system, user string, after compose) (any, error) {
	h := inv.r.opts.heuristicFor(cur.AgentID)
	th := inv.r.opts.ToolHeuristics[cur.AgentID]
	if h == nil && th == nil {
		return nil, errNoModel
	}
	call := req.CallTool
	req.Tools, req.CallTool = nil, nil
	req.Planner = func(ctx context.Context) (string, error) { return h(ctx, scope, system, user, cur.schema != nil) }
	if th != nil {
		booked := func(ctx context.Context, name string, args json.RawMessage) (any, error) {
			if call == nil {
				return nil, fmt.Errorf("tool %q is not available to this agent", name)
			}
			v, err := call(ctx, name, args)
			inv.x.BookToolCall(name, args, v, err)
			return v, err
		}
		req.Planner = func(ctx context.Context) (string, error) { return th(ctx, booked, user) }
	}
	inv.updateStep(idx, func(s *Step) { s.Attempts++; s.Notes = append(s.Notes, HeuristicNote) })
	res, err := inv.x.Heuristic(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("definition: %s: heuristic: %w", cur.AgentID, err)
	}
	out, errs := cur.check(res.Output)
	if len(errs) == 0 && after != nil {
		if errs, err = after(ctx, out); err != nil {
			return nil, err
		}
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("definition: %s: the heuristic's output is invalid: %s", cur.AgentID, summarize(errs))
	}
	return out, nil
}

// check validates a reply: the schema (when there is one) and then the
// rules, on the decoded document or the reply text.
func (c *current) check(raw string) (any, []agent.ValidationError) {
	var out any
	if c.schema != nil {
		doc := extractJSON(raw)
		if errs := c.schema.Validate([]byte(doc)); len(errs) > 0 {
			return nil, errs
		}
		if err := json.Unmarshal([]byte(doc), &out); err != nil {
			return nil, []agent.ValidationError{{Path: "/", Message: "not valid JSON: " + err.Error()}}
		}
	} else {
		s := strings.TrimSpace(raw)
		if s == "" {
			return nil, []agent.ValidationError{{Path: "/", Message: "the reply is empty"}}
		}
		out = s
	}
	own, _ := c.splitRules()
	if errs := Evaluate(own, out); len(errs) > 0 {
		return nil, errs
	}
	return out, nil
}

// splitRules separates the rules on the agent's own output from those on a
// sub-agent's key (the first segment of their path), which can only be
// checked once the sub-agents' results are composed.
func (d *Definition) splitRules() (own, composed []Rule) {
	for _, r := range d.ValidationRules {
		first, _, _ := strings.Cut(r.Path, ".")
		if first != "" && slices.ContainsFunc(d.SubAgents, func(s SubAgent) bool { return s.Key == first }) {
			composed = append(composed, r)
		} else {
			own = append(own, r)
		}
	}
	return own, composed
}

// composer is the compose step of def's agent in call c: its sub-agents,
// then the rules on their keys; *composed gets the accepted composition.
func (inv *invocation) composer(def *Definition, c call, self any, composed *any) compose {
	_, rules := def.splitRules()
	return func(ctx context.Context, out any) ([]agent.ValidationError, error) {
		comp, err := inv.subAgents(ctx, def, c, out, self)
		if err != nil {
			return nil, err
		}
		if errs := Evaluate(rules, comp); len(errs) > 0 {
			return errs, nil
		}
		*composed = comp
		return nil, nil
	}
}

// The agent framework's helpers, under the names this package uses.
var (
	extractJSON = agent.ExtractJSON
	summarize   = agent.SummarizeErrors
)

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9_-]`)

// schemaName makes an OpenAI response-format name from an agent id.
func schemaName(agentID string) string {
	s := unsafeName.ReplaceAllString(agentID, "_")
	if len(s) > 64 {
		s = s[:64]
	}
	return s
}

// strictCompatible reports whether a schema can be sent in strict mode:
// every object lists all its properties as required and forbids others.
func strictCompatible(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		props, ok := x["properties"].(map[string]any)
		if !ok && x["type"] == "object" {
			return false
		}
		if ok {
			if ap, ok := x["additionalProperties"].(bool); !ok || ap {
				return false
			}
			req, _ := x["required"].([]any)
			for k := range props {
				if !slices.Contains(req, any(k)) {
					return false
				}
			}
		}
		for _, e := range x {
			if !strictCompatible(e) {
				return false
			}
		}
	case []any:
		for _, e := range x {
			if !strictCompatible(e) {
				return false
			}
		}
	}
	return true
}
