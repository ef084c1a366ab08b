package coach

import (
	"context"
	"encoding/json"
	"strings"

	"hearth/internal/agent"
	"hearth/internal/content"
	"hearth/internal/health"
)

func (t *Tools) fitnessContent() agent.Tool {
	return agent.Tool{
		Name: "get_fitness_content",
		Description: "Browse the workout catalog. With every filter null: a balanced menu (a few items of each kind) and the " +
			"programs with their first session. Choose content only from ids this tool or the menu returned.",
		Parameters: object(map[string]any{
			"kind":         nullable("string", "Only this kind; null = any.", map[string]any{"enum": append(anySlice(content.Kinds()), nil)}),
			"program":      nullable("string", "Only sessions of this program id; null = any.", map[string]any{"maxLength": 64}),
			"query":        nullable("string", "Words to find in titles, programs, summaries or tags; null = none.", map[string]any{"maxLength": 100}),
			"max_duration": nullable("integer", "At most this many minutes; null = any.", map[string]any{"minimum": 1, "maximum": 600}),
			"limit":        nullable("integer", "At most this many items (1-60); null = 30.", map[string]any{"minimum": 1, "maximum": 60}),
		}),
		Execute: func(ctx context.Context, scope agent.Scope, args json.RawMessage) (any, error) {
			var a struct {
				Kind, Program, Query *string
				MaxDuration          *int `json:"max_duration"`
				Limit                *int
			}
			if err := decodeArgs(args, &a); err != nil {
				return nil, err
			}
			if scope.MemberID == "" {
				return nil, errNoMember
			}
			return t.c.contentView(ctx, scope, a.Kind, a.Program, a.Query, a.MaxDuration, a.Limit)
		},
	}
}

func anySlice(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return strings.TrimSpace(*s)
}

func (c *core) contentView(ctx context.Context, scope agent.Scope, kind, prog, query *string, maxDur, limit *int) (ContentView, error) {
	programs, err := c.programBriefs(ctx)
	if err != nil {
		return ContentView{}, err
	}
	v := ContentView{Programs: programs}
	if kind == nil && prog == nil && query == nil && maxDur == nil {
		seed := int(health.LocalDay(c.clock(scope), c.loc).Unix()/86400) + salt(scope.MemberID)
		v.Items, v.Truncated, err = c.balancedMenu(ctx, seed)
		if limit != nil && len(v.Items) > *limit {
			v.Items, v.Truncated = v.Items[:*limit], true
		}
		return v, err
	}
	n := orInt(limit, 30)
	items, err := c.cat.List(ctx, content.Filter{Kind: deref(kind), Program: deref(prog), Query: deref(query),
		MaxDuration: orInt(maxDur, 0), Limit: n + 1})
	if err != nil {
		return v, err
	}
	if len(items) > n {
		items, v.Truncated = items[:n], true
	}
	v.Items = content.MenuOf(items)
	return v, nil
}
