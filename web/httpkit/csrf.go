package httpkit

import "github.com/labstack/echo/v4"

// The CSRF token travels in a cookie and comes back in this header
// (Datastar requests) or this form field (plain forms, uploads).
const (
	CSRFCookie = "hearth_csrf"
	CSRFHeader = "X-CSRF-Token"
	CSRFField  = "_csrf"
	csrfKey    = "csrf"
)

// SetCSRFToken keeps the client's token on the request (the CSRF
// middleware does, before any handler runs).
func SetCSRFToken(c echo.Context, tok string) { c.Set(csrfKey, tok) }

// CSRFToken is the client's token, for the forms and Datastar actions a
// page renders.
func CSRFToken(c echo.Context) string {
	t, _ := c.Get(csrfKey).(string)
	return t
}
