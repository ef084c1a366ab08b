package admin

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
	"hearth/internal/live"
	"hearth/views"
	"hearth/views/adminview"
	"hearth/web/httpkit"
)

// runPages are Admin → Assignments and Runs.
type runPages struct {
	*core
	agents    Agents
	household HouseholdAdmin // nil: the member filter is not checked
}

// latestRuns is how many runs the assignments page shows live.
const latestRuns = 8

func (s *core) memberOptions(ctx context.Context) ([]views.Option, error) {
	if s.members == nil {
		return nil, nil
	}
	ms, err := s.members.Members(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]views.Option, len(ms))
	for i, m := range ms {
		out[i] = views.Option{Value: m.ID, Label: m.Name + " (" + m.ID + ")"}
	}
	return out, nil
}

// agentViews are the agents with their assignments.
func agentViews(agents Agents) []adminview.AdminAgent {
	var out []adminview.AdminAgent
	for _, a := range agents.Agents() {
		av := adminview.AdminAgent{ID: a.ID, Description: a.Description}
		for _, as := range a.Assignments {
			av.Assignments = append(av.Assignments, adminview.AdminAssignment{Agent: a.ID, ID: as.ID, Description: as.Description, Schedule: as.Schedule})
		}
		out = append(out, av)
	}
	return out
}

func (s *runPages) budgetLine(ctx context.Context) (string, error) {
	b, err := s.agents.BudgetStatus(ctx)
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

func (s *runPages) latestRunViews(ctx context.Context) ([]adminview.RunView, error) {
	runs, err := s.agents.Runs().List(ctx, agent.RunFilter{Limit: latestRuns})
	if err != nil {
		return nil, err
	}
	return s.runViews(runs), nil
}

// adminAssignments is the admin home: assignments with run-now forms and
// the latest runs' live progress.
func (s *runPages) adminAssignments(c echo.Context) error {
	ctx := c.Request().Context()
	p := adminview.AdminAssignments{AdminPage: s.adminPage(c, "Assignments", "assignments"), Agents: agentViews(s.agents)}
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
	return httpkit.Render(c, http.StatusOK, adminview.AdminAssignmentsPage(p))
}

// adminRunNow starts an assignment for one member or all (member "all").
// A Datastar request gets a flash (the page's live stream shows progress);
// a plain form goes to the run page (one member) or back home (all).
func (s *runPages) adminRunNow(c echo.Context) error {
	agentID, asID := c.Param("agent"), c.Param("assignment")
	if info, err := s.agents.Agent(agentID); err != nil {
		return err
	} else if err := info.HasAssignment(asID); err != nil {
		return err
	}
	ctx := c.Request().Context()
	member := strings.TrimSpace(c.FormValue("member"))
	if member == "" {
		return apperr.FieldErrors(map[string]string{"member": `choose a member or "all"`})
	}
	var runs []agent.Run
	req := agent.Request{Agent: agentID, Assignment: asID, Member: member, Trigger: agent.TriggerManual}
	if member == "all" {
		httpkit.Owner(c, "") // every member's runs
		var err error
		if runs, err = s.agents.StartEach(ctx, req); err != nil {
			return err
		}
	} else {
		httpkit.Owner(c, member)
		r, err := s.agents.Start(ctx, req)
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
func (s *runPages) liveAssignments(c echo.Context) error {
	return s.adminStream(c, isKind("run"), func(ctx context.Context) ([]templ.Component, error) {
		runs, err := s.latestRunViews(ctx)
		if err != nil {
			return nil, err
		}
		return []templ.Component{adminview.RunsLive(runs)}, nil
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
func (s *runPages) adminRuns(c echo.Context) error {
	ctx := c.Request().Context()
	f, err := s.runFilter(c, 50)
	if err != nil {
		return err
	}
	runs, err := s.agents.Runs().List(ctx, f)
	if err != nil {
		return err
	}
	p := adminview.AdminRuns{AdminPage: s.adminPage(c, "Runs", "runs"), Runs: s.runViews(runs), Older: olderURL(f, runs),
		Filter: adminview.RunFilter{Agent: f.Agent, Assignment: f.Assignment, Member: f.Member, Status: string(f.Status),
			Before: f.BeforeID, Limit: f.Limit},
		Statuses: []string{"queued", "running", "succeeded", "fell_back", "failed", "interrupted"}}
	seen := map[string]bool{}
	for _, a := range s.agents.Agents() {
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
	return httpkit.Render(c, http.StatusOK, adminview.AdminRunsPage(p))
}

// liveRuns re-renders the history table (with the page's filter, sent as
// the query) as runs change.
func (s *runPages) liveRuns(c echo.Context) error {
	f, err := s.runFilter(c, 50)
	if err != nil {
		return err
	}
	return s.adminStream(c, isKind("run"), func(ctx context.Context) ([]templ.Component, error) {
		runs, err := s.agents.Runs().List(ctx, f)
		if err != nil {
			return nil, err
		}
		return []templ.Component{adminview.RunsTable(s.runViews(runs), olderURL(f, runs))}, nil
	})
}

// adminRun is one run's page: progress, prompt, output, tool calls,
// validation errors and fallback reason.
func (s *runPages) adminRun(c echo.Context) error {
	id, err := httpkit.PositiveID(c, "run")
	if err != nil {
		return err
	}
	r, err := s.agents.Runs().Get(c.Request().Context(), id)
	if err != nil {
		return err
	}
	p := adminview.AdminRunPage{AdminPage: s.adminPage(c, fmt.Sprintf("Run #%d", id), "runs"), Run: s.runDetail(r)}
	p.Stream = fmt.Sprintf("/admin/live/runs/%d", id)
	return httpkit.Render(c, http.StatusOK, adminview.AdminRunDetailPage(p))
}

// liveRun re-renders one run's page while it progresses.
func (s *runPages) liveRun(c echo.Context) error {
	id, err := httpkit.PositiveID(c, "run")
	if err != nil {
		return err
	}
	if _, err := s.agents.Runs().Get(c.Request().Context(), id); err != nil {
		return err
	}
	concerns := func(ev live.Event) bool {
		re, ok := runEvent(ev)
		return ok && re.ID == id
	}
	return s.adminStream(c, concerns, func(ctx context.Context) ([]templ.Component, error) {
		r, err := s.agents.Runs().Get(ctx, id)
		if err != nil {
			return nil, err
		}
		return []templ.Component{adminview.RunDetailView(s.runDetail(r))}, nil
	})
}
