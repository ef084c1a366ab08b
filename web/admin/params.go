package admin

import (
	"github.com/labstack/echo/v4"

	"hearth/internal/agent"
	"hearth/web/httpkit"
)

// runFilter reads the runs page's filter from the query (httpkit.RunFilter).
func (s *runPages) runFilter(c echo.Context, defLimit int) (agent.RunFilter, error) {
	return httpkit.RunFilter(c, defLimit, s.agents.Agents(), s.household) // a nil interface stays nil
}
