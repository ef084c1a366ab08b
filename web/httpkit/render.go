// Package httpkit is what the web audiences (kiosk, admin, api) share:
// rendering pages and SSE patches, one JSON-SSE writer, JSON binding, the
// error classification, detached live streams and the CSRF token. It
// imports no handler package and holds no per-server state of its own.
package httpkit

import (
	"fmt"
	"net/http"
	"regexp"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"
	"github.com/starfederation/datastar-go/datastar"

	"hearth/internal/text"
	"hearth/views"
)

// Render writes cmp as the whole HTML answer with status.
func Render(c echo.Context, status int, cmp templ.Component) error {
	c.Response().Header().Set(echo.HeaderContentType, echo.MIMETextHTMLCharsetUTF8)
	c.Response().WriteHeader(status)
	return cmp.Render(c.Request().Context(), c.Response())
}

// NewSSE commits the response through Echo before handing it to Datastar so
// Echo does not write the header a second time.
func NewSSE(c echo.Context) *datastar.ServerSentEventGenerator {
	h := c.Response().Header()
	h.Set(echo.HeaderContentType, "text/event-stream")
	h.Set(echo.HeaderCacheControl, "no-cache")
	h.Set("X-Accel-Buffering", "no")
	c.Response().WriteHeader(http.StatusOK)
	return datastar.NewSSE(SSEWriter{c.Response()}, c.Request())
}

// SSEWriter removes every "\r" from what an SSE stream writes. The Datastar
// client ends a line at a lone "\r" while datastar-go splits only on "\n",
// so a "\r" in patched text could end a data line and forge an event (one
// whose non-JSON signals the client evaluates as code). Text is checked
// where it enters (package text); this is the last line of defence, so no
// future input path can reopen it. The SDK frames events with "\n" only, so
// dropping "\r" cannot break the framing.
type SSEWriter struct{ http.ResponseWriter }

func (w SSEWriter) Write(b []byte) (int, error) {
	if _, err := w.ResponseWriter.Write(text.WithoutCR(b)); err != nil {
		return 0, err
	}
	return len(b), nil
}

// Unwrap lets http.ResponseController reach Flush and SetWriteDeadline.
func (w SSEWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// PatchFlash answers a Datastar request with a message in the page's flash area.
func PatchFlash(c echo.Context, msg string, fields map[string]string) error {
	if len(fields) > 0 {
		msg += ": " + FieldList(fields)
	}
	return NewSSE(c).PatchElementTempl(views.Flash(msg, true))
}

// Page is the frame of a full page: its title and the client's CSRF token.
func Page(c echo.Context, title string) views.Page {
	return views.Page{Title: title, CSRF: CSRFToken(c)}
}

// IsDatastar reports whether the request came from a Datastar action (the
// answer is then an SSE patch, not a page).
func IsDatastar(c echo.Context) bool { return c.Request().Header.Get("Datastar-Request") == "true" }

// StartStream lifts the server's write deadline for a long-lived Datastar
// stream and commits its SSE headers.
func StartStream(c echo.Context) *datastar.ServerSentEventGenerator {
	_ = http.NewResponseController(c.Response()).SetWriteDeadline(time.Time{})
	return NewSSE(c)
}

// KeepAlive is a signal patch the page can observe (an SSE comment is
// invisible to it): hearth.js counts it as proof the stream is alive.
func KeepAlive(sse *datastar.ServerSentEventGenerator) error {
	return sse.MarshalAndPatchSignals(map[string]any{"_ka": time.Now().UnixMilli()})
}

// Navigate sends the page to url (a server-built path). Datastar's own
// Redirect appends an inline <script>, which Hearth's Content-Security-
// Policy blocks (no 'unsafe-inline' scripts): the page never moved. An
// element whose data-init Datastar evaluates (as every data-* expression,
// under 'unsafe-eval') moves it instead. Anything but a plain path (with
// at most a query of lower-case words) is refused: the URL sits inside a
// JavaScript string.
func Navigate(sse *datastar.ServerSentEventGenerator, url string) error {
	if !navigable.MatchString(url) {
		return fmt.Errorf("navigate: %q is not a plain path", url)
	}
	return sse.PatchElements(`<div data-init="window.location.assign('`+url+`')"></div>`,
		datastar.WithSelector("body"), datastar.WithModeAppend())
}

var navigable = regexp.MustCompile(`^/[A-Za-z0-9/_:.-]*(\?[a-z0-9=&-]*)?$`)
