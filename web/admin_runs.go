package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"hearth/internal/agent"
	"hearth/internal/apperr"
	"hearth/internal/health"
	"hearth/internal/live"
	"hearth/views"
	"hearth/web/httpkit"
)

// latestRuns is how many runs the assignments page shows live.
const latestRuns = 8

// members lists the household for the admin selects.
func (s *Server) members(ctx context.Context) ([]health.Member, error) {
	if s.deps.Admin.Household != nil {
		return s.deps.Admin.Household.Members(ctx)
	}
	if s.deps.Household != nil {
		return s.deps.Household.Members(ctx)
	}
	return nil, nil
}

func (s *Server) memberOptions(ctx context.Context) ([]views.Option, error) {
	ms, err := s.members(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]views.Option, len(ms))
	for i, m := range ms {
		out[i] = views.Option{Value: m.ID, Label: m.Name + " (" + m.ID + ")"}
	}
	return out, nil
}

func (s *Server) agentViews() []views.AdminAgent {
	var out []views.AdminAgent
	for _, a := range s.deps.Admin.Agents.Agents() {
		av := views.AdminAgent{ID: a.ID, Description: a.Description}
		for _, as := range a.Assignments {
			av.Assignments = append(av.Assignments, views.AdminAssignment{Agent: a.ID, ID: as.ID, Description: as.Description, Schedule: as.Schedule})
		}
		out = append(out, av)
	}
	return out
}

func (s *Server) budgetLine(ctx context.Context) (string, error) {
	b, err := s.deps.Admin.Agents.BudgetStatus(ctx)
	if err != nil {
		return "", err
	}
	line := fmt.Sprintf("Model use today: %d tokens, %s.", b.Tokens, fmtCost(b.USD))
	if b.Budget.Unlimited() {
		return line + " No daily budget is set.", nil
	}
	line += fmt.Sprintf(" Daily budget: %d tokens, %s.", b.Budget.Tokens, fmtCost(b.Budget.USD))
	if b.Exhausted {
		line += " Spent: runs use the heuristic planner until tomorrow."
	}
	return line, nil
}

func (s *Server) latestRunViews(ctx context.Context) ([]views.RunView, error) {
	runs, err := s.deps.Admin.Agents.Runs().List(ctx, agent.RunFilter{Limit: latestRuns})
	if err != nil {
		return nil, err
	}
	return s.runViews(runs), nil
}

// adminAssignments is the admin home: assignments with run-now forms and
// the latest runs' live progress.
func (s *Server) adminAssignments(c echo.Context) error {
	ctx := c.Request().Context()
	p := views.AdminAssignments{AdminPage: s.adminPage(c, "Assignments", "assignments"), Agents: s.agentViews()}
	p.Stream = "/admin/live/assignments"
	var err error
	if p.Members, err = s.memberOptions(ctx); err != nil {
		return err
	}
	if p.Runs, err = s.latestRunViews(ctx); err != nil {
		return err
	}
	if p.Budget, err = s.budgetLine(ctx); err != nil {
		return err
	}
	return httpkit.Render(c, http.StatusOK, views.AdminAssignmentsPage(p))
}

// adminRunNow starts an assignment for one member or all (member "all").
// A Datastar request gets a flash (the page's live stream shows progress);
// a plain form goes to the run page (one member) or back home (all).
func (s *Server) adminRunNow(c echo.Context) error {
	agentID, asID := c.Param("agent"), c.Param("assignment")
	if err := s.checkAssignment(agentID, asID); err != nil {
		return err
	}
	ctx := c.Request().Context()
	member := strings.TrimSpace(c.FormValue("member"))
	if member == "" {
		return apperr.FieldErrors(map[string]string{"member": `choose a member or "all"`})
	}
	var runs []agent.Run
	if member == "all" {
		var err error
		if runs, err = s.deps.Admin.Agents.StartAssignmentForAll(ctx, agentID, asID, agent.TriggerManual); err != nil {
			return err
		}
	} else {
		r, err := s.deps.Admin.Agents.StartAssignment(ctx, agent.AssignmentRequest{Agent: agentID, Assignment: asID,
			Member: member, Trigger: agent.TriggerManual})
		if err != nil {
			return err
		}
		runs = []agent.Run{r}
	}
	var msg string
	switch len(runs) {
	case 0:
		msg = "The household has no members to run " + asID + " for."
	case 1:
		msg = fmt.Sprintf("Run #%d of %s for %s is %s.", runs[0].ID, asID, runs[0].Member, runs[0].Status)
	default:
		msg = fmt.Sprintf("Started %s for %d members (runs #%d–#%d).", asID, len(runs), runs[0].ID, runs[len(runs)-1].ID)
	}
	if httpkit.IsDatastar(c) {
		return httpkit.NewSSE(c).PatchElementTempl(views.Flash(msg, false))
	}
	if len(runs) == 1 {
		return c.Redirect(http.StatusSeeOther, fmt.Sprintf("/admin/runs/%d", runs[0].ID))
	}
	return c.Redirect(http.StatusSeeOther, "/admin")
}

// liveAssignments keeps the latest runs' progress current.
func (s *Server) liveAssignments(c echo.Context) error {
	return s.adminStream(c, isKind("run"), func(ctx context.Context) ([]templ.Component, error) {
		runs, err := s.latestRunViews(ctx)
		if err != nil {
			return nil, err
		}
		return []templ.Component{views.RunsLive(runs)}, nil
	})
}

// olderURL links the next page of the history when this one is full.
func olderURL(f agent.RunFilter, runs []agent.Run) string {
	if len(runs) == 0 || len(runs) < f.Limit {
		return ""
	}
	q := url.Values{}
	for k, v := range map[string]string{"agent": f.Agent, "assignment": f.Assignment, "member": f.Member, "status": string(f.Status)} {
		if v != "" {
			q.Set(k, v)
		}
	}
	q.Set("before", strconv.FormatInt(runs[len(runs)-1].ID, 10))
	q.Set("limit", strconv.Itoa(f.Limit))
	return "/admin/runs?" + q.Encode()
}

// adminRuns is the run history with filters.
func (s *Server) adminRuns(c echo.Context) error {
	ctx := c.Request().Context()
	f, err := s.runFilter(c, 50)
	if err != nil {
		return err
	}
	runs, err := s.deps.Admin.Agents.Runs().List(ctx, f)
	if err != nil {
		return err
	}
	p := views.AdminRuns{AdminPage: s.adminPage(c, "Runs", "runs"), Runs: s.runViews(runs), Older: olderURL(f, runs),
		Filter: views.RunFilter{Agent: f.Agent, Assignment: f.Assignment, Member: f.Member, Status: string(f.Status),
			Before: f.BeforeID, Limit: f.Limit},
		Statuses: []string{"queued", "running", "succeeded", "fell_back", "failed", "interrupted"}}
	seen := map[string]bool{}
	for _, a := range s.deps.Admin.Agents.Agents() {
		p.Agents = append(p.Agents, views.Option{Value: a.ID, Label: a.ID})
		for _, as := range a.Assignments {
			if !seen[as.ID] {
				seen[as.ID] = true
				p.Assignments = append(p.Assignments, views.Option{Value: as.ID, Label: as.ID})
			}
		}
	}
	if p.Members, err = s.memberOptions(ctx); err != nil {
		return err
	}
	// The stream sends the filter form's hidden fields: the filter never
	// sits inside a Datastar expression.
	p.Stream, p.StreamForm = "/admin/live/runs", "runs-live"
	return httpkit.Render(c, http.StatusOK, views.AdminRunsPage(p))
}

// liveRuns re-renders the history table (with the page's filter, sent as
// the query) as runs change.
func (s *Server) liveRuns(c echo.Context) error {
	f, err := s.runFilter(c, 50)
	if err != nil {
		return err
	}
	return s.adminStream(c, isKind("run"), func(ctx context.Context) ([]templ.Component, error) {
		runs, err := s.deps.Admin.Agents.Runs().List(ctx, f)
		if err != nil {
			return nil, err
		}
		return []templ.Component{views.RunsTable(s.runViews(runs), olderURL(f, runs))}, nil
	})
}

// adminRun is one run's page: progress, prompt, output, tool calls,
// validation errors and fallback reason.
func (s *Server) adminRun(c echo.Context) error {
	id, err := runID(c)
	if err != nil {
		return err
	}
	r, err := s.deps.Admin.Agents.Runs().Get(c.Request().Context(), id)
	if err != nil {
		return err
	}
	p := views.AdminRunPage{AdminPage: s.adminPage(c, fmt.Sprintf("Run #%d", id), "runs"), Run: s.runDetail(r)}
	p.Stream = fmt.Sprintf("/admin/live/runs/%d", id)
	return httpkit.Render(c, http.StatusOK, views.AdminRunDetailPage(p))
}

// liveRun re-renders one run's page while it progresses.
func (s *Server) liveRun(c echo.Context) error {
	id, err := runID(c)
	if err != nil {
		return err
	}
	if _, err := s.deps.Admin.Agents.Runs().Get(c.Request().Context(), id); err != nil {
		return err
	}
	concerns := func(ev live.Event) bool {
		re, ok := runEvent(ev)
		return ok && re.ID == id
	}
	return s.adminStream(c, concerns, func(ctx context.Context) ([]templ.Component, error) {
		r, err := s.deps.Admin.Agents.Runs().Get(ctx, id)
		if err != nil {
			return nil, err
		}
		return []templ.Component{views.RunDetailView(s.runDetail(r))}, nil
	})
}
