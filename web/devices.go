package web

import (
	"context"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"hearth/internal/apperr"
	"hearth/internal/devices"
	"hearth/views/kioskview"
	"hearth/web/admin"
	"hearth/web/enrol"
	"hearth/web/httpkit"
)

// Devices are the household's device tokens (*devices.Service): the
// admin's Screens page, the enrolment links and the check below.
type Devices interface {
	admin.Devices
	enrol.Enrolments
	Check(ctx context.Context, token string) (devices.Device, error)
}

// needsDevice is the policy of the device-token mode: every path needs a
// device token but the few that must stay open (static assets, /healthz,
// the enrolment link) and the admin's (its own login guards it), so a
// kiosk route added later is covered without being listed. The household
// API and its description need one. Both forms of the path are checked
// (the router matches the raw one).
func needsDevice(r *http.Request) bool {
	return devicePath(r.URL.Path) || (r.URL.RawPath != "" && devicePath(r.URL.RawPath))
}

func devicePath(p string) bool {
	switch {
	case p == "/healthz", strings.HasPrefix(p, "/static/"), strings.HasPrefix(p, "/enrol/"):
		return false
	case p == "/admin" || strings.HasPrefix(p, "/admin/") || strings.HasPrefix(p, "/debug/"):
		return false
	case p == "/api/v1" || strings.HasPrefix(p, "/api/v1/") || p == "/api/openapi.json":
		return true
	case strings.HasPrefix(p, "/api/"):
		return false // the admin APIs
	}
	return true
}

// deviceGuard enforces "screens and the household API need a device
// token" when the household turned it on (Admin → Screens). It is global
// middleware, before anything reads the body: a screen or script without
// a valid token (cookie, or Authorization: Bearer) gets 401 and nothing of
// the household. The admin (a session, the API token, or loopback open
// mode) may use kiosk pages without one, as the admin can see everything
// anyway. Revoking a device deletes it, so its next request, or its live
// stream's next reconnect, is refused.
func (s *Server) deviceGuard(next echo.HandlerFunc) echo.HandlerFunc {
	dev := s.deps.Devices
	if dev == nil {
		return next
	}
	return func(c echo.Context) error {
		r := c.Request()
		if !needsDevice(r) {
			return next(c)
		}
		ctx := r.Context()
		on, err := dev.Required(ctx)
		if err != nil {
			return err
		}
		if !on {
			return next(c)
		}
		if tok, fromCookie := httpkit.DeviceToken(r); tok != "" {
			d, err := dev.Check(ctx, tok)
			if err == nil {
				if fromCookie && d.Touched { // renew the cookie's lifetime as the screen is seen
					c.SetCookie(httpkit.NewDeviceCookie(r, tok, s.opt.SecureCookies))
				}
				return next(c)
			}
			if !apperr.Is(err, apperr.Unauthorized) {
				return err
			}
		}
		if s.auth.Allowed(c) {
			return next(c)
		}
		return s.notEnrolled(c)
	}
}

// notEnrolled answers a request without a valid device token: the API's
// JSON error; a Datastar action's flash message (Datastar shows nothing of
// a non-200 answer); else the "not enrolled" page with 401, which also
// ends a live stream for good (the page's watchdog then reloads into it).
func (s *Server) notEnrolled(c echo.Context) error {
	r := c.Request()
	c.Response().Header().Set(echo.HeaderCacheControl, "no-store")
	if strings.HasPrefix(r.URL.Path, "/api/") || (httpkit.IsDatastar(c) && r.Method != http.MethodGet) {
		return devices.ErrNotEnrolled
	}
	return s.withAssets(func(c echo.Context) error {
		return httpkit.Render(c, http.StatusUnauthorized, kioskview.NotEnrolled(httpkit.Page(c, "Not enrolled")))
	})(c)
}

// logURI is r's URI for the logs (the access log and the error log),
// without an enrolment link's code, whatever form the URI came in.
func logURI(r *http.Request, uri string) string {
	if strings.HasPrefix(r.URL.Path, "/enrol/") || strings.HasPrefix(r.URL.RawPath, "/enrol/") {
		return "/enrol/…"
	}
	return uri
}
