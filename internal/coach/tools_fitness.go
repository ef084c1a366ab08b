package coach

import (
	"context"

	"hearth/internal/agent"
	"hearth/internal/content"
	"hearth/internal/health"
)

// contentKind is a content kind filter: one of content.Kinds().
type contentKind string

// JSONSchema implements agent.Schemer: the catalog's kinds as an enum.
func (contentKind) JSONSchema() map[string]any {
	kinds := []any{}
	for _, k := range content.Kinds() {
		kinds = append(kinds, k)
	}
	return map[string]any{"type": "string", "enum": kinds}
}

// contentArgs are get_fitness_content's arguments.
type contentArgs struct {
	Kind        *contentKind `json:"kind" desc:"Only this kind; null = any."`
	Program     *string      `json:"program" desc:"Only sessions of this program id; null = any." schema:"maxLength=64"`
	Query       *string      `json:"query" desc:"Words to find in titles, programs, summaries or tags; null = none." schema:"maxLength=100"`
	MaxDuration *int         `json:"max_duration" desc:"At most this many minutes; null = any." schema:"minimum=1,maximum=600"`
	Limit       *int         `json:"limit" desc:"At most this many items (1-60); null = 30." schema:"minimum=1,maximum=60"`
}

func (t *Tools) fitnessContent() agent.Tool {
	return scopedTool("get_fitness_content",
		"Browse the workout catalog. With every filter null: a balanced menu (a few items of each kind) and the "+
			"programs with their first session. Choose content only from ids this tool or the menu returned.",
		func(ctx context.Context, scope agent.Scope, a contentArgs) (ContentView, error) {
			var kind *string
			if a.Kind != nil {
				k := string(*a.Kind)
				kind = &k
			}
			return t.c.contentView(ctx, scope, kind, a.Program, a.Query, a.MaxDuration, a.Limit)
		})
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
