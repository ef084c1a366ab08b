package web

import (
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"testing"
)

func TestScreenURL(t *testing.T) {
	cases := []struct {
		listen  string
		hosts   []string
		want    string
		others  []string
		problem string // a substring; "" = none
	}{
		{"0.0.0.0:8080", []string{"Hearth.LAN.", "192.168.1.20"}, "http://hearth.lan:8080/", []string{"http://192.168.1.20:8080/"}, ""},
		{"0.0.0.0:8080", []string{"localhost", "hearth.lan"}, "http://hearth.lan:8080/", nil, ""},
		{"192.168.1.20:8080", nil, "http://192.168.1.20:8080/", nil, ""},
		{"0.0.0.0:80", []string{"hearth.lan"}, "http://hearth.lan/", nil, ""},
		{"[fd00::5]:8080", nil, "http://[fd00::5]:8080/", nil, ""},
		{"127.0.0.1:8080", nil, "http://127.0.0.1:8080/", nil, "HEARTH_ADDR=0.0.0.0:8080"},
		{"localhost:9000", []string{"hearth.lan"}, "http://hearth.lan:9000/", nil, "HEARTH_ADDR=0.0.0.0:9000"},
	}
	for _, c := range cases {
		s := ScreenURL(c.listen, c.hosts)
		if s.URL != c.want || !slices.Equal(s.Others, c.others) {
			t.Errorf("ScreenURL(%q, %q) = %q others %q, want %q others %q", c.listen, c.hosts, s.URL, s.Others, c.want, c.others)
		}
		if (c.problem == "") != (s.Problem == "") || !strings.Contains(s.Problem, c.problem) {
			t.Errorf("ScreenURL(%q, %q) problem %q, want one with %q", c.listen, c.hosts, s.Problem, c.problem)
		}
		allowedBy(t, s, c.listen, c.hosts)
		if u, _ := url.Parse(s.Local); !newHostSet(c.listen, c.hosts).allows(u.Host) || u.Port() != portOf(c.listen) {
			t.Errorf("ScreenURL(%q): local URL %q is not answered", c.listen, s.Local)
		}
	}
}

func portOf(listen string) string {
	if strings.HasSuffix(listen, ":80") {
		return ""
	}
	return listen[strings.LastIndex(listen, ":")+1:]
}

// On a wildcard address the URL is this machine's LAN address (when it has
// one), and the allow-list answers to it.
func TestScreenURLWildcard(t *testing.T) {
	for _, listen := range []string{"0.0.0.0:8080", ":8080", "[::]:8080"} {
		s := ScreenURL(listen, nil)
		lan, ok := pickLAN(interfaceAddrs())
		if !ok {
			if s.Problem == "" {
				t.Errorf("%s: no LAN address and no problem reported: %+v", listen, s)
			}
			continue
		}
		u, _ := url.Parse(s.URL)
		if got, _ := netip.ParseAddr(u.Hostname()); got != lan || u.Port() != "8080" || s.Problem != "" {
			t.Errorf("%s: %+v, want the LAN address %s on port 8080", listen, s, lan)
		}
		allowedBy(t, s, listen, nil)
	}
}

// allowedBy fails unless the host allow-list of (listen, hosts) answers to
// every URL s offers: a URL that gets 421 would be worse than none.
func allowedBy(t *testing.T, s ScreenAddress, listen string, hosts []string) {
	t.Helper()
	set := newHostSet(listen, hosts)
	for _, raw := range append([]string{s.URL}, s.Others...) {
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatalf("%q: %v", raw, err)
		}
		if !set.allows(u.Host) {
			t.Errorf("listen %q hosts %q: the allow-list refuses %s", listen, hosts, raw)
		}
	}
}

func TestPickLAN(t *testing.T) {
	a := func(iface string, up bool, addr string) ifaceAddr {
		return ifaceAddr{Iface: iface, Up: up, Addr: netip.MustParseAddr(addr)}
	}
	cases := []struct {
		addrs []ifaceAddr
		want  string // "" = none
	}{
		{[]ifaceAddr{a("lo", true, "127.0.0.1"), a("docker0", true, "172.17.0.1"), a("eth0", true, "192.168.1.20")}, "192.168.1.20"},
		{[]ifaceAddr{a("eth0", true, "fd00::20"), a("wlan0", true, "192.168.1.21")}, "192.168.1.21"},
		{[]ifaceAddr{a("wlan0", false, "192.168.1.21"), a("eth0", true, "10.0.0.5")}, "10.0.0.5"},
		{[]ifaceAddr{a("eth0", true, "fe80::1"), a("lo", true, "::1")}, ""},
		{[]ifaceAddr{a("eth0", true, "203.0.113.7"), a("wlan0", true, "192.168.1.21")}, "192.168.1.21"},
		{[]ifaceAddr{a("docker0", true, "172.17.0.1")}, "172.17.0.1"}, // better than nothing
	}
	for _, c := range cases {
		got, ok := pickLAN(c.addrs)
		if (c.want == "") == ok || (ok && got.String() != c.want) {
			t.Errorf("pickLAN(%v) = %v %v, want %q", c.addrs, got, ok, c.want)
		}
	}
}
