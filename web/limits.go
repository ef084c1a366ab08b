package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"hearth/internal/content"
	"hearth/internal/voice"
)

// DefaultBodyLimit caps request bodies on routes without a larger allowance.
const DefaultBodyLimit = 2 << 20

// multipartSlack covers multipart framing and the small fields beside a file.
const multipartSlack = 1 << 20

// bodyLimit caps every request body by route before anything reads it (the
// CSRF check may parse a form), so no route can be made to spool an
// unbounded upload. Upload routes get twice their handler's own limit: the
// handler answers with its specific message, this is only the backstop.
func (s *Server) bodyLimit(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		limit := s.routeBodyLimit(c.Path())
		r := c.Request()
		if r.ContentLength > limit {
			return echo.NewHTTPError(http.StatusRequestEntityTooLarge, "request body too large")
		}
		if r.Body != nil && r.Body != http.NoBody {
			r.Body = http.MaxBytesReader(c.Response(), r.Body, limit)
		}
		return next(c)
	}
}

func (s *Server) routeBodyLimit(route string) int64 {
	switch route {
	case "/admin/imports":
		n := s.deps.Admin.MaxImportBytes
		if n <= 0 {
			n = DefaultMaxImportBytes
		}
		return n + multipartSlack
	case "/admin/catalog/import":
		return 2*content.MaxFileSize + multipartSlack
	case "/m/:member/voice":
		return 2*voice.MaxSize + multipartSlack
	}
	return DefaultBodyLimit
}
