package web

import (
	"net/http/httptest"
	"testing"
)

// The first CSRF layer refuses what a browser marks as coming from another
// site, or whose Origin is not this host; requests without either signal
// (scripts) and same-origin ones pass on to the token check.
func TestCrossOriginLayer(t *testing.T) {
	for _, c := range []struct {
		name    string
		headers map[string]string
		refused bool
	}{
		{"cross-site", map[string]string{"Sec-Fetch-Site": "cross-site"}, true},
		{"same-site (a sibling subdomain)", map[string]string{"Sec-Fetch-Site": "same-site"}, true},
		{"foreign origin, no fetch metadata", map[string]string{"Origin": "http://evil.example"}, true},
		{"opaque origin", map[string]string{"Origin": "null"}, true},
		{"same-origin", map[string]string{"Sec-Fetch-Site": "same-origin"}, false},
		{"typed in the address bar", map[string]string{"Sec-Fetch-Site": "none"}, false},
		{"own origin, no fetch metadata", map[string]string{"Origin": "http://hearth.lan:8080"}, false},
		{"a script (no browser signal)", nil, false},
	} {
		r := httptest.NewRequest("POST", "http://hearth.lan:8080/m/ada/weight", nil)
		for k, v := range c.headers {
			r.Header.Set(k, v)
		}
		if got := crossOrigin.Check(r) != nil; got != c.refused {
			t.Errorf("%s: refused = %v, want %v", c.name, got, c.refused)
		}
	}
}
