package web

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"hearth/internal/agent"
	"hearth/internal/apperr"
	"hearth/views"
)

// prepareWait bounds how long the tap waits for the coach; a model can be
// slow, and the run carries on after the wait (the stream shows its result).
const prepareWait = 90 * time.Second

// kioskPrepare runs the daily-dashboard assignment for the member now. The
// new document reaches every open screen over the live stream; this answers
// only with how it went.
func (s *Server) kioskPrepare(c echo.Context) error {
	if s.deps.Coach == nil {
		return apperr.Invalidf("the coach is not available")
	}
	id := c.Param("member")
	ctx := c.Request().Context()
	if _, err := s.deps.Household.Member(ctx, id); err != nil {
		return err
	}
	wctx, cancel := context.WithTimeout(ctx, prepareWait)
	defer cancel()
	run, err := s.deps.Coach.PrepareDay(wctx, id)
	msg := "Your day is ready."
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		msg = "Your coach is still preparing your day; this screen updates when it is ready."
	case err != nil:
		return err
	case run.Status == agent.StatusFellBack:
		msg = "Your day is ready (prepared by the built-in coach; the model was unavailable)."
	case run.Status != agent.StatusSucceeded:
		return apperr.New(apperr.Unavailable, "the coach could not prepare your day; your numbers stay live, try again later")
	}
	if !isDatastar(c) {
		return c.Redirect(http.StatusSeeOther, "/m/"+id)
	}
	return newSSE(c).PatchElementTempl(views.Flash(msg, false))
}
