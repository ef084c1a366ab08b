package httpkit

import (
	"net"
	"net/http"
	"strings"
)

// LoopbackNames always reach Hearth.
var LoopbackNames = []string{"localhost", "127.0.0.1", "::1"}

// NormHost lower-cases a host name and strips a port, IPv6 brackets and a
// trailing dot.
func NormHost(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	if h, _, err := net.SplitHostPort(s); err == nil {
		s = h
	}
	s = strings.TrimSuffix(strings.TrimPrefix(s, "["), "]")
	return strings.TrimSuffix(s, ".")
}

// IsLoopbackHost reports whether the request's Host is a loopback name.
func IsLoopbackHost(host string) bool {
	n := NormHost(host)
	for _, l := range LoopbackNames {
		if n == l {
			return true
		}
	}
	return false
}

// Forwarded reports whether a proxy forwarded the request: a reverse proxy
// on the same machine makes every client look like loopback.
func Forwarded(r *http.Request) bool {
	for _, h := range []string{"Forwarded", "X-Forwarded-For", "X-Forwarded-Host", "X-Real-Ip"} {
		if r.Header.Get(h) != "" {
			return true
		}
	}
	return false
}
