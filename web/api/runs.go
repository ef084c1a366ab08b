package api

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"hearth/internal/agent"
	"hearth/internal/apperr"
)

// maxRunsLimit is the largest page of runs (agent or workflow) the API returns.
const maxRunsLimit = 500

// runs are the agent runs API.
type runs struct {
	agents  Agents
	members MemberLookup // nil: a member filter is not checked
}

// filter reads agent, assignment, member, status, limit and before from
// the query; bad values, and agents, assignments and members Hearth does not
// know, are Invalid with the field named.
func (h runs) filter(c echo.Context, defLimit int) (agent.RunFilter, error) {
	f := agent.RunFilter{Agent: c.QueryParam("agent"), Assignment: c.QueryParam("assignment"),
		Member: c.QueryParam("member"), Status: agent.Status(c.QueryParam("status")), Limit: defLimit}
	errs := map[string]string{}
	if f.Status != "" && !f.Status.Valid() {
		errs["status"] = "must be one of queued, running, succeeded, fell_back, failed, interrupted"
	}
	if f.Agent != "" || f.Assignment != "" {
		agents, assignments := map[string]bool{}, map[string]bool{}
		for _, a := range h.agents.Agents() {
			agents[a.ID] = true
			for _, as := range a.Assignments {
				assignments[as.ID] = true
			}
		}
		if f.Agent != "" && !agents[f.Agent] {
			errs["agent"] = "is not an agent Hearth knows"
		}
		if f.Assignment != "" && !assignments[f.Assignment] {
			errs["assignment"] = "is not an assignment Hearth knows"
		}
	}
	if f.Member != "" && h.members != nil {
		if _, err := h.members.Member(c.Request().Context(), f.Member); err != nil {
			errs["member"] = "is not a member of the household"
		}
	}
	if v := c.QueryParam("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > maxRunsLimit {
			errs["limit"] = "must be a whole number between 1 and " + strconv.Itoa(maxRunsLimit)
		}
		f.Limit = n
	}
	if v := c.QueryParam("before"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 1 {
			errs["before"] = "must be a run id"
		}
		f.BeforeID = n
	}
	if len(errs) > 0 {
		return f, apperr.FieldErrors(errs)
	}
	return f, nil
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

// runID reads the :id parameter; anything but a positive integer is NotFound.
func runID(c echo.Context) (int64, error) {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil || id < 1 {
		return 0, apperr.NotFoundf("run %q not found", c.Param("id"))
	}
	return id, nil
}

// get returns one run with its prompt, output, tool calls and errors.
func (h runs) get(c echo.Context) error {
	id, err := runID(c)
	if err != nil {
		return err
	}
	run, err := h.agents.Runs().Get(c.Request().Context(), id)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, run)
}
