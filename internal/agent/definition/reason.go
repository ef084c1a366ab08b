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

// reason asks the model through the engine's loop until the output passes
// the schema and the rules, at most 1 + MaxRetries times.
func (inv *invocation) reason(ctx context.Context, cur *current, c call, idx int, req agent.Request) (any, error) {
	src := agent.SourceModel
	if c.key != "" {
		src += " (sub-agent " + c.key + ")"
	}
	out, err := inv.x.Reason(ctx, agent.Reasoning{Request: req, Retries: max(cur.MaxRetries, 0), Source: src,
		Check: func(_ context.Context, raw string) (any, []agent.ValidationError, error) {
			inv.updateStep(idx, func(s *Step) { s.Attempts++ })
			out, errs := cur.check(raw)
			return out, errs, nil
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
func (inv *invocation) plan(ctx context.Context, cur *current, idx int, scope agent.Scope, req agent.Request, system, user string) (any, error) {
	h := inv.r.opts.heuristicFor(cur.AgentID)
	if h == nil {
		return nil, errNoModel
	}
	req.Tools, req.CallTool = nil, nil
	req.Planner = func(ctx context.Context) (string, error) { return h(ctx, scope, system, user, cur.schema != nil) }
	inv.updateStep(idx, func(s *Step) { s.Attempts++; s.Notes = append(s.Notes, HeuristicNote) })
	res, err := inv.x.Heuristic(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("definition: %s: heuristic: %w", cur.AgentID, err)
	}
	out, errs := cur.check(res.Output)
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
	if errs := Evaluate(c.ValidationRules, out); len(errs) > 0 {
		return nil, errs
	}
	return out, nil
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
