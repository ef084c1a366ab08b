package web

import (
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"hearth/internal/content"
	"hearth/internal/voice"
	"hearth/web/admin"
	"hearth/web/httpkit"
)

// DefaultBodyLimit caps request bodies on routes without a larger allowance.
const DefaultBodyLimit = 2 << 20

// multipartSlack covers multipart framing and the small fields beside a file.
const multipartSlack = 1 << 20

// bodyLimit caps every request body by route before anything reads it (the
// CSRF check may parse a form), so no route can be made to spool an
// unbounded upload. Upload routes get twice their handler's own limit: the
// handler answers with its specific message, this is only the backstop.
//
// A body must also arrive in time (bodyReadTime): a client that trickles
// one byte a second would otherwise hold a connection and a goroutine for
// as long as it likes.
func (s *Server) bodyLimit(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		limit := s.routeBodyLimit(c.Path())
		r := c.Request()
		if r.ContentLength > limit {
			return echo.NewHTTPError(http.StatusRequestEntityTooLarge, "request body too large")
		}
		if r.Body != nil && r.Body != http.NoBody {
			rc := http.NewResponseController(c.Response())
			if err := rc.SetReadDeadline(time.Now().Add(s.bodyReadTime(limit))); err == nil {
				r.Body = &deadlineBody{ReadCloser: r.Body, rc: rc}
			}
			r.Body = http.MaxBytesReader(c.Response(), r.Body, limit)
		}
		return next(c)
	}
}

// minBodyRate is the slowest upload accepted (a phone on poor Wi-Fi still
// sends far more).
const minBodyRate = 256 << 10 // bytes per second

// bodyReadTime is how long a body of up to limit bytes may take:
// Options.BodyTimeout (a minute), and for upload routes (limits above the
// default) as long as their limit takes at minBodyRate.
func (s *Server) bodyReadTime(limit int64) time.Duration {
	if limit <= DefaultBodyLimit {
		return s.opt.BodyTimeout
	}
	return max(s.opt.BodyTimeout, time.Duration(limit/minBodyRate)*time.Second)
}

// deadlineBody lifts the read deadline once the whole body has arrived:
// the server keeps reading the connection after the body, and a deadline
// left in place would cancel a long answer (a stream) when it passes. After
// a timeout the deadline stays, so the server's own read of the rest of
// the body fails at once and the connection is closed.
type deadlineBody struct {
	io.ReadCloser
	rc   *http.ResponseController
	done bool
}

func (b *deadlineBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF && !b.done {
		b.done = true
		_ = b.rc.SetReadDeadline(time.Time{})
	}
	return n, err
}

func (s *Server) routeBodyLimit(route string) int64 {
	switch route {
	case "/admin/imports":
		n := s.deps.Admin.MaxImportBytes
		if n <= 0 {
			n = admin.DefaultMaxImportBytes
		}
		return n + multipartSlack
	case "/admin/catalog/import":
		return 2*content.MaxFileSize + multipartSlack
	case "/m/:member/voice":
		return 2*voice.MaxSize + multipartSlack
	}
	if strings.HasPrefix(route, "/api/") {
		return httpkit.MaxJSONBody
	}
	return DefaultBodyLimit
}
