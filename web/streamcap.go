package web

import (
	"net/http"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"

	"hearth/internal/apperr"
	"hearth/web/httpkit"
	"hearth/web/ratelimit"
)

// Default stream caps: a household has a few screens; thousands of open
// streams from one address are an attack or a bug, and each holds memory.
const (
	DefaultMaxStreams          = 2000
	DefaultMaxStreamsPerClient = 50
)

// streamCap counts open live streams in total and per client address.
type streamCap struct {
	mu        sync.Mutex
	total     int
	perClient map[string]int
	max, per  int
}

func newStreamCap(maxTotal, perClient int) *streamCap {
	if maxTotal <= 0 {
		maxTotal = DefaultMaxStreams
	}
	if perClient <= 0 {
		perClient = DefaultMaxStreamsPerClient
	}
	return &streamCap{perClient: map[string]int{}, max: maxTotal, per: perClient}
}

// acquire takes a slot for client, or reports false over a cap.
func (s *streamCap) acquire(client string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.total >= s.max || s.perClient[client] >= s.per {
		return false
	}
	s.total++
	s.perClient[client]++
	return true
}

func (s *streamCap) release(client string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.total--
	if s.perClient[client]--; s.perClient[client] <= 0 {
		delete(s.perClient, client)
	}
}

// isStreamRoute reports whether a route is a live stream (they all live
// under /live/ or /admin/live/).
func isStreamRoute(path string) bool {
	return strings.HasPrefix(path, "/live/") || strings.HasPrefix(path, "/admin/live/")
}

// limitStreams answers 429 to a live stream over the caps. Datastar retries
// it, so a screen comes back once another closes.
func (s *Server) limitStreams(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if c.Request().Method != http.MethodGet || !isStreamRoute(c.Path()) {
			return next(c)
		}
		client := ratelimit.ClientKey(c.RealIP()) // an IPv6 device's whole /64 is one client
		if !s.streams.acquire(client) {
			s.log.Warn("live stream refused: too many open", "remote", client)
			c.Response().Header().Set("Retry-After", "10")
			return apperr.New(apperr.TooMany, "too many open live screens; close one and this one reconnects")
		}
		// A stream that detaches from net/http (stream_detach.go) takes its
		// slot along and releases it when it ends.
		release := sync.OnceFunc(func() { s.streams.release(client) })
		c.Set(httpkit.CtxStreamRelease, release)
		err := next(c)
		if c.Get(httpkit.CtxStreamDetached) == nil {
			release()
		}
		return err
	}
}
