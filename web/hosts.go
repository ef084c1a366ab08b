package web

import (
	"fmt"
	"hearth/web/httpkit"
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

// newHostSet allows the loopback names, the listen address's host and the
// configured names. With a wildcard listen address (0.0.0.0, ::, or none)
// it adds the machine's host name (and its .local mDNS name) and every
// interface address, since a household will use one of those.
func newHostSet(listen string, extra []string) hostSet {
	h := hostSet{}
	for _, n := range httpkit.LoopbackNames {
		h[n] = true
	}
	for _, n := range extra {
		if n = httpkit.NormHost(n); n != "" {
			h[n] = true
		}
	}
	host := listen
	if hh, _, err := net.SplitHostPort(listen); err == nil {
		host = hh
	}
	host = httpkit.NormHost(host)
	if ip := net.ParseIP(host); host != "" && (ip == nil || !ip.IsUnspecified()) {
		h[host] = true
		return h
	}
	for _, n := range machineNames() {
		h[n] = true
	}
	for _, a := range interfaceAddrs() {
		h[httpkit.NormHost(a.Addr.String())] = true
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
	name = httpkit.NormHost(name)
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

func (h hostSet) allows(host string) bool { return h[httpkit.NormHost(host)] }

// hostGuard answers 421 to a request for a Host not in the set.
func (s *Server) hostGuard(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if host := c.Request().Host; !s.hosts.allows(host) {
			s.log.Warn("request for an unknown host refused", "host", host, "remote", c.RealIP())
			return echo.NewHTTPError(http.StatusMisdirectedRequest, fmt.Sprintf(
				"Hearth does not answer to the name %q. If this is your household's address for Hearth, add it to HEARTH_HOSTS (comma separated).",
				httpkit.NormHost(host)))
		}
		return next(c)
	}
}
