package kiosk

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

// shownMessages is how many open messages the coach column shows.
const shownMessages = 5

// messageViews are the member's open messages for the coach column.
func (s *dashboardModels) messageViews(ctx context.Context, member string, now time.Time) ([]kioskview.MessageView, error) {
	if s.deps.Messages == nil {
		return nil, nil
	}
	ms, err := s.deps.Messages.List(ctx, messages.Filter{Member: member, Open: true, Limit: shownMessages})
	if err != nil {
		return nil, err
	}
	out := make([]kioskview.MessageView, 0, len(ms))
	for _, m := range ms {
		out = append(out, kioskview.MessageView{Text: m.Text, When: views.When(m.CreatedAt, now, s.opt.Location),
			Dismiss: fmt.Sprintf("/m/%s/messages/%d/dismiss", member, m.ID)})
	}
	return out, nil
}

// messagePages dismiss the coach's messages.
type messagePages struct {
	messages Messages // nil: no messages
}

// kioskDismissMessage hides a message from the member's dashboard; the
// stream re-renders the coach column on every screen.
func (h *messagePages) kioskDismissMessage(c echo.Context) error {
	if h.messages == nil {
		return apperr.NotFoundf("no messages here")
	}
	member := c.Param("member")
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil || id < 1 {
		return apperr.NotFoundf("no message %q", c.Param("id"))
	}
	if err := h.messages.Dismiss(c.Request().Context(), member, id); err != nil {
		return err
	}
	if !httpkit.IsDatastar(c) {
		return c.Redirect(http.StatusSeeOther, "/m/"+member)
	}
	httpkit.NewSSE(c) // the stream patches the coach column
	return nil
}
