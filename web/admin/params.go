package admin

import (
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"hearth/internal/agent"
	"hearth/internal/apperr"
)

// maxRunsLimit is the largest page of runs the runs page lists (as the API).
const maxRunsLimit = 500

// runID reads the :id parameter; anything but a positive integer is NotFound.
func runID(c echo.Context) (int64, error) {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil || id < 1 {
		return 0, apperr.NotFoundf("run %q not found", c.Param("id"))
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

// checkAssignment is NotFound unless the agent has the assignment.
func (s *runPages) checkAssignment(agentID, assignmentID string) error {
	info, err := s.agents.Agent(agentID)
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

// runFilter reads agent, assignment, member, status, limit and before from
// the query; bad values, and agents, assignments and members Hearth does not
// know, are Invalid with the field named.
func (s *runPages) runFilter(c echo.Context, defLimit int) (agent.RunFilter, error) {
	f := agent.RunFilter{Agent: c.QueryParam("agent"), Assignment: c.QueryParam("assignment"),
		Member: c.QueryParam("member"), Status: agent.Status(c.QueryParam("status")), Limit: defLimit}
	errs := map[string]string{}
	if f.Status != "" && !f.Status.Valid() {
		errs["status"] = "must be one of queued, running, succeeded, fell_back, failed, interrupted"
	}
	if f.Agent != "" || f.Assignment != "" {
		agents, assignments := map[string]bool{}, map[string]bool{}
		for _, a := range s.agents.Agents() {
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
	if f.Member != "" && s.household != nil {
		if _, err := s.household.Member(c.Request().Context(), f.Member); err != nil {
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

// chatTurn is a chat turn's answer text and error as far as it has got.
func chatTurn(cs *agent.ChatStream) (text, errText string) {
	evs, _, _ := cs.Next(0)
	var b strings.Builder
	for _, ev := range evs {
		switch ev.Type {
		case agent.ChatDelta:
			b.WriteString(ev.Text)
		case agent.ChatReset:
			b.Reset()
		case agent.ChatMessage:
			if ev.Message != nil {
				b.Reset()
				b.WriteString(ev.Message.Content)
			}
		case agent.ChatError:
			errText = ev.Text
		}
	}
	return strings.TrimSpace(b.String()), errText
}

// workflowRunID reads the :id parameter; anything but a positive integer
// is NotFound.
func workflowRunID(c echo.Context) (int64, error) {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil || id < 1 {
		return 0, apperr.NotFoundf("workflow run %q not found", c.Param("id"))
	}
	return id, nil
}
