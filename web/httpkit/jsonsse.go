package httpkit

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
)

// JSONEvents is a plain (non-Datastar) server-sent event stream of JSON
// values, for API clients: "event: <name>\ndata: <json>\n\n". Every write
// goes through SSEWriter, so no "\r" in a value can end a line early.
type JSONEvents struct {
	res *echo.Response
	w   SSEWriter
}

// StartJSONEvents commits the SSE headers and lifts the write deadline (a
// stream outlives the server's write timeout).
func StartJSONEvents(c echo.Context) *JSONEvents {
	res := c.Response()
	_ = http.NewResponseController(res).SetWriteDeadline(time.Time{})
	h := res.Header()
	h.Set(echo.HeaderContentType, "text/event-stream")
	h.Set(echo.HeaderCacheControl, "no-cache")
	h.Set("X-Accel-Buffering", "no")
	res.WriteHeader(http.StatusOK)
	return &JSONEvents{res: res, w: SSEWriter{res}}
}

// Send writes one event without flushing (Flush sends a batch at once).
func (e *JSONEvents) Send(event string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("httpkit: event %s: %w", event, err)
	}
	_, err = fmt.Fprintf(e.w, "event: %s\ndata: %s\n\n", event, b)
	return err
}

// KeepAlive writes an SSE comment and flushes; an error means the client went.
func (e *JSONEvents) KeepAlive() error {
	if _, err := fmt.Fprint(e.w, ": keep-alive\n\n"); err != nil {
		return err
	}
	e.Flush()
	return nil
}

// Flush sends what was written.
func (e *JSONEvents) Flush() { e.res.Flush() }
