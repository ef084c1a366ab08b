// Package enrol is the way a screen gets in when the household requires
// device tokens: the enrolment link the admin made (Admin → Screens) is
// opened on the screen, which confirms and receives its device token in a
// cookie. These routes are open (they are the way in): the link is
// single-use, expires and carries a 128-bit random code (internal/devices).
package enrol

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/labstack/echo/v4"

	"hearth/internal/apperr"
	"hearth/internal/devices"
	"hearth/views/kioskview"
	"hearth/web/httpkit"
)

// Enrolments are the links as the screen uses them (*devices.Service).
type Enrolments interface {
	Enrolment(ctx context.Context, code string) (devices.Device, error)
	Enrol(ctx context.Context, code string) (devices.Device, string, error)
}

// Options are the per-server values.
type Options struct {
	Logger *slog.Logger
	// SecureCookies marks the device cookie Secure on plain HTTP too
	// (behind a TLS-terminating proxy); over TLS it always is.
	SecureCookies bool
}

// Routes registers GET /enrol/:code (asks to confirm: opening a link must
// not use it, link previews open links too) and POST /enrol/:code (uses
// it: sets the cookie, then the kiosk home). Both carry the request
// middleware (CSRF guards the POST).
func Routes(e *echo.Echo, links Enrolments, opt Options, mw httpkit.Middleware) {
	if opt.Logger == nil {
		opt.Logger = slog.New(slog.DiscardHandler)
	}
	p := &pages{links: links, opt: opt}
	e.GET("/enrol/:code", p.confirm, mw.Request...)
	e.POST("/enrol/:code", p.enrol, mw.Request...)
}

type pages struct {
	links Enrolments
	opt   Options
}

func (p *pages) confirm(c echo.Context) error {
	c.Response().Header().Set(echo.HeaderCacheControl, "no-store")
	code := c.Param("code")
	d, err := p.links.Enrolment(c.Request().Context(), code)
	if err != nil {
		return p.refused(c, err)
	}
	return httpkit.Render(c, http.StatusOK, kioskview.EnrolScreen(httpkit.Page(c, "Enrol this screen"), d.Name, "/enrol/"+code))
}

func (p *pages) enrol(c echo.Context) error {
	c.Response().Header().Set(echo.HeaderCacheControl, "no-store")
	d, token, err := p.links.Enrol(c.Request().Context(), c.Param("code"))
	if err != nil {
		return p.refused(c, err)
	}
	c.SetCookie(httpkit.NewDeviceCookie(c.Request(), token, p.opt.SecureCookies))
	p.opt.Logger.Info("screen enrolled", "device", d.ID, "name", d.Name, "ip", c.RealIP())
	return c.Redirect(http.StatusSeeOther, "/")
}

// refused shows why a link cannot be used (a page, its status); other
// errors go to the server's error handler.
func (p *pages) refused(c echo.Context, err error) error {
	ae := apperr.As(err)
	if ae == nil || ae.Code != apperr.NotFound {
		return err
	}
	p.opt.Logger.Warn("enrolment link refused", "ip", c.RealIP())
	return httpkit.Render(c, http.StatusNotFound, kioskview.EnrolRefused(httpkit.Page(c, "Enrolment link"), ae.Message))
}
