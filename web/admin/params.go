package admin

import (
	"context"

	"github.com/labstack/echo/v4"

	"hearth/internal/agent"
	"hearth/internal/health"
	"hearth/web/httpkit"
)

// runFilter reads the runs page's filter from the query (httpkit.RunFilter).
func (s *runPages) runFilter(c echo.Context, defLimit int) (agent.RunFilter, error) {
	var member func(context.Context, string) (health.Member, error)
	if s.household != nil {
		member = s.household.Member
	}
	return httpkit.RunFilter(c.Request().Context(), c.QueryParams(), defLimit, s.agents.Agents(), member)
}
