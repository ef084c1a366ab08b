package kiosk

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"hearth/internal/agent"
	"hearth/internal/apperr"
	"hearth/views"
	"hearth/web/httpkit"
)

// prepareWait bounds how long the tap waits for the coach; a model can be
// slow, and the run carries on after the wait (the stream shows its result).
const prepareWait = 90 * time.Second

// prepareCooldown is how soon a member may ask again after a run that did
// not leave a plan: each tap may cost a model call.
const prepareCooldown = time.Minute

// cooldowns remembers when each member last started a run.
type cooldowns struct {
	mu   sync.Mutex
	last map[string]time.Time
}

// take starts a run for key unless one started within d; it returns how
// long to wait otherwise.
func (c *cooldowns) take(key string, now time.Time, d time.Duration) time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.last == nil {
		c.last = map[string]time.Time{}
	}
	if at, ok := c.last[key]; ok && now.Sub(at) < d {
		return d - now.Sub(at)
	}
	c.last[key] = now
	return 0
}

// preparer runs "prepare my day now".
type preparer struct {
	household  Household
	dashboards Dashboards
	coach      DayPreparer
	loc        *time.Location
	// cooldowns rate-limit "Prepare my day" per member.
	cooldowns cooldowns
	gate      modelGate // each run may call the model
}

// kioskPrepare runs the daily-dashboard assignment for the member now. The
// new document reaches every open screen over the live stream; this answers
// only with how it went.
func (h *preparer) kioskPrepare(c echo.Context) error {
	if h.coach == nil {
		return apperr.Invalidf("the coach is not available")
	}
	id := c.Param("member")
	ctx := c.Request().Context()
	if _, err := h.household.Member(ctx, id); err != nil {
		return err
	}
	// A second tap (another screen, an impatient member) while today's plan
	// exists gets that plan, not a new run.
	if _, err := h.dashboards.Get(ctx, id, today(h.loc)); err == nil {
		return h.prepared(c, id, "Your day is ready.")
	} else if !apperr.Is(err, apperr.NotFound) {
		return err
	}
	if err := h.gate.take(c, id); err != nil {
		return err
	}
	if wait := h.cooldowns.take(id, time.Now(), prepareCooldown); wait > 0 {
		c.Response().Header().Set("Retry-After", strconv.Itoa(int(wait.Seconds())+1))
		return apperr.New(apperr.TooMany, "your coach tried a moment ago; try again in %d seconds", int(wait.Seconds())+1)
	}
	wctx, cancel := context.WithTimeout(ctx, prepareWait)
	defer cancel()
	run, err := h.coach.PrepareDay(wctx, id)
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
	return h.prepared(c, id, msg)
}

// prepared answers a prepare request with msg.
func (h *preparer) prepared(c echo.Context, id, msg string) error {
	if !httpkit.IsDatastar(c) {
		return c.Redirect(http.StatusSeeOther, "/m/"+id)
	}
	return httpkit.NewSSE(c).PatchElementTempl(views.Flash(msg, false))
}
