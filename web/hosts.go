package web

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"os"
	"strings"

	"github.com/labstack/echo/v4"
)

// hostSet is the Host names Hearth answers to. A page on a rebinding domain
// (attacker.example first resolving to the attacker, then to 127.0.0.1 or
// the kiosk's LAN address) is "same origin" with Hearth in the browser and
// would reach the kiosk, its APIs and, in open mode, the admin: refusing
// every other Host closes that.
type hostSet map[string]bool

// loopbackNames always reach Hearth.
var loopbackNames = []string{"localhost", "127.0.0.1", "::1"}

// newHostSet allows the loopback names, the listen address's host and the
// configured names. With a wildcard listen address (0.0.0.0, ::, or none)
// it adds the machine's host name (and its .local mDNS name) and every
// interface address, since a household will use one of those.
func newHostSet(listen string, extra []string) hostSet {
	h := hostSet{}
	for _, n := range loopbackNames {
		h[n] = true
	}
	for _, n := range extra {
		if n = normHost(n); n != "" {
			h[n] = true
		}
	}
	host := listen
	if hh, _, err := net.SplitHostPort(listen); err == nil {
		host = hh
	}
	host = normHost(host)
	if ip := net.ParseIP(host); host != "" && (ip == nil || !ip.IsUnspecified()) {
		h[host] = true
		return h
	}
	for _, n := range machineNames() {
		h[n] = true
	}
	for _, a := range interfaceAddrs() {
		h[normHost(a.Addr.String())] = true
	}
	return h
}

// machineNames are the machine's host name and, for a bare name, its .local
// mDNS name.
func machineNames() []string {
	name, err := os.Hostname()
	if err != nil || name == "" {
		return nil
	}
	name = normHost(name)
	if strings.Contains(name, ".") {
		return []string{name}
	}
	return []string{name, name + ".local"}
}

// ifaceAddr is one address of a network interface.
type ifaceAddr struct {
	Iface string
	Up    bool
	Addr  netip.Addr
}

// interfaceAddrs lists every interface address (loopback included).
func interfaceAddrs() []ifaceAddr {
	ifs, err := net.Interfaces()
	if err != nil {
		return nil
	}
	var out []ifaceAddr
	for _, i := range ifs {
		addrs, err := i.Addrs()
		if err != nil {
			continue
		}
		for _, a := range addrs {
			if ipn, ok := a.(*net.IPNet); ok {
				if ip, ok := netip.AddrFromSlice(ipn.IP); ok {
					out = append(out, ifaceAddr{Iface: i.Name, Up: i.Flags&net.FlagUp != 0, Addr: ip.Unmap()})
				}
			}
		}
	}
	return out
}

// normHost lower-cases a host name and strips a port, IPv6 brackets and a
// trailing dot.
func normHost(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	if h, _, err := net.SplitHostPort(s); err == nil {
		s = h
	}
	s = strings.TrimSuffix(strings.TrimPrefix(s, "["), "]")
	return strings.TrimSuffix(s, ".")
}

func (h hostSet) allows(host string) bool { return h[normHost(host)] }

// isLoopbackHost reports whether the request's Host is a loopback name.
func isLoopbackHost(host string) bool {
	n := normHost(host)
	for _, l := range loopbackNames {
		if n == l {
			return true
		}
	}
	return false
}

// hostGuard answers 421 to a request for a Host not in the set.
func (s *Server) hostGuard(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if host := c.Request().Host; !s.hosts.allows(host) {
			s.log.Warn("request for an unknown host refused", "host", host, "remote", c.RealIP())
			return echo.NewHTTPError(http.StatusMisdirectedRequest, fmt.Sprintf(
				"Hearth does not answer to the name %q. If this is your household's address for Hearth, add it to HEARTH_HOSTS (comma separated).",
				normHost(host)))
		}
		return next(c)
	}
}

// forwarded reports whether a proxy forwarded the request: a reverse proxy
// on the same machine makes every client look like loopback.
func forwarded(r *http.Request) bool {
	for _, h := range []string{"Forwarded", "X-Forwarded-For", "X-Forwarded-Host", "X-Real-Ip"} {
		if r.Header.Get(h) != "" {
			return true
		}
	}
	return false
}
