package admin

import (
	"context"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"hearth/internal/messages"
	"hearth/views"
	"hearth/views/adminview"
	"hearth/web/httpkit"
)

// Messages are the coach's messages to members as the admin lists them
// (*messages.Service).
type Messages interface {
	List(ctx context.Context, f messages.Filter) ([]messages.Message, error)
}

// messagePages is Admin → Messages.
type messagePages struct {
	*core
	messages Messages
}

// messageRows are messages for the admin's tables; none without msgs.
func messageRows(ctx context.Context, msgs Messages, loc *time.Location, f messages.Filter) ([]adminview.MessageRow, error) {
	if msgs == nil {
		return nil, nil
	}
	ms, err := msgs.List(ctx, f)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	out := make([]adminview.MessageRow, 0, len(ms))
	for _, m := range ms {
		status := "shown"
		if m.DismissedAt != nil {
			status = "dismissed " + views.When(*m.DismissedAt, now, loc)
		}
		out = append(out, adminview.MessageRow{Member: m.MemberID, Agent: m.AgentID, Source: m.Source, Text: m.Text,
			When: views.When(m.CreatedAt, now, loc), Status: status})
	}
	return out, nil
}

// adminMessages is Admin → Messages.
func (s *messagePages) adminMessages(c echo.Context) error {
	rows, err := messageRows(c.Request().Context(), s.messages, s.opt.Location, messages.Filter{Limit: 200})
	if err != nil {
		return err
	}
	return httpkit.Render(c, http.StatusOK, adminview.AdminMessagesPage(adminview.AdminMessages{AdminPage: s.adminPage(c, "Messages", "messages"), Rows: rows}))
}
