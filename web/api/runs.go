package api

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"hearth/internal/agent"
	"hearth/web/httpkit"
)

// runs are the agent runs API.
type runs struct {
	agents  Agents
	members MemberLookup // nil: a member filter is not checked
}

// filter reads the runs filter from the query (httpkit.RunFilter).
func (h runs) filter(c echo.Context, defLimit int) (agent.RunFilter, error) {
	return httpkit.RunFilter(c, defLimit, h.agents.Agents(), h.members) // a nil interface stays nil
}

// list lists runs, newest first, filtered by the query.
func (h runs) list(c echo.Context) error {
	f, err := h.filter(c, 50)
	if err != nil {
		return err
	}
	runs, err := h.agents.Runs().List(c.Request().Context(), f)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"runs": runs})
}

// get returns one run with its prompt, output, tool calls and errors.
func (h runs) get(c echo.Context) error {
	id, err := httpkit.PositiveID(c, "run")
	if err != nil {
		return err
	}
	run, err := h.agents.Runs().Get(c.Request().Context(), id)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, run)
}
