package web

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"hearth/internal/apperr"
	"hearth/internal/schedule"
	"hearth/web/httpkit"
)

// taskID reads the :id parameter; anything but a positive integer is NotFound.
func taskID(c echo.Context) (int64, error) {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil || id < 1 {
		return 0, apperr.NotFoundf("no scheduled task %q", c.Param("id"))
	}
	return id, nil
}

// apiTasks lists scheduled tasks; status, type, agent, member and
// created_by narrow the list.
func (s *Server) apiTasks(c echo.Context) error {
	f := schedule.TaskFilter{Status: schedule.Status(c.QueryParam("status")), Kind: schedule.Kind(c.QueryParam("type")),
		AgentID: c.QueryParam("agent"), MemberID: c.QueryParam("member"), CreatedBy: schedule.CreatedBy(c.QueryParam("created_by"))}
	tasks, err := s.deps.Admin.Schedule.List(c.Request().Context(), f)
	if err != nil {
		return err
	}
	if tasks == nil {
		tasks = []schedule.Task{}
	}
	return c.JSON(http.StatusOK, map[string]any{"tasks": tasks})
}

// apiTask returns one task.
func (s *Server) apiTask(c echo.Context) error {
	id, err := taskID(c)
	if err != nil {
		return err
	}
	t, err := s.deps.Admin.Schedule.Get(c.Request().Context(), id)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"task": t})
}

// apiTaskCreate creates a task on behalf of the admin (created by user):
// 201 with the task, 400 naming the problem.
func (s *Server) apiTaskCreate(c echo.Context) error {
	var in schedule.TaskInput
	if err := httpkit.BindJSON(c, &in); err != nil {
		return err
	}
	t, err := s.deps.Admin.Schedule.Create(c.Request().Context(), in, schedule.ByUser)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, map[string]any{"task": t})
}

// apiTaskUpdate applies a partial update; "status": "paused" or "active"
// pauses (with "pause_note") or resumes/approves.
func (s *Server) apiTaskUpdate(c echo.Context) error {
	id, err := taskID(c)
	if err != nil {
		return err
	}
	var p schedule.TaskPatch
	if err := httpkit.BindJSON(c, &p); err != nil {
		return err
	}
	t, err := s.deps.Admin.Schedule.Update(c.Request().Context(), id, p)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"task": t})
}

// apiTaskDelete removes a task and its ledger. It takes no body: a request
// with one is not what it seems and is refused.
func (s *Server) apiTaskDelete(c echo.Context) error {
	id, err := taskID(c)
	if err != nil {
		return err
	}
	if n, _ := c.Request().Body.Read(make([]byte, 1)); n > 0 {
		return apperr.Invalidf("DELETE takes no request body")
	}
	if err := s.deps.Admin.Schedule.Delete(c.Request().Context(), id); err != nil {
		return err
	}
	return c.JSON(http.StatusOK, map[string]any{"deleted": id})
}
