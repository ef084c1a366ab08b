package web

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"hearth/internal/apperr"
	"hearth/views"
)

var codeStatus = map[apperr.Code]int{
	apperr.Invalid:      http.StatusBadRequest,
	apperr.NotFound:     http.StatusNotFound,
	apperr.Conflict:     http.StatusConflict,
	apperr.Unauthorized: http.StatusUnauthorized,
	apperr.TooLarge:     http.StatusRequestEntityTooLarge,
	apperr.Unavailable:  http.StatusServiceUnavailable,
	apperr.NoSpace:      http.StatusInsufficientStorage,
	apperr.TooMany:      http.StatusTooManyRequests,
	apperr.Implausible:  http.StatusUnprocessableEntity,
	apperr.Internal:     http.StatusInternalServerError,
}

// errorBody is the JSON shape of every API error.
type errorBody struct {
	Error string `json:"error"`
	// Code is the apperr code of the failure ("implausible": send again
	// with "confirm": true to store it anyway).
	Code     string            `json:"code,omitempty"`
	Fields   map[string]string `json:"fields,omitempty"`
	Fallback string            `json:"fallback,omitempty"`
}

// classify turns any error into a status and a user-safe body; internal
// details never reach the client.
func classify(err error) (int, errorBody) {
	var he *echo.HTTPError
	ae := apperr.As(err) // SQLite's disk-full and busy errors arrive translated
	switch {
	case ae != nil:
		code := codeStatus[ae.Code]
		if code == 0 || code == http.StatusInternalServerError {
			return 500, errorBody{Error: "internal error", Code: string(apperr.Internal)}
		}
		return code, errorBody{Error: ae.Message, Code: string(ae.Code), Fields: ae.Fields}
	case errors.As(err, &he):
		msg := http.StatusText(he.Code)
		if m, ok := he.Message.(string); ok && he.Code < 500 {
			msg = m
		}
		if he.Code == http.StatusRequestEntityTooLarge {
			msg = "request body too large"
		}
		return he.Code, errorBody{Error: msg}
	}
	return 500, errorBody{Error: "internal error", Code: string(apperr.Internal)}
}

// handleError is the one error path: map, log internals once, answer in the
// shape the client understands (JSON for /api, a patch for Datastar, a page).
func (s *Server) handleError(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	code, body := classify(err)
	if code == http.StatusInsufficientStorage {
		s.diskFullAt.Store(time.Now().UnixNano())
	}
	if code >= 500 {
		s.log.ErrorContext(c.Request().Context(), "request failed", "err", err,
			"method", c.Request().Method, "uri", c.Request().RequestURI,
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
		err = patchFlash(c, body.Error, body.Fields)
	case r.Method == http.MethodHead:
		err = c.NoContent(code)
	default:
		err = render(c, code, views.ErrorPage(code, http.StatusText(code), body.Error))
	}
	if err != nil {
		s.log.Warn("writing error response", "err", err)
	}
}

func fieldList(fields map[string]string) string {
	var b strings.Builder
	for k, v := range fields {
		fmt.Fprintf(&b, "%s %s; ", k, v)
	}
	return strings.TrimSuffix(b.String(), "; ")
}
