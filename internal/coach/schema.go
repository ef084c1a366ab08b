package coach

import (
	"context"
	"time"

	"hearth/internal/agent"
	"hearth/internal/health"
)

// noArgs are the arguments of a tool that takes none.
type noArgs struct{}

// dateArgs are the arguments of a tool about one day.
type dateArgs struct {
	Date *string `json:"date" desc:"The day: YYYY-MM-DD, \"today\" or \"yesterday\"; null = today." pattern:"^(today|yesterday|\\d{4}-\\d{2}-\\d{2})$"`
}

// memberTool is a tool about the run's member (typed arguments, strict
// schema; see agent.NewTool): fn gets the member and the run's time.
func memberTool[A, R any](c *core, name, description string, fn func(ctx context.Context, m health.Member, now time.Time, a A) (R, error)) agent.Tool {
	return agent.NewTool(name, description, func(ctx context.Context, scope agent.Scope, a A) (R, error) {
		m, err := c.member(ctx, scope)
		if err != nil {
			var zero R
			return zero, err
		}
		return fn(ctx, m, c.clock(scope), a)
	})
}

// scopedTool is a tool that needs the run's member id but not the member.
func scopedTool[A, R any](name, description string, fn func(ctx context.Context, scope agent.Scope, a A) (R, error)) agent.Tool {
	return agent.NewTool(name, description, func(ctx context.Context, scope agent.Scope, a A) (R, error) {
		if scope.MemberID == "" {
			var zero R
			return zero, errNoMember
		}
		return fn(ctx, scope, a)
	})
}

// orInt returns *p, or def when p is nil.
func orInt(p *int, def int) int {
	if p == nil {
		return def
	}
	return *p
}
