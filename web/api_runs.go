package web

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"hearth/internal/agent"
	"hearth/internal/apperr"
)

// MaxRunsLimit is the largest page of runs the API and pages return.
const MaxRunsLimit = 500

// runFilter reads agent, assignment, member, status, limit and before from
// the query; bad values, and agents, assignments and members Hearth does not
// know, are Invalid with the field named.
func (s *Server) runFilter(c echo.Context, defLimit int) (agent.RunFilter, error) {
	f := agent.RunFilter{Agent: c.QueryParam("agent"), Assignment: c.QueryParam("assignment"),
		Member: c.QueryParam("member"), Status: agent.Status(c.QueryParam("status")), Limit: defLimit}
	errs := map[string]string{}
	if f.Status != "" && !f.Status.Valid() {
		errs["status"] = "must be one of queued, running, succeeded, fell_back, failed, interrupted"
	}
	if f.Agent != "" || f.Assignment != "" {
		agents, assignments := map[string]bool{}, map[string]bool{}
		for _, a := range s.deps.Admin.Agents.Agents() {
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
	if f.Member != "" && s.deps.Admin.Household != nil {
		if _, err := s.deps.Admin.Household.Member(c.Request().Context(), f.Member); err != nil {
			errs["member"] = "is not a member of the household"
		}
	}
	if v := c.QueryParam("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > MaxRunsLimit {
			errs["limit"] = "must be a whole number between 1 and " + strconv.Itoa(MaxRunsLimit)
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

// apiRuns lists runs, newest first, filtered by the query.
func (s *Server) apiRuns(c echo.Context) error {
	f, err := s.runFilter(c, 50)
	if err != nil {
		return err
	}
	runs, err := s.deps.Admin.Agents.Runs().List(c.Request().Context(), f)
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

// apiRun returns one run with its prompt, output, tool calls and errors.
func (s *Server) apiRun(c echo.Context) error {
	id, err := runID(c)
	if err != nil {
		return err
	}
	run, err := s.deps.Admin.Agents.Runs().Get(c.Request().Context(), id)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, run)
}
