package web

// What the admin pages and the kiosk still share with the JSON APIs, which
// moved to web/api: the same run filter, id parsing and agent lookups. These
// go with the admin (and entryID with the kiosk) when those move out.

import (
	"context"
	"fmt"
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

// runID reads the :id parameter; anything but a positive integer is NotFound.
func runID(c echo.Context) (int64, error) {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil || id < 1 {
		return 0, apperr.NotFoundf("run %q not found", c.Param("id"))
	}
	return id, nil
}

// adminMadeAgents describes the agents that exist only as a definition
// (with a current version).
func (s *Server) adminMadeAgents(ctx context.Context) ([]agent.AgentInfo, error) {
	defs := s.deps.Admin.Definitions
	if defs == nil {
		return nil, nil
	}
	list, err := defs.List(ctx)
	if err != nil {
		return nil, err
	}
	var out []agent.AgentInfo
	for _, sum := range list {
		if _, err := s.deps.Admin.Agents.Agent(sum.AgentID); err == nil || sum.Version == 0 {
			continue // a code agent's definition, or every version rolled back
		}
		v, err := defs.Active(ctx, sum.AgentID)
		if err != nil {
			return nil, err
		}
		out = append(out, agent.AgentInfo{ID: sum.AgentID, Description: fmt.Sprintf("Made in admin (definition v%d)", v.Number),
			Assignments: []agent.AssignmentInfo{}, Tools: v.ToolIDs, Model: v.Model})
	}
	return out, nil
}

// adminMade reports whether id is an agent made in admin (not registered,
// with a current definition).
func (s *Server) adminMade(ctx context.Context, id string) bool {
	if _, err := s.deps.Admin.Agents.Agent(id); err == nil || s.deps.Admin.Definitions == nil {
		return false
	}
	_, err := s.deps.Admin.Definitions.Active(ctx, id)
	return err == nil
}

// checkAssignment is NotFound unless the agent has the assignment.
func (s *Server) checkAssignment(agentID, assignmentID string) error {
	info, err := s.deps.Admin.Agents.Agent(agentID)
	if err != nil {
		return err
	}
	for _, a := range info.Assignments {
		if a.ID == assignmentID {
			return nil
		}
	}
	return apperr.NotFoundf("agent %q has no assignment %q", agentID, assignmentID)
}

// chatPartner is NotFound unless id is an agent one can talk to: one
// registered in code or one made in admin.
func (s *Server) chatPartner(ctx context.Context, id string) error {
	_, err := s.deps.Admin.Agents.Agent(id)
	if err != nil && s.adminMade(ctx, id) {
		return nil
	}
	return err
}

// memberExists is NotFound unless member is one of the household.
func (s *Server) memberExists(ctx context.Context, member string) error {
	var err error
	switch {
	case s.deps.Admin.Household != nil:
		_, err = s.deps.Admin.Household.Member(ctx, member)
	case s.deps.Household != nil:
		_, err = s.deps.Household.Member(ctx, member)
	}
	return err
}

// workflowRunID reads :id; anything but a positive integer is NotFound.
func workflowRunID(c echo.Context) (int64, error) {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil || id < 1 {
		return 0, apperr.NotFoundf("workflow run %q not found", c.Param("id"))
	}
	return id, nil
}

// taskID reads the :id parameter; anything but a positive integer is NotFound.
func taskID(c echo.Context) (int64, error) {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil || id < 1 {
		return 0, apperr.NotFoundf("no scheduled task %q", c.Param("id"))
	}
	return id, nil
}

func entryID(c echo.Context) (int64, error) {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil || id < 1 {
		return 0, apperr.NotFoundf("no entry %q", c.Param("id"))
	}
	return id, nil
}
