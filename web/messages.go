package web

import (
	"context"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"hearth/internal/messages"
	"hearth/views"
	"hearth/web/httpkit"
)

// Messages are the coach's messages to members (*messages.Service).
type Messages interface {
	List(ctx context.Context, f messages.Filter) ([]messages.Message, error)
	Dismiss(ctx context.Context, member string, id int64) error
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
