package web

import (
	"net/http"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"
	"github.com/starfederation/datastar-go/datastar"

	"hearth/internal/text"
	"hearth/views"
)

func render(c echo.Context, status int, cmp templ.Component) error {
	c.Response().Header().Set(echo.HeaderContentType, echo.MIMETextHTMLCharsetUTF8)
	c.Response().WriteHeader(status)
	return cmp.Render(c.Request().Context(), c.Response())
}

// newSSE commits the response through Echo before handing it to Datastar so
// Echo does not write the header a second time.
func newSSE(c echo.Context) *datastar.ServerSentEventGenerator {
	h := c.Response().Header()
	h.Set(echo.HeaderContentType, "text/event-stream")
	h.Set(echo.HeaderCacheControl, "no-cache")
	h.Set("X-Accel-Buffering", "no")
	c.Response().WriteHeader(http.StatusOK)
	return datastar.NewSSE(sseWriter{c.Response()}, c.Request())
}

// sseWriter removes every "\r" from what an SSE stream writes. The Datastar
// client ends a line at a lone "\r" while datastar-go splits only on "\n",
// so a "\r" in patched text could end a data line and forge an event (one
// whose non-JSON signals the client evaluates as code). Text is checked
// where it enters (package text); this is the last line of defence, so no
// future input path can reopen it. The SDK frames events with "\n" only, so
// dropping "\r" cannot break the framing.
type sseWriter struct{ http.ResponseWriter }

func (w sseWriter) Write(b []byte) (int, error) {
	if _, err := w.ResponseWriter.Write(text.WithoutCR(b)); err != nil {
		return 0, err
	}
	return len(b), nil
}

// Unwrap lets http.ResponseController reach Flush and SetWriteDeadline.
func (w sseWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// patchFlash answers a Datastar request with a message in the page's flash area.
func patchFlash(c echo.Context, msg string, fields map[string]string) error {
	if len(fields) > 0 {
		msg += ": " + fieldList(fields)
	}
	return newSSE(c).PatchElementTempl(views.Flash(msg, true))
}

func (s *Server) page(c echo.Context, title string) views.Page {
	return views.Page{Title: title, CSRF: csrfToken(c)}
}
