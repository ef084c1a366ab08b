package web

import (
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"hearth/views"
	"hearth/web/httpkit"
)

// handleError is the one error path: map, log internals once, answer in the
// shape the client understands (JSON for /api, a patch for Datastar, a page).
func (s *Server) handleError(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	code, body := httpkit.Classify(err)
	if code == http.StatusInsufficientStorage {
		s.diskFullAt.Store(time.Now().UnixNano())
	}
	if code >= 500 {
		s.log.ErrorContext(c.Request().Context(), "request failed", "err", err,
			"method", c.Request().Method, "uri", logURI(c.Request(), c.Request().RequestURI),
			"request_id", c.Response().Header().Get(echo.HeaderXRequestID))
	}
	if code == 404 && strings.HasPrefix(c.Path(), "/api/v1/health-dashboard") {
		body.Fallback = "live" // clients show live state widgets instead
	}
	r := c.Request()
	switch {
	case strings.HasPrefix(r.URL.Path, "/api/"):
		err = c.JSON(code, body)
	case r.Header.Get("Datastar-Request") == "true":
		// Datastar drops non-200 answers: show the message in the page's flash area instead.
		err = httpkit.PatchFlash(c, body.Error, body.Fields)
	case r.Method == http.MethodHead:
		err = c.NoContent(code)
	default:
		err = httpkit.Render(c, code, views.ErrorPage(code, http.StatusText(code), body.Error))
	}
	if err != nil {
		s.log.Warn("writing error response", "err", err)
	}
}
