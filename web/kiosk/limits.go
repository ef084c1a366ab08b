package kiosk

import (
	"errors"
	"strconv"

	"github.com/labstack/echo/v4"

	"hearth/internal/apperr"
	"hearth/web/ratelimit"
)

// modelGate charges the kiosk's requests that call a model (a chat turn,
// a transcription, a day prepared) to the limiter: per client address and
// per member, and one chat turn per member at a time. Anyone on the
// household network can send them, and each costs money or CPU.
type modelGate struct{ l *ratelimit.Limiter }

// client is the request's limiter key: its address (IPv6 by /64).
func client(c echo.Context) string { return ratelimit.ClientKey(c.RealIP()) }

// take charges one model call for member, or answers why not (tooMany).
func (g modelGate) take(c echo.Context, member string) error {
	return tooMany(c, g.l.Take(client(c), member))
}

// turn takes the member's chat turn slot and charges its model call; the
// caller binds the slot to the turn (free once it ends) or releases it.
func (g modelGate) turn(c echo.Context, member string) (*ratelimit.Slot, error) {
	sl, err := g.l.Turn(client(c), member)
	return sl, tooMany(c, err)
}

// tooMany turns a limiter's refusal into the member's message (TooMany,
// 429) with Retry-After set; other errors pass.
func tooMany(c echo.Context, err error) error {
	var d *ratelimit.Denied
	if !errors.As(err, &d) {
		return err
	}
	c.Response().Header().Set("Retry-After", strconv.Itoa(d.Seconds()))
	switch {
	case d.Busy:
		return apperr.New(apperr.TooMany, "your coach is still answering your last message; send this one when the answer is in")
	case d.Member:
		return apperr.New(apperr.TooMany, "that is a lot of questions in a short time; your coach can take the next one in %d seconds", d.Seconds())
	}
	return apperr.New(apperr.TooMany, "this screen has asked the coach a lot in a short time; try again in %d seconds", d.Seconds())
}
