package admin

import (
	"context"
	"net/http"
	"strconv"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"hearth/internal/apperr"
	"hearth/internal/schedule"
	"hearth/views"
	"hearth/views/adminview"
	"hearth/web/httpkit"
)

// todoPages are Admin → To-dos: the agents' to-do list.
type todoPages struct {
	*core
	schedule Schedules
	agents   Agents // nil: no agent choices
}

// todoShow normalises the list filter: open (default), done or all.
func todoShow(v string) string {
	switch v {
	case "done", "all":
		return v
	}
	return "open"
}

func (s *todoPages) todoRows(ctx context.Context, show string) ([]adminview.TodoRow, error) {
	f := schedule.TodoFilter{}
	switch show {
	case "open":
		f.Open = true
	case "done":
		f.Status = schedule.TodoDone
	}
	todos, err := s.schedule.Todos().List(ctx, f)
	if err != nil {
		return nil, err
	}
	out := make([]adminview.TodoRow, len(todos))
	for i, t := range todos {
		out[i] = adminview.TodoRow{ID: t.ID, Agent: t.AgentID, Member: t.MemberID, Text: t.Text, Status: string(t.Status),
			Note: t.Note, Created: s.fmtWhen(t.CreatedAt), Done: s.fmtWhenPtr(t.DoneAt),
			ByCoach: t.CreatedBy == schedule.ByAgent, Attempts: t.Attempts, RunID: t.RunID}
	}
	return out, nil
}

func (s *todoPages) todosPage(c echo.Context, show string, form views.FormState, notice adminview.Notice) (adminview.AdminTodos, error) {
	ctx := c.Request().Context()
	p := adminview.AdminTodos{AdminPage: s.adminPage(c, "To-dos", "todos"), Show: show, Form: form, Notice: notice}
	var err error
	if p.Todos, err = s.todoRows(ctx, show); err != nil {
		return p, err
	}
	if s.agents != nil {
		for _, a := range s.agents.Agents() {
			p.Agents = append(p.Agents, views.Option{Value: a.ID, Label: a.ID})
		}
	}
	if p.Members, err = s.memberOptions(ctx); err != nil {
		return p, err
	}
	p.Stream, p.StreamForm = "/admin/live/todos", "todos-live"
	return p, nil
}

// adminTodos shows the to-do list (open items by default).
func (s *todoPages) adminTodos(c echo.Context) error {
	p, err := s.todosPage(c, todoShow(c.QueryParam("show")), views.FormState{}, adminview.Notice{})
	if err != nil {
		return err
	}
	return httpkit.Render(c, http.StatusOK, adminview.AdminTodosPage(p))
}

// adminTodoAdd puts an item on an agent's list; errors come back inline.
func (s *todoPages) adminTodoAdd(c echo.Context) error {
	td, err := s.schedule.Todos().Add(c.Request().Context(), schedule.TodoInput{AgentID: c.FormValue("agent"),
		MemberID: c.FormValue("member"), Text: c.FormValue("text"), CreatedBy: schedule.ByUser})
	if err == nil {
		httpkit.Owner(c, td.MemberID)
		return c.Redirect(http.StatusSeeOther, "/admin/todos")
	}
	values := httpkit.FormValues(c, "agent", "member", "text")
	fs, ferr := formFailure(err, values)
	var notice adminview.Notice
	if ferr != nil {
		n, _, ok := userError(err)
		if !ok {
			return err
		}
		fs, notice = views.FormState{Values: values}, n
	}
	p, err := s.todosPage(c, "open", fs, notice)
	if err != nil {
		return err
	}
	return httpkit.Render(c, http.StatusBadRequest, adminview.AdminTodosPage(p))
}

// adminTodoAction completes or deletes an item (form field "show", the
// list to return to, is required).
func (s *todoPages) adminTodoAction(c echo.Context) error {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil {
		return apperr.NotFoundf("no to-do %q", c.Param("id"))
	}
	ctx := c.Request().Context()
	action := c.Param("action")
	if action != "complete" && action != "delete" {
		return apperr.NotFoundf("unknown action %q", action)
	}
	// The list to return to is part of every to-do form.
	show := c.FormValue("show")
	if todoShow(show) != show {
		return apperr.Invalidf("incomplete form: reload the page and try again")
	}
	if td, err := s.schedule.Todos().Get(ctx, id); err == nil { // read before a delete
		httpkit.Owner(c, td.MemberID)
	}
	switch action {
	case "complete":
		_, err = s.schedule.Todos().Complete(ctx, id, "", "completed by an admin")
	case "delete":
		err = s.schedule.Todos().Delete(ctx, id)
	}
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/admin/todos?show="+show)
}

// liveTodos re-renders the list when items change.
func (s *todoPages) liveTodos(c echo.Context) error {
	show, csrf := todoShow(c.QueryParam("show")), httpkit.CSRFToken(c)
	return s.adminStream(c, isKind("todo"), func(ctx context.Context) ([]templ.Component, error) {
		rows, err := s.todoRows(ctx, show)
		if err != nil {
			return nil, err
		}
		return []templ.Component{adminview.TodosTable(csrf, show, rows)}, nil
	})
}
