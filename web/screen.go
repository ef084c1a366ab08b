package web

import (
	"hearth/web/httpkit"
	"net"
	"net/netip"
	"slices"
	"strings"
)

// ScreenAddress is the URL a screen on the household network (a wall
// tablet, a TV browser) opens Hearth's kiosk at.
type ScreenAddress struct {
	URL string
	// From says where the host name came from: "HEARTH_HOSTS", "the listen
	// address" or "this machine's LAN address".
	From string
	// Others are more URLs that reach the kiosk (the machine's .local name,
	// the other HEARTH_HOSTS).
	Others []string
	// Problem, when set, says why a screen on another device cannot open
	// URL, and what to change.
	Problem string
	// Local is the URL for a browser on this machine (a Pi driving its own screen).
	Local string
}

// ScreenURL works out the kiosk URL for a screen from the listen address
// (HEARTH_ADDR) and HEARTH_HOSTS, with the names the host allow-list
// answers to (newHostSet), so the URL shown is never refused with 421: the
// first HEARTH_HOSTS name that is not a loopback name; else a specific
// listen address; else, listening on a wildcard address, the machine's LAN
// address.
func ScreenURL(listen string, hosts []string) ScreenAddress {
	host, port, err := net.SplitHostPort(listen)
	if err != nil {
		host, port = listen, "80"
	}
	host = httpkit.NormHost(host)
	url := func(h string) string {
		if strings.Contains(h, ":") {
			h = "[" + h + "]"
		}
		if port != "80" {
			h += ":" + port
		}
		return "http://" + h + "/"
	}
	var named []string
	for _, h := range hosts {
		if h = httpkit.NormHost(h); h != "" && !httpkit.IsLoopbackHost(h) && !slices.Contains(named, h) {
			named = append(named, h)
		}
	}
	ip, ipErr := netip.ParseAddr(host)
	wildcard := host == "" || (ipErr == nil && ip.IsUnspecified())
	loopbackOnly := host == "localhost" || (ipErr == nil && ip.IsLoopback())

	s := ScreenAddress{Local: url(host)}
	if wildcard {
		s.Local = url("localhost")
	}
	switch {
	case len(named) > 0:
		s.URL, s.From = url(named[0]), "HEARTH_HOSTS"
		for _, n := range named[1:] {
			s.Others = append(s.Others, url(n))
		}
	case !wildcard:
		s.URL, s.From = url(host), "the listen address"
	default:
		if a, ok := pickLAN(interfaceAddrs()); ok {
			s.URL, s.From = url(a.String()), "this machine's LAN address"
		} else {
			s.URL, s.From = url("localhost"), "the listen address"
			s.Problem = "This machine has no network address besides loopback: connect it to the household network, or set HEARTH_HOSTS to the name screens use."
		}
		for _, n := range machineNames() {
			if u := url(n); u != s.URL {
				s.Others = append(s.Others, u)
			}
		}
	}
	if loopbackOnly {
		s.Problem = "Hearth listens on " + listen + ", which only a browser on this machine can open. For a tablet, " +
			"set HEARTH_ADDR=0.0.0.0:" + port + " (or this machine's address) and restart Hearth."
	}
	return s
}

// pickLAN chooses the address a household device most likely reaches this
// machine at: an up, non-loopback interface that is not a container or VM
// bridge; IPv4 before IPv6, private (home router) ranges first, and never
// link-local addresses, which a phone or tablet cannot use in a URL
// without a zone.
func pickLAN(addrs []ifaceAddr) (netip.Addr, bool) {
	rank := func(a ifaceAddr) int {
		switch {
		case !a.Up, a.Addr.IsLoopback(), a.Addr.IsLinkLocalUnicast(), a.Addr.IsUnspecified(), a.Addr.IsMulticast():
			return -1
		case virtualIface(a.Iface):
			return 1 // better than nothing
		}
		r := 2
		if a.Addr.Is4() {
			r += 2
		}
		if a.Addr.IsPrivate() {
			r++
		}
		return r
	}
	best, bestRank := netip.Addr{}, 0
	for _, a := range addrs {
		if r := rank(a); r > bestRank {
			best, bestRank = a.Addr, r
		}
	}
	return best, bestRank > 0
}

// virtualIface reports interfaces that containers and VMs create on the
// host: an address there is not on the household network.
func virtualIface(name string) bool {
	for _, p := range []string{"docker", "br-", "veth", "virbr", "vnet", "lxc", "lxd", "cni", "flannel", "podman", "tailscale", "zt", "wg", "tun", "tap"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}
