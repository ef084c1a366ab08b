package web_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
)

// adminPaths are every admin page, GET.
var adminPaths = []string{"/admin", "/admin/runs", "/admin/schedules", "/admin/memory", "/admin/todos",
	"/admin/catalog", "/admin/imports", "/admin/household"}

// TestAdminLoginRequired: pages refuse without login, a wrong password
// fails, the right one opens every page (one env: bcrypt is slow under -race).
func TestAdminLoginRequired(t *testing.T) {
	env := newAdminEnv(t, withPassword("hunter2", ""))
	for _, p := range adminPaths {
		resp, err := env.client.Get(env.srv.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(loc, "/admin/login?next=") {
			t.Errorf("GET %s without login: %d %q, want a redirect to the login", p, resp.StatusCode, loc)
		}
	}
	// A POST with a valid CSRF token but no session is refused, and does nothing.
	resp, _ := env.form("/admin/assignments/tester/note/run", url.Values{"member": {"ada"}}, false)
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("POST without login: %d, want 401", resp.StatusCode)
	}
	// Datastar only processes 200 answers: the refusal comes as a flash.
	_, body := env.form("/admin/memory", url.Values{"agent": {"tester"}, "member": {"ada"}, "key": {"k"}, "value": {"v"}}, true)
	mustContain(t, "Datastar POST without login", body, "login required")
	if runs, _ := env.orch.Runs().List(t.Context(), agentFilter()); len(runs) != 0 {
		t.Fatalf("refused POST started runs: %v", runs)
	}
	if entries, _ := env.orch.Memory().Entries(t.Context(), "tester", "ada"); len(entries) != 0 {
		t.Fatalf("refused POST wrote memory: %v", entries)
	}

	resp, body = env.form("/admin/login", url.Values{"password": {"wrong"}, "next": {"/admin/runs"}}, false)
	if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(body, "Wrong password") {
		t.Fatalf("wrong password: %d", resp.StatusCode)
	}
	for _, ck := range resp.Cookies() {
		if ck.Name == "hearth_admin" && ck.Value != "" {
			t.Fatal("a wrong password set a session cookie")
		}
	}
	if code, _ := env.page("/admin"); code != http.StatusSeeOther {
		t.Fatalf("after a wrong password /admin = %d", code)
	}
	resp, _ = env.form("/admin/login", url.Values{"password": {"hunter2"}, "next": {"/admin/runs"}}, false)
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/admin/runs" {
		t.Fatalf("right password: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	for _, p := range adminPaths {
		code, body := env.page(p)
		if code != http.StatusOK {
			t.Errorf("GET %s logged in: %d %s", p, code, body)
		}
		mustContain(t, "GET "+p+" logged in", body, `action="/admin/logout"`)
	}
}

func TestAdminRefusesRemoteClientsWhenOpen(t *testing.T) {
	env := newAdminEnv(t) // no password, no token: loopback only
	for _, p := range append(adminPaths, "/api/agents", "/api/runs", "/api/agent/tasks", "/admin/live/assignments") {
		req := httptest.NewRequest(http.MethodGet, "http://127.0.0.1"+p, nil)
		req.RemoteAddr = "192.0.2.10:51234"
		rec := httptest.NewRecorder()
		env.e.ServeHTTP(rec, req)
		if rec.Code != http.StatusForbidden {
			t.Errorf("GET %s from a remote client: %d, want 403", p, rec.Code)
		}
	}
	req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1/api/agents/tester/assignments/note/run", strings.NewReader(`{"member":"ada","wait":true}`))
	req.Header.Set("Content-Type", "application/json")
	req.RemoteAddr = "192.0.2.10:51234"
	rec := httptest.NewRecorder()
	env.e.ServeHTTP(rec, req)
	if rec.Code != http.StatusForbidden {
		t.Fatalf("remote POST: %d", rec.Code)
	}
	// The same request from loopback is let in, with no session to log out of.
	req = httptest.NewRequest(http.MethodGet, "http://127.0.0.1/admin", nil)
	req.RemoteAddr = "127.0.0.1:51234"
	rec = httptest.NewRecorder()
	env.e.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		t.Fatalf("loopback GET /admin: %d", rec.Code)
	}
	if strings.Contains(rec.Body.String(), "/admin/logout") {
		t.Fatal("loopback-open admin offers to log out")
	}
}

func TestAdminPostsNeedCSRFToken(t *testing.T) {
	env := newAdminEnv(t)
	defaults, err := env.sched.List(t.Context(), taskFilter())
	if err != nil {
		t.Fatal(err)
	}
	tok := env.token()
	post := func(path string, hdr map[string]string, body string) int {
		req, _ := http.NewRequest(http.MethodPost, env.srv.URL+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		for k, v := range hdr {
			req.Header.Set(k, v)
		}
		resp, err := env.client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	paths := []string{"/admin/assignments/tester/note/run", "/admin/memory", "/admin/schedules", "/admin/todos"}
	body := "member=ada&agent=tester&key=k&value=v&text=t&description=d&type=interval&schedule=5"
	for _, p := range paths {
		if got := post(p, map[string]string{"Sec-Fetch-Site": "same-origin"}, body); got != http.StatusForbidden {
			t.Errorf("POST %s without a token: %d, want 403", p, got)
		}
		if got := post(p, map[string]string{"Sec-Fetch-Site": "same-origin", "X-CSRF-Token": "0123456789abcdef0123456789abcdef"}, body); got != http.StatusForbidden {
			t.Errorf("POST %s with a wrong token: %d, want 403", p, got)
		}
		if got := post(p, map[string]string{"Sec-Fetch-Site": "cross-site", "X-CSRF-Token": tok}, body); got != http.StatusForbidden {
			t.Errorf("cross-site POST %s: %d, want 403", p, got)
		}
	}
	if runs, _ := env.orch.Runs().List(t.Context(), agentFilter()); len(runs) != 0 {
		t.Fatalf("refused posts started runs: %d", len(runs))
	}
	if tasks, _ := env.sched.List(t.Context(), taskFilter()); len(tasks) != len(defaults) {
		t.Fatalf("refused posts created tasks: %d, want the app's %d default tasks", len(tasks), len(defaults))
	}
	// With the token the same request goes through.
	if got := post("/admin/todos", map[string]string{"Sec-Fetch-Site": "same-origin", "X-CSRF-Token": tok}, body); got != http.StatusSeeOther {
		t.Fatalf("POST with the token: %d", got)
	}
}

func TestAdminPagesEmptyStates(t *testing.T) {
	env := newAdminEnv(t)
	// The app makes its default tasks at first start: the schedules page
	// is empty once the household has deleted them.
	defaults, err := env.sched.List(t.Context(), taskFilter())
	if err != nil {
		t.Fatal(err)
	}
	for _, task := range defaults {
		if err := env.sched.Delete(t.Context(), task.ID); err != nil {
			t.Fatal(err)
		}
	}
	want := map[string][]string{
		"/admin":           {"Assignments", "tester", "note", "Run now", "No runs yet", `id="runs-live"`, "/admin/live/assignments"},
		"/admin/runs":      {"Run history", "No runs match"},
		"/admin/schedules": {"No scheduled tasks yet", "New scheduled task"},
		"/admin/memory":    {"Nothing remembered about this member yet", "No changes yet"},
		"/admin/todos":     {"Nothing here"},
		"/admin/catalog":   {"The catalog is empty", "No programs yet"},
		"/admin/imports":   {"No imports yet", `enctype="multipart/form-data"`},
		"/admin/policies":  {"Talos policy", "Nothing recorded yet"},
	}
	for p, ws := range want {
		code, body := env.page(p)
		if code != http.StatusOK {
			t.Fatalf("GET %s: %d", p, code)
		}
		mustContain(t, p, body, ws...)
		if strings.Count(body, `id="flash"`) != 1 {
			t.Errorf("%s: want exactly one flash area", p)
		}
	}
}

// /debug/vars (runtime figures for operators and cmd/hearth-load) is admin
// only and loopback only: with a token set it needs the bearer, and no
// remote client ever gets it.
func TestDebugVarsIsAdminAndLoopbackOnly(t *testing.T) {
	get := func(env *adminEnv, remote, bearer string) (int, string) {
		req := httptest.NewRequest(http.MethodGet, "http://127.0.0.1/debug/vars", nil)
		req.RemoteAddr = remote
		if bearer != "" {
			req.Header.Set("Authorization", "Bearer "+bearer)
		}
		rec := httptest.NewRecorder()
		env.e.ServeHTTP(rec, req)
		return rec.Code, rec.Body.String()
	}
	open := newAdminEnv(t) // no password or token: loopback is admin
	code, body := get(open, "127.0.0.1:4000", "")
	var v struct {
		Goroutines int    `json:"goroutines"`
		RSS        uint64 `json:"rss_bytes"`
	}
	if err := json.Unmarshal([]byte(body), &v); code != http.StatusOK || err != nil || v.Goroutines < 1 {
		t.Fatalf("loopback, open admin: %d %q (%v)", code, body, err)
	}
	if code, _ := get(open, "192.0.2.10:4000", ""); code != http.StatusForbidden {
		t.Fatalf("remote, open admin: %d, want 403", code)
	}
	locked := newAdminEnv(t, withPassword("hunter2", "s3cret-token"))
	if code, _ := get(locked, "127.0.0.1:4000", ""); code != http.StatusUnauthorized {
		t.Fatalf("loopback without the token: %d, want 401", code)
	}
	if code, _ := get(locked, "127.0.0.1:4000", "s3cret-token"); code != http.StatusOK {
		t.Fatalf("loopback with the token: %d, want 200", code)
	}
	if code, _ := get(locked, "192.0.2.10:4000", "s3cret-token"); code != http.StatusNotFound {
		t.Fatalf("remote with the token: %d, want 404 (loopback only)", code)
	}
}

// Wrong passwords slow down: after five a client gets 429 with Retry-After,
// even with the right password; the bearer token is never locked out.
func TestLoginBruteForceIsSlowed(t *testing.T) {
	env := newAdminEnv(t, withPassword("hunter2", "s3cret-token"))
	for i := range 5 {
		resp, _ := env.form("/admin/login", url.Values{"password": {fmt.Sprint("guess", i)}}, false)
		if resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("guess %d: %d", i, resp.StatusCode)
		}
	}
	resp, body := env.form("/admin/login", url.Values{"password": {"hunter2"}}, false)
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" || !strings.Contains(body, "Try again in") {
		t.Fatalf("6th attempt: %d Retry-After %q", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	// The first lockout is 30 s; the time the five checks took has passed
	// already (under load, seconds), so anything above 30 would be a later
	// step. The exact steps are in loginguard_internal_test.go (fake clock).
	if n, _ := strconv.Atoi(resp.Header.Get("Retry-After")); n < 1 || n > 30 {
		t.Fatalf("Retry-After %d, want the first lockout's 30 s or what is left of it", n)
	}
	req, _ := http.NewRequest(http.MethodGet, env.srv.URL+"/api/agents", nil)
	req.Header.Set("Authorization", "Bearer s3cret-token")
	r2, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	r2.Body.Close()
	if r2.StatusCode != http.StatusOK {
		t.Fatalf("bearer token during a lockout: %d", r2.StatusCode)
	}
}

// Logging out ends the session on the server: the old cookie no longer works.
func TestLogoutRevokesTheSession(t *testing.T) {
	env := newAdminEnv(t, withPassword("hunter2", ""))
	resp, _ := env.form("/admin/login", url.Values{"password": {"hunter2"}}, false)
	var session *http.Cookie
	for _, ck := range resp.Cookies() {
		if ck.Name == "hearth_admin" {
			session = ck
		}
	}
	if session == nil || !session.HttpOnly || session.SameSite != http.SameSiteStrictMode {
		t.Fatalf("session cookie %+v", session)
	}
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	get := func() int {
		req, _ := http.NewRequest(http.MethodGet, env.srv.URL+"/admin/household", nil)
		req.AddCookie(session)
		r, err := noRedirect.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		r.Body.Close()
		return r.StatusCode
	}
	if c := get(); c != http.StatusOK {
		t.Fatalf("with the session: %d", c)
	}
	if resp, _ := env.form("/admin/logout", url.Values{}, false); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("logout: %d", resp.StatusCode)
	}
	if c := get(); c != http.StatusSeeOther {
		t.Fatalf("the old cookie after logout: %d, want a redirect to the login", c)
	}
}
