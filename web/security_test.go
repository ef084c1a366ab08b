package web_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"hearth/internal/agent"
	"hearth/internal/app"
	"hearth/internal/household"
	"hearth/internal/store/storetest"
	"hearth/internal/testkit"
	"hearth/web"
)

// hostGet serves one GET with the given Host from a loopback client.
func hostGet(e http.Handler, host, path string, header map[string]string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodGet, "http://"+host+path, nil)
	req.RemoteAddr = "127.0.0.1:40000"
	for k, v := range header {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, req)
	return rec
}

// A page on a rebinding domain is same-origin with Hearth in the browser:
// Hearth answers only to the names it was given.
func TestHostAllowList(t *testing.T) {
	a := newTestApp(t, withEnv("HEARTH_ADDR", "127.0.0.1:8080"), withEnv("HEARTH_HOSTS", "Hearth.LAN., 192.168.1.20")).app
	db, e := a.DB, a.Echo
	storetest.Member(t, db, "ada")
	for _, host := range []string{"attacker.example", "attacker.example:8080", "127.0.0.1.nip.io", "hearth.lan.evil"} {
		for _, p := range []string{"/", "/healthz", "/api/v1/members", "/admin/household"} {
			if rec := hostGet(e, host, p, nil); rec.Code != http.StatusMisdirectedRequest || !strings.Contains(rec.Body.String(), "HEARTH_HOSTS") {
				t.Errorf("Host %s GET %s: %d, want 421 naming HEARTH_HOSTS", host, p, rec.Code)
			}
		}
	}
	req := httptest.NewRequest(http.MethodPost, "http://attacker.example/api/v1/members/ada/meals", strings.NewReader(`{"name":"x","calories":1}`))
	req.Header.Set("Content-Type", "application/json")
	req.RemoteAddr = "127.0.0.1:40000"
	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, req)
	if rec.Code != http.StatusMisdirectedRequest || countRows(t, db, "meals") != 0 {
		t.Fatalf("rebinding POST: %d, %d meals", rec.Code, countRows(t, db, "meals"))
	}
	for _, host := range []string{"localhost:8080", "127.0.0.1", "[::1]:8080", "hearth.lan", "HEARTH.lan:8080", "192.168.1.20:8080"} {
		if rec := hostGet(e, host, "/api/v1/members", nil); rec.Code != http.StatusOK {
			t.Errorf("Host %s: %d, want 200", host, rec.Code)
		}
	}
	// Open admin (no password, no token) needs a loopback client that asked
	// for a loopback name, with no proxy in between.
	if rec := hostGet(e, "localhost:8080", "/admin/household", nil); rec.Code != http.StatusOK {
		t.Errorf("loopback admin: %d", rec.Code)
	}
	if rec := hostGet(e, "hearth.lan", "/admin/household", nil); rec.Code != http.StatusForbidden {
		t.Errorf("open admin under a LAN name: %d, want 403", rec.Code)
	}
	if rec := hostGet(e, "127.0.0.1", "/admin/household", map[string]string{"X-Forwarded-For": "203.0.113.9"}); rec.Code != http.StatusForbidden ||
		!strings.Contains(rec.Body.String(), "proxy") {
		t.Errorf("open admin behind a proxy: %d %s", rec.Code, rec.Body.String())
	}
}

// With a wildcard listen address the machine's own names and addresses work.
func TestHostAllowListWildcard(t *testing.T) {
	e := newTestApp(t, withEnv("HEARTH_ADDR", "0.0.0.0:8080")).app.Echo
	name, _ := os.Hostname()
	hosts := []string{strings.ToLower(name)}
	if !strings.Contains(name, ".") {
		hosts = append(hosts, strings.ToLower(name)+".local")
	}
	addrs, _ := net.InterfaceAddrs()
	for _, a := range addrs {
		if ipn, ok := a.(*net.IPNet); ok && ipn.IP.To4() != nil {
			hosts = append(hosts, ipn.IP.String())
		}
	}
	for _, h := range hosts {
		if rec := hostGet(e, h, "/healthz", nil); rec.Code != http.StatusOK {
			t.Errorf("Host %s on a wildcard listener: %d", h, rec.Code)
		}
	}
	if rec := hostGet(e, "attacker.example", "/healthz", nil); rec.Code != http.StatusMisdirectedRequest {
		t.Errorf("foreign host on a wildcard listener: %d", rec.Code)
	}
}

// Live streams are capped per client address; a closed stream frees its slot.
func TestStreamCaps(t *testing.T) {
	k := newKioskWith(t, withEnv("HEARTH_MAX_STREAMS_PER_CLIENT", "2"))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	open := func(ctx context.Context) *http.Response {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, k.srv.URL+"/live/m/ada", nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	first, second := open(ctx), open(ctx)
	defer first.Body.Close()
	defer second.Body.Close()
	if first.StatusCode != 200 || second.StatusCode != 200 {
		t.Fatalf("streams: %d %d", first.StatusCode, second.StatusCode)
	}
	third := open(ctx)
	third.Body.Close()
	if third.StatusCode != http.StatusTooManyRequests || third.Header.Get("Retry-After") == "" {
		t.Fatalf("third stream: %d, want 429 with Retry-After", third.StatusCode)
	}
	ctx2, cancel2 := context.WithCancel(context.Background())
	s2 := open(ctx2)
	s2.Body.Close()
	cancel2()
	first.Body.Close() // frees a slot once the server notices
	testkit.WaitFor(t, testkit.Patience, "a slot after a stream closed", func() bool {
		r := open(ctx)
		r.Body.Close()
		return r.StatusCode == 200
	})
}

// A body that trickles in is cut at the deadline (408), not held forever.
func TestSlowBodyIsCut(t *testing.T) {
	k := newKioskWith(t, withOptions(func(o *app.Options) { o.BodyTimeout = 300 * time.Millisecond }))
	conn, err := net.Dial("tcp", strings.TrimPrefix(k.srv.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /api/v1/members/ada/meals HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"name\":")
	start := time.Now()
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	line, err := bufio.NewReader(conn).ReadString('\n')
	took := time.Since(start)
	if err == nil && !strings.Contains(line, "408") {
		t.Fatalf("slow body answered %q", line)
	}
	if took > 3*time.Second {
		t.Fatalf("slow body held the connection for %v", took)
	}
	if n := countRows(t, k.db, "meals"); n != 0 {
		t.Fatalf("%d meals stored", n)
	}
}

// isLoginPath: the admin's open routes, the way in and out.
func isLoginPath(p string) bool {
	return p == "/admin/login" || p == "/admin/logout" || p == "/admin/login/link"
}

// isAdminPath is the policy under test: every route under /admin but the
// login (and its one-time link) and logout, /debug, and /api except the household API and its
// description needs the admin.
func isAdminPath(p string) bool {
	switch {
	case isLoginPath(p):
		return false
	case p == "/admin" || strings.HasPrefix(p, "/admin/") || strings.HasPrefix(p, "/debug/"):
		return true
	case strings.HasPrefix(p, "/api/v1/") || p == "/api/openapi.json":
		return false
	}
	return strings.HasPrefix(p, "/api/")
}

// Every admin route refuses an anonymous client before reading its body.
func TestEveryAdminRouteAuthenticatesFirst(t *testing.T) {
	env := newAdminEnv(t, withPassword("hunter2", "tok"))
	n := 0
	for _, rt := range env.e.(*echo.Echo).Routes() {
		if !isAdminPath(rt.Path) || strings.Contains(rt.Path, "*") || rt.Method == "echo_route_not_found" {
			continue
		}
		n++
		path := strings.NewReplacer(":agent", "tester", ":assignment", "note", ":member", "ada", ":id", "1",
			":action", "pause", ":change", "1", ":goal", "1").Replace(rt.Path)
		req, _ := http.NewRequest(rt.Method, env.srv.URL+path, strings.NewReader("x=1"))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		resp, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		switch resp.StatusCode {
		case http.StatusUnauthorized, http.StatusSeeOther:
		default:
			t.Errorf("%s %s without login: %d", rt.Method, path, resp.StatusCode)
		}
	}
	if n < 20 {
		t.Fatalf("only %d admin routes checked", n)
	}
}

// An anonymous 50 MB multipart upload is refused before the server parses
// or spools it (the CSRF check used to parse it looking for a token).
func TestAnonymousUploadIsNotSpooled(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	env := newAdminEnv(t, withPassword("hunter2", ""))
	size := func() int64 {
		var total int64
		for _, dir := range []string{tmp, env.uploadDir} {
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				if info, err := e.Info(); err == nil {
					total += info.Size()
				}
			}
		}
		return total
	}
	stop := make(chan struct{})
	peak := make(chan int64, 1)
	go func() {
		var m int64
		for {
			m = max(m, size())
			select {
			case <-stop:
				peak <- max(m, size())
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	pr, pw := io.Pipe()
	go func() {
		fmt.Fprint(pw, "--zz\r\nContent-Disposition: form-data; name=\"file\"; filename=\"export.xml\"\r\nContent-Type: text/xml\r\n\r\n")
		chunk := []byte(strings.Repeat("<Record/>", 1<<14))
		for written := 0; written < 50<<20; written += len(chunk) {
			if _, err := pw.Write(chunk); err != nil {
				return
			}
		}
		fmt.Fprint(pw, "\r\n--zz\r\nContent-Disposition: form-data; name=\"_csrf\"\r\n\r\nguess\r\n--zz--\r\n")
		pw.Close()
	}()
	req, _ := http.NewRequest(http.MethodPost, env.srv.URL+"/admin/imports", pr)
	req.Header.Set("Content-Type", "multipart/form-data; boundary=zz")
	resp, err := http.DefaultTransport.RoundTrip(req)
	close(stop)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if p := <-peak; p > 1<<20 {
		t.Errorf("the refused upload spooled %d bytes", p)
	}
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("anonymous upload: %d, want 401", resp.StatusCode)
	}
}

// failingCoach is a coach whose runs fail, counting calls.
type failingCoach struct{ calls atomic.Int32 }

func (f *failingCoach) PrepareDay(context.Context, string) (agent.Run, error) {
	f.calls.Add(1)
	return agent.Run{Status: agent.StatusFailed}, nil
}

// "Prepare my day" cannot be tapped into a run per tap: after a run that
// left no plan, the member waits a minute.
func TestPrepareDayCooldown(t *testing.T) {
	coach := &failingCoach{}
	k := newKioskWith(t, withOptions(func(o *app.Options) { o.Deps = func(d *web.Deps) { d.Coach = coach } }))
	for i, want := range []string{"could not prepare your day", "try again in"} {
		resp, body := k.post("/m/ada/prepare", url.Values{}, "")
		if resp.StatusCode != 200 || !strings.Contains(body, want) {
			t.Fatalf("tap %d: %d %q, want %q", i+1, resp.StatusCode, body, want)
		}
	}
	if n := coach.calls.Load(); n != 1 {
		t.Fatalf("%d runs for two taps, want 1", n)
	}
}

// A chunked body (no Content-Length) over the route's limit is 413, and an
// explicit zero or pre-1900 time is refused rather than read as "now".
func TestAPIBodyAndTimeLimits(t *testing.T) {
	k := newKiosk(t)
	pr, pw := io.Pipe()
	go func() {
		fmt.Fprint(pw, `{"name":"`)
		_, _ = pw.Write([]byte(strings.Repeat("a", 1500<<10)))
		fmt.Fprint(pw, `","calories":1}`)
		pw.Close()
	}()
	req, _ := http.NewRequest(http.MethodPost, k.srv.URL+"/api/v1/members/ada/meals", pr)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("chunked 1.5 MB body: %d, want 413", resp.StatusCode)
	}
	for _, at := range []string{"0001-01-01T00:00:00Z", "1899-12-31T23:00:00Z", "2999-01-01T00:00:00Z"} {
		code, body := do(t, http.MethodPost, k.srv.URL+"/api/v1/members/ada/weight", `{"weight_kg":70,"measured_at":"`+at+`"}`)
		if code != http.StatusBadRequest {
			t.Errorf("measured_at %s: %d %v, want 400", at, code, body)
		}
	}
	if n := countRows(t, k.db, "weight_readings"); n != 0 {
		t.Fatalf("%d readings stored", n)
	}
}

// Goals: sane targets and dates.
func TestGoalValidation(t *testing.T) {
	db := storetest.Open(t)
	storetest.Member(t, db, "ada")
	hh := household.New(db, nil)
	ctx := context.Background()
	big, neg := 1e9, -3.0
	for name, in := range map[string]household.GoalInput{
		"huge weight":       {Kind: "weight", Description: "Reach it", Target: &big},
		"negative sessions": {Kind: "workouts_per_week", Description: "Train", Target: &neg},
		"ancient date":      {Kind: "habit", Description: "Walk", TargetDate: "1800-01-01"},
		"far future":        {Kind: "habit", Description: "Walk", TargetDate: "2300-01-01"},
		"escape code":       {Kind: "habit", Description: "Walk\x1b[2J"},
		"too long":          {Kind: "habit", Description: strings.Repeat("w", 201)},
	} {
		if _, err := hh.AddGoal(ctx, "ada", in); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	w := 64.5
	if _, err := hh.AddGoal(ctx, "ada", household.GoalInput{Kind: "weight", Description: "Reach 64.5 kg", Target: &w, TargetDate: time.Now().AddDate(0, 6, 0).Format(time.DateOnly)}); err != nil {
		t.Fatalf("a sane goal: %v", err)
	}
}

// The CSP allows no <base>, forms only to Hearth, and images and media
// from Hearth only (Plex thumbnails are proxied: not even the configured
// Plex server is an origin a page loads from); admin answers are not cached; with
// HEARTH_SECURE_COOKIES the session cookie is Secure.
func TestHeadersCSPCacheAndSecureCookies(t *testing.T) {
	env := newAdminEnv(t, withPassword("hunter2", ""), withEnv("PLEX_URL", "http://plex.lan:32400/"), withEnv("HEARTH_SECURE_COOKIES", "1"))
	resp, err := http.Get(env.srv.URL + "/admin/login")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	csp := resp.Header.Get("Content-Security-Policy")
	for _, want := range []string{"base-uri 'none'", "form-action 'self'", "img-src 'self' data: blob:;", "media-src 'self' blob:;", "object-src 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("CSP %q lacks %q", csp, want)
		}
	}
	if strings.Contains(csp, "plex.lan") || strings.Contains(csp, "https:;") || strings.Contains(csp, " https: ") || strings.HasSuffix(csp, "https:") {
		t.Errorf("CSP allows any https origin: %q", csp)
	}
	resp, _ = env.form("/admin/login", url.Values{"password": {"hunter2"}}, false)
	var secure bool
	for _, ck := range resp.Cookies() {
		if ck.Name == "hearth_admin" {
			secure = ck.Secure
		}
	}
	if !secure {
		t.Error("session cookie is not Secure with SecureCookies")
	}
	code, _ := env.page("/admin/household")
	r, _ := env.client.Get(env.srv.URL + "/admin/household")
	r.Body.Close()
	if code != 200 || r.Header.Get("Cache-Control") != "no-store" {
		t.Errorf("admin page: %d Cache-Control %q, want no-store", code, r.Header.Get("Cache-Control"))
	}
}

// A CSRF token in the query string is not accepted (it would end up in
// access logs), and a title made from a workout type is capitalised by rune.
func TestCSRFNotFromQueryAndRuneTitles(t *testing.T) {
	k := newKiosk(t)
	req, _ := http.NewRequest(http.MethodPost, k.srv.URL+"/m/ada/meal?_csrf="+k.csrf, strings.NewReader("name=Oats&calories=100"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := k.client.Do(req) // the jar sends the CSRF cookie
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden || countRows(t, k.db, "meals") != 0 {
		t.Fatalf("token in the query: %d, %d meals", resp.StatusCode, countRows(t, k.db, "meals"))
	}
	code, body := do(t, http.MethodPost, k.srv.URL+"/api/v1/members/ada/workouts", `{"type":"étirements","duration_min":10}`)
	if code != http.StatusCreated || body["title"] != "Étirements" {
		t.Fatalf("title from type: %d %v", code, body)
	}
}

// streamWriter is a ResponseWriter for a live stream served in the test's
// goroutine: wrote closes once the stream answered (headers or a first
// event), so a test knows the stream holds its slot.
type streamWriter struct {
	h     http.Header
	code  int
	once  sync.Once
	wrote chan struct{}
}

func (w *streamWriter) Header() http.Header { return w.h }
func (w *streamWriter) WriteHeader(code int) {
	w.once.Do(func() { w.code = code; close(w.wrote) })
}
func (w *streamWriter) Write(b []byte) (int, error) { w.WriteHeader(http.StatusOK); return len(b), nil }
func (w *streamWriter) Flush()                      {}

// The per-client cap on live streams counts an IPv6 device's whole /64 as
// one client, like every per-client budget: a device picks new addresses
// in its prefix at will.
func TestStreamCapGroupsIPv6By64(t *testing.T) {
	k := newKioskWith(t, withEnv("HEARTH_MAX_STREAMS_PER_CLIENT", "2"))
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	defer func() { cancel(); wg.Wait() }()
	open := func(addr string) int {
		t.Helper()
		req := httptest.NewRequest(http.MethodGet, "http://127.0.0.1/live/m/ada", nil).WithContext(ctx)
		req.RemoteAddr = "[" + addr + "]:40000"
		w := &streamWriter{h: http.Header{}, wrote: make(chan struct{})}
		wg.Add(1)
		go func() { defer wg.Done(); k.app.Echo.ServeHTTP(w, req) }()
		select {
		case <-w.wrote:
		case <-time.After(5 * time.Second):
			t.Fatalf("the stream from %s never answered", addr)
		}
		return w.code
	}
	if a, b := open("2001:db8:1:2::1"), open("2001:db8:1:2::2"); a != http.StatusOK || b != http.StatusOK {
		t.Fatalf("two streams from one /64: %d %d", a, b)
	}
	if c := open("2001:db8:1:2::ffff"); c != http.StatusTooManyRequests {
		t.Fatalf("a third address in the same /64: %d, want 429", c)
	}
	if d := open("2001:db8:1:3::1"); d != http.StatusOK {
		t.Fatalf("the next /64: %d, want 200", d)
	}
}
