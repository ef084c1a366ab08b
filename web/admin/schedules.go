package admin

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"hearth/internal/apperr"
	"hearth/internal/live"
	"hearth/internal/schedule"
	"hearth/views"
	"hearth/views/adminview"
	"hearth/web/httpkit"
)

// schedulePages are Admin → Schedules.
type schedulePages struct {
	*core
	schedule   Schedules
	agents     Agents    // nil: no agent choices
	workflows  Workflows // nil: no workflow tasks
	hasBackups bool      // the system agent offers backups
	copilot    bool      // the copilot panel beside the new-task form
}

// ledgerRows is how many ledger rows the task page shows; refusedRows how
// many of the coach's refused scheduling requests the schedules page lists.
const (
	ledgerRows  = 100
	refusedRows = 20
)

// scheduleActions are the actions of POST /admin/schedules/:id/:action.
var scheduleActions = map[string]bool{"pause": true, "resume": true, "approve": true, "keep": true, "run": true,
	"slot": true, "delete": true}

func (s *schedulePages) schedulesPage(c echo.Context, form views.FormState, notice adminview.Notice) (adminview.AdminSchedules, error) {
	ctx := c.Request().Context()
	tasks, err := s.schedule.List(ctx, schedule.TaskFilter{})
	if err != nil {
		return adminview.AdminSchedules{}, err
	}
	p := adminview.AdminSchedules{AdminPage: s.adminPage(c, "Schedules", "schedules"), Notice: notice, Tasks: s.taskRows(tasks), Form: form,
		Copilot: s.copilot}
	p.Stream = "/admin/live/schedules"
	if s.agents != nil {
		p.Agents = agentViews(s.agents)
	}
	p.Agents = append(p.Agents, s.systemAgentView()...)
	if p.Members, err = s.memberOptions(ctx); err != nil {
		return p, err
	}
	p.Preview = s.preview(schedule.Task{Kind: schedule.Kind(form.Value("type")), Schedule: form.Value("schedule")})
	refused, err := s.schedule.TaskRequests(ctx, schedule.RequestFilter{Outcome: schedule.RequestRefused, Limit: refusedRows})
	if err != nil {
		return p, err
	}
	for _, r := range refused {
		p.Refused = append(p.Refused, adminview.RefusedRequest{At: r.At.Format("2006-01-02 15:04"), Member: r.MemberID,
			Kind: string(r.Kind), Schedule: r.Schedule, Description: r.Description, Reason: r.Reason, RunID: r.RunID})
	}
	return p, nil
}

// adminSchedules lists the tasks with the new-task form.
func (s *schedulePages) adminSchedules(c echo.Context) error {
	p, err := s.schedulesPage(c, views.FormState{Values: s.defaultTaskForm()}, doneNotice(c))
	if err != nil {
		return err
	}
	return httpkit.Render(c, http.StatusOK, adminview.AdminSchedulesPage(p))
}

// adminScheduleCreate creates a task; a validation error re-renders the
// form with the message next to the field and every typed value kept.
func (s *schedulePages) adminScheduleCreate(c echo.Context) error {
	t, err := s.schedule.Create(c.Request().Context(), taskInput(c), schedule.ByUser)
	if err == nil {
		httpkit.Owner(c, t.MemberID)
		return c.Redirect(http.StatusSeeOther, fmt.Sprintf("/admin/schedules/%d?done=created", t.ID))
	}
	fs, err := formFailure(err, httpkit.FormValues(c, taskFormFields...))
	if err != nil {
		return err
	}
	p, err := s.schedulesPage(c, fs, adminview.Notice{})
	if err != nil {
		return err
	}
	return httpkit.Render(c, http.StatusBadRequest, adminview.AdminSchedulesPage(p))
}

// adminSchedulePreview answers the form's preview request with the next
// five fire times (or the problem with the schedule).
func (s *schedulePages) adminSchedulePreview(c echo.Context) error {
	pr := s.preview(schedule.Task{Kind: schedule.Kind(c.QueryParam("type")), Schedule: c.QueryParam("schedule")})
	if httpkit.IsDatastar(c) {
		return httpkit.NewSSE(c).PatchElementTempl(adminview.SchedulePreviewView(pr))
	}
	return httpkit.Render(c, http.StatusOK, adminview.SchedulePreviewView(pr))
}

func (s *schedulePages) taskPage(c echo.Context, id int64, form *views.FormState, notice adminview.Notice) (adminview.AdminTask, error) {
	ctx := c.Request().Context()
	t, err := s.schedule.Get(ctx, id)
	if err != nil {
		return adminview.AdminTask{}, err
	}
	fires, err := s.schedule.Ledger(ctx, id, ledgerRows)
	if err != nil {
		return adminview.AdminTask{}, err
	}
	p := adminview.AdminTask{AdminPage: s.adminPage(c, t.Description, "schedules"), Notice: notice, Task: s.taskRow(t),
		Form: views.FormState{Values: taskFormValues(t)}, Ledger: s.fireRows(t, fires)}
	if form != nil {
		p.Form = *form
	}
	p.Stream = fmt.Sprintf("/admin/live/schedules/%d", id)
	if s.agents != nil {
		p.Agents = agentViews(s.agents)
	}
	p.Agents = append(p.Agents, s.systemAgentView()...)
	if p.Members, err = s.memberOptions(ctx); err != nil {
		return p, err
	}
	if form == nil {
		p.Preview = s.preview(t)
	} else {
		p.Preview = s.preview(schedule.Task{Kind: schedule.Kind(form.Value("type")), Schedule: form.Value("schedule")})
	}
	return p, nil
}

// adminSchedule is one task: summary and actions, edit form with preview, ledger.
func (s *schedulePages) adminSchedule(c echo.Context) error {
	id, err := httpkit.PositiveID(c, "scheduled task")
	if err != nil {
		return err
	}
	p, err := s.taskPage(c, id, nil, doneNotice(c))
	if err != nil {
		return err
	}
	return httpkit.Render(c, http.StatusOK, adminview.AdminTaskPage(p))
}

// adminScheduleUpdate saves the edit form; errors come back inline.
func (s *schedulePages) adminScheduleUpdate(c echo.Context) error {
	id, err := httpkit.PositiveID(c, "scheduled task")
	if err != nil {
		return err
	}
	s.markOwner(c, id)
	_, err = s.schedule.Update(c.Request().Context(), id, taskPatch(c))
	if err == nil {
		return c.Redirect(http.StatusSeeOther, fmt.Sprintf("/admin/schedules/%d?done=saved", id))
	}
	var notice adminview.Notice
	fs, ferr := formFailure(err, httpkit.FormValues(c, taskFormFields...))
	if ferr != nil {
		n, _, ok := userError(err)
		if !ok || apperr.Is(err, apperr.NotFound) {
			return err
		}
		fs, notice = views.FormState{Values: httpkit.FormValues(c, taskFormFields...)}, n
	}
	p, err := s.taskPage(c, id, &fs, notice)
	if err != nil {
		return err
	}
	return httpkit.Render(c, http.StatusBadRequest, adminview.AdminTaskPage(p))
}

// markOwner attributes the request to the task's member (read before the
// change: a deleted task is gone after it).
func (s *schedulePages) markOwner(c echo.Context, id int64) {
	if t, err := s.schedule.Get(c.Request().Context(), id); err == nil {
		httpkit.Owner(c, t.MemberID)
	}
}

// adminScheduleAction runs pause (with note), resume, approve, keep, run,
// slot (run a missed slot) and delete, then returns to the list or the task
// page (form field "back", required). Refusals (a conflict, a bad slot) are
// shown there.
func (s *schedulePages) adminScheduleAction(c echo.Context) error {
	id, err := httpkit.PositiveID(c, "scheduled task")
	if err != nil {
		return err
	}
	ctx := c.Request().Context()
	svc := s.schedule
	action := c.Param("action")
	if !scheduleActions[action] {
		return apperr.NotFoundf("unknown action %q", action)
	}
	s.markOwner(c, id)
	// Every action form says where to return; a body without it is not
	// one of our forms and changes nothing.
	back := c.FormValue("back")
	if back != "list" && back != "task" {
		return apperr.Invalidf("incomplete form: reload the page and try again")
	}
	switch action {
	case "pause":
		_, err = svc.Pause(ctx, id, c.FormValue("note"))
	case "resume":
		_, err = svc.Resume(ctx, id)
	case "approve":
		_, err = svc.Approve(ctx, id)
	case "keep":
		_, err = svc.Keep(ctx, id, true)
	case "run":
		_, err = svc.RunNow(ctx, id)
	case "slot":
		var slot time.Time
		if slot, err = time.Parse(time.RFC3339Nano, c.FormValue("slot")); err != nil {
			err = apperr.Invalidf("unknown slot %q", c.FormValue("slot"))
		} else {
			_, err = svc.RunSlot(ctx, id, slot)
		}
	case "delete":
		err = svc.Delete(ctx, id)
	}
	switch action {
	case "slot":
		back = "task"
	case "delete":
		back = "list"
	}
	if err == nil {
		if back == "task" {
			return c.Redirect(http.StatusSeeOther, fmt.Sprintf("/admin/schedules/%d?done=%s", id, action))
		}
		return c.Redirect(http.StatusSeeOther, "/admin/schedules?done="+action)
	}
	notice, status, ok := userError(err)
	if !ok {
		return err
	}
	if back == "task" && !apperr.Is(err, apperr.NotFound) {
		p, perr := s.taskPage(c, id, nil, notice)
		if perr == nil {
			return httpkit.Render(c, status, adminview.AdminTaskPage(p))
		}
	}
	p, perr := s.schedulesPage(c, views.FormState{Values: s.defaultTaskForm()}, notice)
	if perr != nil {
		return perr
	}
	return httpkit.Render(c, status, adminview.AdminSchedulesPage(p))
}

// liveSchedules re-renders the task list when tasks change.
func (s *schedulePages) liveSchedules(c echo.Context) error {
	csrf := httpkit.CSRFToken(c)
	return s.adminStream(c, isKind("task"), func(ctx context.Context) ([]templ.Component, error) {
		tasks, err := s.schedule.List(ctx, schedule.TaskFilter{})
		if err != nil {
			return nil, err
		}
		return []templ.Component{adminview.TasksTable(csrf, s.taskRows(tasks))}, nil
	})
}

// liveSchedule re-renders one task's summary and ledger when it changes.
func (s *schedulePages) liveSchedule(c echo.Context) error {
	id, err := httpkit.PositiveID(c, "scheduled task")
	if err != nil {
		return err
	}
	csrf := httpkit.CSRFToken(c)
	concerns := func(ev live.Event) bool {
		te, ok := ev.Data.(schedule.TaskEvent)
		return ev.Kind == "task" && ok && te.TaskID == id
	}
	return s.adminStream(c, concerns, func(ctx context.Context) ([]templ.Component, error) {
		t, err := s.schedule.Get(ctx, id)
		if apperr.Is(err, apperr.NotFound) {
			return []templ.Component{adminview.TaskSummary(csrf, adminview.TaskRow{ID: id, Status: "deleted"})}, nil
		}
		if err != nil {
			return nil, err
		}
		fires, err := s.schedule.Ledger(ctx, id, ledgerRows)
		if err != nil {
			return nil, err
		}
		return []templ.Component{adminview.TaskSummary(csrf, s.taskRow(t)), adminview.LedgerTable(csrf, id, s.fireRows(t, fires))}, nil
	})
}

// systemAgentView offers Hearth's own jobs in the task form, so the nightly
// backup can be edited (or a second one made) like any task.
func (s *schedulePages) systemAgentView() []adminview.AdminAgent {
	var jobs []adminview.AdminAssignment
	if s.hasBackups {
		jobs = append(jobs, adminview.AdminAssignment{Agent: schedule.SystemAgent, ID: "backup", Description: "Back up the household's data"})
	}
	if s.workflows != nil {
		if _, err := s.workflows.Workflow("weekly-review"); err == nil {
			jobs = append(jobs, adminview.AdminAssignment{Agent: schedule.SystemAgent, ID: "weekly-review",
				Description: "The coach's weekly review with each member"})
		}
	}
	if len(jobs) == 0 {
		return nil
	}
	return []adminview.AdminAgent{{ID: schedule.SystemAgent, Description: "Hearth itself", Assignments: jobs}}
}
