package definition

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"hearth/internal/agent"
)

// reason asks the model until the output passes the schema and the rules,
// sending each failure back with its errors, at most 1 + MaxRetries times.
func (inv *invocation) reason(ctx context.Context, cur *current, c call, idx int, req agent.Request) (any, error) {
	base := slices.Clone(req.Messages)
	tries := 1 + max(cur.MaxRetries, 0)
	var last []agent.ValidationError
	for attempt := 1; attempt <= tries; attempt++ {
		t := time.Now()
		res, err := inv.callModel(ctx, req)
		inv.timing(agent.PhaseReason, t)
		inv.updateStep(idx, func(s *Step) { s.Attempts++ })
		if err != nil {
			return nil, fmt.Errorf("definition: %s: model: %w", cur.AgentID, err)
		}
		t = time.Now()
		out, errs := cur.check(res.Output)
		inv.timing(agent.PhaseValidate, t)
		if len(errs) == 0 {
			return out, nil
		}
		inv.recordInvalid(c, errs)
		last = errs
		req.Messages = append(slices.Clone(base),
			agent.Message{Role: agent.RoleAssistant, Content: res.Output},
			agent.Message{Role: agent.RoleUser, Content: correction(errs, cur.schema != nil)})
	}
	return nil, fmt.Errorf("definition: %s: the output is still invalid after %d attempts: %s", cur.AgentID, tries, summarize(last))
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

// correction is the message that sends invalid output back to the model.
func correction(errs []agent.ValidationError, schema bool) string {
	ask := "Reply again with these problems fixed."
	if schema {
		ask = "Reply again with the corrected JSON document only, matching the schema."
	}
	return "Your previous reply failed validation.\n\n## Errors\n" + agent.FormatValidationErrors(errs) + "\n" + ask
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
