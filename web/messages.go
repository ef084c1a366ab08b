package web

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"hearth/internal/apperr"
	"hearth/internal/messages"
	"hearth/views"
	"hearth/views/kioskview"
	"hearth/web/httpkit"
)

// Messages are the coach's messages to members (*messages.Service).
type Messages interface {
	List(ctx context.Context, f messages.Filter) ([]messages.Message, error)
	Dismiss(ctx context.Context, member string, id int64) error
}

// shownMessages is how many open messages the coach column shows.
const shownMessages = 5

// messageViews are the member's open messages for the coach column.
func (s *Server) messageViews(ctx context.Context, member string, now time.Time) ([]kioskview.MessageView, error) {
	if s.deps.Messages == nil {
		return nil, nil
	}
	ms, err := s.deps.Messages.List(ctx, messages.Filter{Member: member, Open: true, Limit: shownMessages})
	if err != nil {
		return nil, err
	}
	out := make([]kioskview.MessageView, 0, len(ms))
	for _, m := range ms {
		out = append(out, kioskview.MessageView{Text: m.Text, When: when(m.CreatedAt, now, s.opt.Location),
			Dismiss: fmt.Sprintf("/m/%s/messages/%d/dismiss", member, m.ID)})
	}
	return out, nil
}

// kioskDismissMessage hides a message from the member's dashboard; the
// stream re-renders the coach column on every screen.
func (s *Server) kioskDismissMessage(c echo.Context) error {
	if s.deps.Messages == nil {
		return apperr.NotFoundf("no messages here")
	}
	member := c.Param("member")
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil || id < 1 {
		return apperr.NotFoundf("no message %q", c.Param("id"))
	}
	if err := s.deps.Messages.Dismiss(c.Request().Context(), member, id); err != nil {
		return err
	}
	if !httpkit.IsDatastar(c) {
		return c.Redirect(http.StatusSeeOther, "/m/"+member)
	}
	httpkit.NewSSE(c) // the stream patches the coach column
	return nil
}

// messageRows are messages for the admin's tables.
func (s *Server) messageRows(ctx context.Context, f messages.Filter) ([]views.MessageRow, error) {
	if s.deps.Messages == nil {
		return nil, nil
	}
	ms, err := s.deps.Messages.List(ctx, f)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	out := make([]views.MessageRow, 0, len(ms))
	for _, m := range ms {
		status := "shown"
		if m.DismissedAt != nil {
			status = "dismissed " + when(*m.DismissedAt, now, s.opt.Location)
		}
		out = append(out, views.MessageRow{Member: m.MemberID, Agent: m.AgentID, Source: m.Source, Text: m.Text,
			When: when(m.CreatedAt, now, s.opt.Location), Status: status})
	}
	return out, nil
}

// adminMessages is Admin → Messages.
func (s *Server) adminMessages(c echo.Context) error {
	rows, err := s.messageRows(c.Request().Context(), messages.Filter{Limit: 200})
	if err != nil {
		return err
	}
	return httpkit.Render(c, http.StatusOK, views.AdminMessagesPage(views.AdminMessages{AdminPage: s.adminPage(c, "Messages", "messages"), Rows: rows}))
}
