package admin

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"hearth/internal/apperr"
	"hearth/internal/live"
	"hearth/internal/schedule"
	"hearth/internal/workflow"
	"hearth/views/adminview"
	"hearth/web/httpkit"
)

// Workflows is the workflow runtime as the admin pages use it
// (*workflow.Runtime).
type Workflows interface {
	Workflows() []workflow.Info
	Workflow(id string) (*workflow.Workflow, error)
	Start(ctx context.Context, req workflow.StartRequest) (workflow.Run, error)
	Get(ctx context.Context, id int64) (workflow.Run, error)
	List(ctx context.Context, f workflow.Filter) ([]workflow.Run, error)
	Resume(ctx context.Context, id int64, path string, data json.RawMessage) (workflow.Run, error)
	Restart(ctx context.Context, id int64) (workflow.Run, error)
	Pause(ctx context.Context, id int64) (workflow.Run, error)
	Waiting(ctx context.Context, member string) ([]workflow.Waiting, error)
}

// workflowPages are Admin → Workflows.
type workflowPages struct {
	*core
	workflows Workflows
	schedule  Schedules // nil: no approvals waiting
}

// latestWorkflowRuns is how many runs Admin → Workflows lists.
const latestWorkflowRuns = 20

func (s *workflowPages) adminWorkflows(c echo.Context) error {
	return s.renderWorkflows(c, http.StatusOK, adminview.Notice{})
}

func (s *workflowPages) renderWorkflows(c echo.Context, status int, notice adminview.Notice) error {
	ctx := c.Request().Context()
	p := adminview.AdminWorkflows{AdminPage: s.adminPage(c, "Workflows", "workflows"), Notice: notice}
	p.Stream = "/admin/live/workflows"
	var err error
	if p.Waiting, err = s.waitingList(ctx, p.CSRF); err != nil {
		return err
	}
	for _, info := range s.workflows.Workflows() {
		p.Workflows = append(p.Workflows, adminview.WorkflowView{ID: info.ID, Description: info.Description, Agent: info.Agent,
			Graph: graphOf(info.Nodes, "", nil)})
	}
	if p.Runs, err = s.workflowRunRows(ctx); err != nil {
		return err
	}
	if p.Members, err = s.memberOptions(ctx); err != nil {
		return err
	}
	return httpkit.Render(c, status, adminview.AdminWorkflowsPage(p))
}

func (s *workflowPages) workflowRunRows(ctx context.Context) ([]adminview.WorkflowRunRow, error) {
	runs, err := s.workflows.List(ctx, workflow.Filter{Limit: latestWorkflowRuns})
	if err != nil {
		return nil, err
	}
	out := make([]adminview.WorkflowRunRow, 0, len(runs))
	for _, r := range runs {
		out = append(out, adminview.WorkflowRunRow{ID: r.ID, Workflow: r.Workflow, Member: r.Member, Status: string(r.Status),
			Updated: s.fmtWhen(r.UpdatedAt), Error: r.Error})
	}
	return out, nil
}

// waitingList is everything waiting for a person: the coach's tasks
// waiting for approval (the schedules' own mechanism) and suspended
// workflow steps.
func (s *workflowPages) waitingList(ctx context.Context, csrf string) (adminview.WaitingList, error) {
	w := adminview.WaitingList{CSRF: csrf}
	if s.schedule != nil {
		tasks, err := s.schedule.List(ctx, schedule.TaskFilter{Status: schedule.StatusPendingApproval})
		if err != nil {
			return w, err
		}
		w.Approvals = s.taskRows(tasks)
	}
	waiting, err := s.workflows.Waiting(ctx, "")
	if err != nil {
		return w, err
	}
	for _, q := range waiting {
		w.Questions = append(w.Questions, s.waitingQuestion(q.Run, q.Workflow, q.Member, q.Path, q.Payload, s.fmtWhen(q.Since)))
	}
	return w, nil
}

func (s *workflowPages) waitingQuestion(run int64, wf, member, path string, payload json.RawMessage, since string) adminview.WaitingQuestion {
	v := adminview.WaitingQuestion{Run: run, Workflow: wf, Member: member, Path: path, Since: since}
	q, ok := workflow.QuestionOf(payload)
	if !ok {
		v.Payload = pretty(payload)
		return v
	}
	v.Question, v.Context = q.Question, q.Context
	for i, o := range q.Options {
		v.Options = append(v.Options, adminview.AnswerOption{Label: o, Field: q.Field, Value: q.Values[i]})
	}
	return v
}

// graphOf turns a workflow's nodes into the view's graph, with the status
// of each step in run (nil: no run). prefix is the nested workflow's path.
func graphOf(nodes []workflow.NodeInfo, prefix string, run *workflow.Run) []adminview.GraphNode {
	out := make([]adminview.GraphNode, 0, len(nodes))
	for _, n := range nodes {
		g := adminview.GraphNode{Kind: n.Kind, ID: n.ID, Description: n.Description, Suspends: n.Suspends}
		switch n.Kind {
		case "step":
			if run != nil {
				g.Status, g.Attempts = "pending", 0
				if st, ok := lastRecord(*run, prefix+n.ID); ok {
					g.Status, g.Attempts = string(st.Status), st.Attempts
				}
			}
		case "workflow":
			g.Label = "workflow"
			g.Children = graphOf(n.Children, prefix+n.ID+"/", run)
		case "loop":
			g.Label = "repeat while"
			if n.Until != nil && *n.Until {
				g.Label = "repeat until"
			}
			g.Label += fmt.Sprintf(" (at most %d times)", n.Max)
			g.Children = graphOf(n.Children, prefix, run)
		default:
			g.Label = n.Kind
			g.Children = graphOf(n.Children, prefix, run)
		}
		out = append(out, g)
	}
	return out
}

// lastRecord is the step's record at path, or its latest loop iteration's.
func lastRecord(r workflow.Run, path string) (workflow.StepRecord, bool) {
	if st, ok := r.Step(path); ok {
		return st, true
	}
	var last workflow.StepRecord
	found := false
	for _, st := range r.Steps {
		if strings.HasPrefix(st.Path, path+"@") && !strings.Contains(strings.TrimPrefix(st.Path, path+"@"), "/") {
			last, found = st, true
		}
	}
	return last, found
}

func (s *workflowPages) adminWorkflowStart(c echo.Context) error {
	id := c.Param("id")
	if _, err := s.workflows.Workflow(id); err != nil {
		return err
	}
	member := strings.TrimSpace(c.FormValue("member"))
	if member == "" {
		return s.renderWorkflows(c, http.StatusBadRequest, adminview.Notice{Text: "Choose a member.", Error: true})
	}
	httpkit.Owner(c, member)
	r, err := s.workflows.Start(c.Request().Context(), workflow.StartRequest{Workflow: id, Member: member,
		Trigger: workflow.TriggerManual})
	if err != nil {
		if notice, status, ok := userError(err); ok {
			return s.renderWorkflows(c, status, notice)
		}
		return err
	}
	return c.Redirect(http.StatusSeeOther, fmt.Sprintf("/admin/workflow-runs/%d", r.ID))
}

func (s *workflowPages) adminWorkflowRun(c echo.Context) error {
	id, err := httpkit.PositiveID(c, "workflow run")
	if err != nil {
		return err
	}
	return s.renderWorkflowRun(c, id, http.StatusOK, adminview.Notice{Text: workflowDone(c.QueryParam("done"))})
}

func workflowDone(done string) string {
	switch done {
	case "resume":
		return "Answered: the run continues."
	case "restart":
		return "Restarted from the failed step."
	case "pause":
		return "Paused."
	}
	return ""
}

func (s *workflowPages) renderWorkflowRun(c echo.Context, id int64, status int, notice adminview.Notice) error {
	ctx := c.Request().Context()
	r, err := s.workflows.Get(ctx, id)
	if err != nil {
		return err
	}
	p := adminview.AdminWorkflowRunPage{AdminPage: s.adminPage(c, fmt.Sprintf("%s #%d", r.Workflow, r.ID), "workflows"), Notice: notice}
	p.Stream = fmt.Sprintf("/admin/live/workflow-runs/%d", id)
	p.Run = s.workflowRunView(r, p.CSRF)
	return httpkit.Render(c, status, adminview.AdminWorkflowRunDetailPage(p))
}

func (s *workflowPages) workflowRunView(r workflow.Run, csrf string) adminview.WorkflowRunView {
	v := adminview.WorkflowRunView{CSRF: csrf, ID: r.ID, Workflow: r.Workflow, Version: r.Version, Member: r.Member,
		Status: string(r.Status), Error: r.Error, Trigger: string(r.Trigger), Created: s.fmtWhen(r.CreatedAt),
		Updated: s.fmtWhen(r.UpdatedAt), Finished: s.fmtWhenPtr(r.FinishedAt), Input: pretty(r.Input),
		State: pretty(r.State), Output: pretty(r.Output), AgentRuns: r.AgentRuns,
		CanRestart: r.Status == workflow.StatusFailed || r.Status == workflow.StatusPaused,
		CanPause:   r.Status == workflow.StatusRunning || r.Status == workflow.StatusSuspended}
	if w, err := s.workflows.Workflow(r.Workflow); err == nil {
		v.Graph = graphOf(w.Info().Nodes, "", &r)
	}
	for _, st := range r.Steps {
		v.Steps = append(v.Steps, adminview.StepView{Path: st.Path, Step: st.Step, Status: string(st.Status), Attempts: st.Attempts,
			Input: pretty(st.Input), Output: pretty(st.Output), StatePatch: pretty(st.StatePatch), Suspended: pretty(st.Suspended),
			Resumed: pretty(st.Resumed), Error: st.Error, AgentRuns: st.AgentRuns, Started: s.fmtWhen(st.StartedAt),
			Finished: s.fmtWhenPtr(st.FinishedAt)})
	}
	if r.Status == workflow.StatusSuspended {
		for _, st := range r.Waiting() {
			v.Waiting = append(v.Waiting, s.waitingQuestion(r.ID, r.Workflow, r.Member, st.Path, st.Suspended, s.fmtWhenPtr(st.FinishedAt)))
		}
	}
	return v
}

// adminWorkflowAction answers a waiting step (resume: the option's field
// and value, or JSON data), restarts or pauses a run.
func (s *workflowPages) adminWorkflowAction(c echo.Context) error {
	id, err := httpkit.PositiveID(c, "workflow run")
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	wf := s.workflows
	if r, err := wf.Get(ctx, id); err == nil {
		httpkit.Owner(c, r.Member)
	}
	action := c.Param("action")
	switch action {
	case "resume":
		step := strings.TrimSpace(c.FormValue("step"))
		var data json.RawMessage
		field, value, raw := c.FormValue("field"), c.FormValue("value"), c.FormValue("data")
		switch {
		case step == "":
			err = apperr.FieldErrors(map[string]string{"step": "is required"})
		case field != "":
			data, _ = json.Marshal(map[string]string{field: value})
		case strings.TrimSpace(raw) != "" && json.Valid([]byte(raw)):
			data = json.RawMessage(raw)
		default:
			err = apperr.FieldErrors(map[string]string{"data": "must be JSON"})
		}
		if err == nil {
			_, err = wf.Resume(ctx, id, step, data)
		}
	case "restart":
		_, err = wf.Restart(ctx, id)
	case "pause":
		_, err = wf.Pause(ctx, id)
	default:
		return apperr.NotFoundf("unknown action %q", action)
	}
	if err == nil {
		return c.Redirect(http.StatusSeeOther, fmt.Sprintf("/admin/workflow-runs/%d?done=%s", id, action))
	}
	notice, status, ok := userError(err)
	if !ok || apperr.Is(err, apperr.NotFound) {
		return err
	}
	return s.renderWorkflowRun(c, id, status, notice)
}

// liveWorkflows keeps the waiting list and the latest runs current.
func (s *workflowPages) liveWorkflows(c echo.Context) error {
	csrf := httpkit.CSRFToken(c)
	return s.adminStream(c, isKind(live.KindWorkflow, live.KindTask), func(ctx context.Context) ([]templ.Component, error) {
		w, err := s.waitingList(ctx, csrf)
		if err != nil {
			return nil, err
		}
		runs, err := s.workflowRunRows(ctx)
		if err != nil {
			return nil, err
		}
		return []templ.Component{adminview.WaitingView(w), adminview.WorkflowRunsTable(runs)}, nil
	})
}

// liveWorkflowRun re-renders a run's page as its steps progress.
func (s *workflowPages) liveWorkflowRun(c echo.Context) error {
	id, err := httpkit.PositiveID(c, "workflow run")
	if err != nil {
		return err
	}
	if _, err := s.workflows.Get(c.Request().Context(), id); err != nil {
		return err
	}
	csrf := httpkit.CSRFToken(c)
	concerns := func(ev live.Event) bool {
		we, ok := ev.Data.(workflow.Event)
		return ev.Kind == live.KindWorkflow && ok && we.RunID == id
	}
	return s.adminStream(c, concerns, func(ctx context.Context) ([]templ.Component, error) {
		r, err := s.workflows.Get(ctx, id)
		if err != nil {
			return nil, err
		}
		return []templ.Component{adminview.WorkflowRunDetail(s.workflowRunView(r, csrf))}, nil
	})
}
