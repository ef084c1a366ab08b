package web

import (
	"net/http"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"
	"github.com/starfederation/datastar-go/datastar"

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
	return datastar.NewSSE(c.Response(), c.Request())
}

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
