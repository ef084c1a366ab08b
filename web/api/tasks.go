package api

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"hearth/internal/apperr"
	"hearth/internal/schedule"
	"hearth/web/httpkit"
)

// tasks are the scheduled tasks API.
type tasks struct{ schedule Schedules }

// list lists scheduled tasks; status, type, agent, member and
// created_by narrow the list.
func (h tasks) list(c echo.Context) error {
	f := schedule.TaskFilter{Status: schedule.Status(c.QueryParam("status")), Kind: schedule.Kind(c.QueryParam("type")),
		AgentID: c.QueryParam("agent"), MemberID: c.QueryParam("member"), CreatedBy: schedule.CreatedBy(c.QueryParam("created_by"))}
	tasks, err := h.schedule.List(c.Request().Context(), f)
	if err != nil {
		return err
	}
	if tasks == nil {
		tasks = []schedule.Task{}
	}
	return c.JSON(http.StatusOK, map[string]any{"tasks": tasks})
}

// get returns one task.
func (h tasks) get(c echo.Context) error {
	id, err := httpkit.PositiveID(c, "scheduled task")
	if err != nil {
		return err
	}
	t, err := h.schedule.Get(c.Request().Context(), id)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"task": t})
}

// create creates a task on behalf of the admin (created by user):
// 201 with the task, 400 naming the problem.
func (h tasks) create(c echo.Context) error {
	var in schedule.TaskInput
	if err := httpkit.BindJSON(c, &in); err != nil {
		return err
	}
	t, err := h.schedule.Create(c.Request().Context(), in, schedule.ByUser)
	if err != nil {
		return err
	}
	httpkit.Owner(c, t.MemberID)
	return c.JSON(http.StatusCreated, map[string]any{"task": t})
}

// update applies a partial update; "status": "paused" or "active"
// pauses (with "pause_note") or resumes/approves.
func (h tasks) update(c echo.Context) error {
	id, err := httpkit.PositiveID(c, "scheduled task")
	if err != nil {
		return err
	}
	var p schedule.TaskPatch
	if err := httpkit.BindJSON(c, &p); err != nil {
		return err
	}
	t, err := h.schedule.Update(c.Request().Context(), id, p)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"task": t})
}

// delete removes a task and its ledger. It takes no body: a request
// with one is not what it seems and is refused.
func (h tasks) delete(c echo.Context) error {
	id, err := httpkit.PositiveID(c, "scheduled task")
	if err != nil {
		return err
	}
	if n, _ := c.Request().Body.Read(make([]byte, 1)); n > 0 {
		return apperr.Invalidf("DELETE takes no request body")
	}
	if err := h.schedule.Delete(c.Request().Context(), id); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"deleted": id})
}
