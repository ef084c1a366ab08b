package web_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// fuzzRoutes lists the real server's routes of one method, optionally only
// under a prefix, skipping the ones that start coach runs (their bodies are
// covered by the sweep; a fuzzer would only queue runs).
func fuzzRoutes(s *swServer, method, prefix string, api bool) []string {
	var out []string
	for _, r := range s.app.Echo.Routes() {
		if r.Method != method || !strings.HasPrefix(r.Path, prefix) || strings.HasSuffix(r.Path, "/run") ||
			strings.HasSuffix(r.Path, "/run-background") || strings.Contains(r.Path, "/live/") {
			continue
		}
		if strings.HasPrefix(r.Path, "/api/") != api {
			continue
		}
		out = append(out, r.Path)
	}
	return out
}

// fuzzCheck applies the sweep's rules to one fuzzed request: never a 5xx,
// injected markup never verbatim, and a refused request stores nothing.
func fuzzCheck(t *testing.T, s *swServer, r swReq) {
	t.Helper()
	before := s.digest(t)
	rec := s.do(r)
	what := r.method + " " + r.path
	if rec.Code >= 500 {
		t.Fatalf("%s with %q: status %d: %.300s", what, r.body, rec.Code, rec.Body.String())
	}
	swCheckEscaped(t, what, rec.Body.String())
	if rec.Code >= 400 && s.digest(t) != before {
		t.Fatalf("%s with %q: refused with %d but stored a change", what, r.body, rec.Code)
	}
	if strings.HasPrefix(r.path, "/api/") && rec.Code >= 400 {
		var body struct{ Error string }
		if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil || body.Error == "" {
			t.Fatalf("%s: API error %d without a JSON message: %.300s", what, rec.Code, rec.Body.String())
		}
	}
}

// FuzzAPIJSON sends arbitrary bodies to every JSON API route that accepts
// one (bindJSON, field validation, the household service).
//
//	go test -run '^$' -fuzz FuzzAPIJSON -fuzztime 30s ./web/
func FuzzAPIJSON(f *testing.F) {
	for _, seed := range []string{
		`{"weight_kg": 70.5}`, `{"weight_kg": 70.5, "measured_at": "2026-02-14T07:30:00Z", "body_fat_pct": 20}`,
		`{"name": "Oats", "calories": 420, "protein_g": 18}`, `{"type": "run", "duration_min": 30, "avg_hr": 150}`,
		`{"body_fat_pct": 22.5, "lean_mass_kg": 50}`, `{"answer": "Yes"}`, `{"weight_kg": 1e309}`, `{"weight_kg": -0}`,
		`{"weight_kg": "70"}`, `{"calories": null, "name": ""}`, `[]`, `null`, `{"a":1}`, `{"weight_kg": 70} x`,
		`{"name": "<script>sweep(1)</script>", "calories": 5}`, `{"measured_at": "9999-99-99"}`, "\xff\xfe",
		`{"description":"x","kind":"interval","schedule":"0","agent":"health-coach"}`,
	} {
		for i := range 8 {
			f.Add(uint8(i), []byte(seed))
		}
	}
	s := newSweepServer(f)
	var routes [][2]string // method, path
	for _, m := range []string{http.MethodPost, http.MethodPut} {
		for _, p := range fuzzRoutes(s, m, "/api/", true) {
			routes = append(routes, [2]string{m, p})
		}
	}
	if len(routes) == 0 {
		f.Fatal("no JSON API routes")
	}
	f.Fuzz(func(t *testing.T, route uint8, body []byte) {
		r := routes[int(route)%len(routes)]
		fuzzCheck(t, s, swReq{method: r[0], path: s.fill(r[1], ""), ctype: "application/json", body: body})
	})
}

// FuzzForms sends arbitrary urlencoded bodies to every kiosk and admin form
// route, as a plain form post and as a Datastar action.
//
//	go test -run '^$' -fuzz FuzzForms -fuzztime 30s ./web/
func FuzzForms(f *testing.F) {
	for _, seed := range []string{
		"weight=70.5", "weight=70%2C5", "weight=abc", "weight=", "weight=1e400", "weight=NaN", "weight=-Inf",
		"name=Oats&calories=420&protein_g=18", "name=&calories=x", "type=run&duration_min=30&avg_hr=1.5",
		"prompt=p1&answer=Yes&kind=tap", "private=on", "private=maybe", "ids=local%3Aember-core-01&ids=x&op=add",
		"%zz=%%", "a=1&a=2&a=3", "name=%3Cscript%3Esweep(1)%3C%2Fscript%3E&calories=1",
		"id=1&name=Zoe&unit=st&color=red", "kind=weight&target=-5&target_date=yesterday",
	} {
		for i := range 16 {
			f.Add(uint8(i), []byte(seed), i%2 == 0)
		}
	}
	s := newSweepServer(f)
	routes := fuzzRoutes(s, http.MethodPost, "/", false)
	if len(routes) == 0 {
		f.Fatal("no form routes")
	}
	f.Fuzz(func(t *testing.T, route uint8, body []byte, datastar bool) {
		path := s.fill(routes[int(route)%len(routes)], "")
		fuzzCheck(t, s, swReq{method: http.MethodPost, path: path, ctype: "application/x-www-form-urlencoded",
			body: body, datastar: datastar})
	})
}

// FuzzQuery sends arbitrary path values and query strings to every GET
// route (list limits, catalog search, dashboard dates, Datastar signals in
// ?datastar=).
//
//	go test -run '^$' -fuzz FuzzQuery -fuzztime 30s ./web/
func FuzzQuery(f *testing.F) {
	for _, seed := range [][2]string{
		{"", "limit=5"}, {"maya", "limit=0"}, {"maya", "limit=99999999999999999999"}, {"theo", "q=core&kind=video"},
		{"2026-02-30", ""}, {"today", "datastar=%7B%22x%22%3A1%7D"}, {"..%2F..%2Fetc%2Fpasswd", ""},
		{"%3Cscript%3E", "q=%3Cscript%3Esweep(1)%3C%2Fscript%3E"}, {"local:ember-core-01", "t=1"}, {"\x00", "%zz"},
	} {
		for i := range 24 {
			f.Add(uint8(i), seed[0], seed[1])
		}
	}
	s := newSweepServer(f)
	var routes []string
	for _, api := range []bool{false, true} {
		routes = append(routes, fuzzRoutes(s, http.MethodGet, "/", api)...)
	}
	f.Fuzz(func(t *testing.T, route uint8, param, query string) {
		rt := routes[int(route)%len(routes)]
		path := s.fill(rt, "")
		if param != "" && strings.Contains(rt, ":") {
			path = s.fill(rt, param)
		}
		if query != "" {
			path += "?" + query
		}
		if strings.ContainsAny(path, " \x00\r\n\t#") || !strings.HasPrefix(path, "/") {
			return // not a request line a client can send
		}
		if _, err := url.ParseRequestURI("http://127.0.0.1:8080" + path); err != nil {
			return
		}
		fuzzCheck(t, s, swReq{method: http.MethodGet, path: path})
	})
}
