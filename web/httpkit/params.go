package httpkit

import (
	"context"
	"strconv"

	"github.com/labstack/echo/v4"

	"hearth/internal/agent"
	"hearth/internal/apperr"
	"hearth/internal/health"
)

// PositiveID reads the :id route parameter; anything but a positive
// integer is NotFound, naming what was looked for ("no run \"x\"").
func PositiveID(c echo.Context, what string) (int64, error) {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil || id < 1 {
		return 0, apperr.NotFoundf("no %s %q", what, c.Param("id"))
	}
	return id, nil
}

// FormValues keeps the named fields of the submitted form as typed, for
// showing the form again.
func FormValues(c echo.Context, names ...string) map[string]string {
	out := map[string]string{}
	for _, n := range names {
		out[n] = c.FormValue(n)
	}
	return out
}

// MaxRunsLimit is the largest page of runs a run listing returns.
const MaxRunsLimit = 500

// Members finds a member of the household (for checking a filter's member).
type Members interface {
	Member(ctx context.Context, id string) (health.Member, error)
}

// RunFilter reads agent, assignment, member, status, limit and before from
// c's query (the runs page and the runs API); bad values, and agents,
// assignments and members Hearth does not know, are Invalid with the field
// named. members may be nil (a member is then not checked).
func RunFilter(c echo.Context, defLimit int, known []agent.AgentInfo, members Members) (agent.RunFilter, error) {
	ctx, q := c.Request().Context(), c.QueryParams()
	f := agent.RunFilter{Agent: q.Get("agent"), Assignment: q.Get("assignment"),
		Member: q.Get("member"), Status: agent.Status(q.Get("status")), Limit: defLimit}
	errs := map[string]string{}
	if f.Status != "" && !f.Status.Valid() {
		errs["status"] = "must be one of queued, running, succeeded, fell_back, failed, interrupted"
	}
	if f.Agent != "" || f.Assignment != "" {
		agents, assignments := map[string]bool{}, map[string]bool{}
		for _, a := range known {
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
	if f.Member != "" && members != nil {
		if _, err := members.Member(ctx, f.Member); err != nil {
			errs["member"] = "is not a member of the household"
		}
	}
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > MaxRunsLimit {
			errs["limit"] = "must be a whole number between 1 and " + strconv.Itoa(MaxRunsLimit)
		}
		f.Limit = n
	}
	if v := q.Get("before"); v != "" {
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
