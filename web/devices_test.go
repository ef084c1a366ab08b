package web_test

// Device tokens (Admin → Screens): with the household setting off the
// kiosk and /api/v1 are open to the household network as before; with it
// on, every kiosk and household API route refuses a client without a
// device token, a screen gets one through its single-use enrolment link,
// a script through a token shown once, and revoking ends either. The
// server is the real one (newTestApp: the demo household, an admin
// password set), served in-process to a client on the LAN.

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"hearth/internal/app"
	"hearth/internal/devices"
	"hearth/internal/qr"
	"hearth/internal/testkit"
)

// devClock is the device service's clock, moved by the tests.
type devClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *devClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *devClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// devEnv is the real server with an admin password; sw gives the route
// filling and the database digest of the bad-input sweep.
type devEnv struct {
	t    *testing.T
	sw   *swServer
	app  *app.App
	clk  *devClock
	logs *logBuffer
}

// logBuffer collects the server's log lines (written from several goroutines).
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}
func (l *logBuffer) String() string { l.mu.Lock(); defer l.mu.Unlock(); return l.b.String() }

func newDevEnv(t *testing.T) *devEnv {
	t.Helper()
	logs := &logBuffer{}
	sw := sweepOver(t, withDemo(), withPassword("hunter2", ""), withLogger(slog.New(slog.NewTextHandler(logs, nil))))
	sw.csrf = strings.Repeat("cd", 16)
	clk := &devClock{t: time.Now()}
	sw.app.Devices.SetClock(clk.Now) // before the first request; requests are served on this goroutine
	return &devEnv{t: t, sw: sw, app: sw.app, clk: clk, logs: logs}
}

// require turns the setting on or off directly (the admin form is tested
// on its own).
func (d *devEnv) require(on bool) {
	d.t.Helper()
	if err := d.app.Devices.SetRequired(context.Background(), on); err != nil {
		d.t.Fatal(err)
	}
}

// devBrowser is a browser on the household network (192.168.1.50): it
// keeps cookies and sends the CSRF token on changes like Hearth's pages.
type devBrowser struct {
	env     *devEnv
	cookies map[string]*http.Cookie
	tls     bool
}

func (d *devEnv) browser() *devBrowser {
	return &devBrowser{env: d, cookies: map[string]*http.Cookie{}}
}

// do serves one request in-process; form, when not nil, is posted as a
// urlencoded form with the CSRF field (and header) unless form sets another
// _csrf; hdr are extra headers (name, value…).
// A live stream is cut after its first full render or 300 ms.
func (b *devBrowser) do(method, path string, form url.Values, hdr ...string) *httptest.ResponseRecorder {
	b.env.t.Helper()
	var body io.Reader
	csrf := ""
	if ck := b.cookies["hearth_csrf"]; ck != nil {
		csrf = ck.Value
	}
	if form != nil {
		if csrf != "" && form.Get("_csrf") == "" {
			form.Set("_csrf", csrf)
		}
		body = strings.NewReader(form.Encode())
	}
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Patience)
	defer cancel()
	if strings.Contains(path, "/live/") {
		ctx, cancel = context.WithTimeout(ctx, 300*time.Millisecond)
		defer cancel()
	}
	scheme := "http"
	if b.tls {
		scheme = "https" // httptest sets the request's TLS state
	}
	req := httptest.NewRequestWithContext(ctx, method, scheme+"://127.0.0.1:8080"+path, body)
	req.RemoteAddr = "192.168.1.50:40000"
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	if method != http.MethodGet {
		req.Header.Set("Sec-Fetch-Site", "same-origin")
		if csrf != "" && (form == nil || form.Get("_csrf") == csrf) {
			req.Header.Set("X-CSRF-Token", csrf) // as hearth.js does (a DELETE has no form)
		}
	}
	for _, ck := range b.cookies {
		req.AddCookie(ck)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	rec := &swRecorder{ResponseRecorder: httptest.NewRecorder(), cut: cancel}
	b.env.app.Echo.ServeHTTP(rec, req)
	for _, ck := range rec.Result().Cookies() {
		if ck.MaxAge < 0 {
			delete(b.cookies, ck.Name)
		} else {
			b.cookies[ck.Name] = ck
		}
	}
	return rec.ResponseRecorder
}

// get fetches a page (the CSRF cookie comes with the first one).
func (b *devBrowser) get(path string, hdr ...string) *httptest.ResponseRecorder {
	return b.do(http.MethodGet, path, nil, hdr...)
}

// post submits a form as a page of Hearth would.
func (b *devBrowser) post(path string, form url.Values, hdr ...string) *httptest.ResponseRecorder {
	b.env.t.Helper()
	if b.cookies["hearth_csrf"] == nil {
		b.get("/admin/login")
	}
	return b.do(http.MethodPost, path, form, hdr...)
}

// login logs the browser in as the admin.
func (b *devBrowser) login() {
	b.env.t.Helper()
	rec := b.post("/admin/login", url.Values{"password": {"hunter2"}, "next": {"/admin/screens"}})
	if rec.Code != http.StatusSeeOther || b.cookies["hearth_admin"] == nil {
		b.env.t.Fatalf("login: %d %s", rec.Code, rec.Body.String())
	}
}

var (
	enrolLinkRe   = regexp.MustCompile(`id="enrol-link">([^<]+)<`)
	scriptTokenRe = regexp.MustCompile(`id="script-token">([^<]+)<`)
	qrPathRe      = regexp.MustCompile(`(?s)<title id="enrol-qr-title">.*?<path d="([^"]+)"`)
)

// addScreen makes an enrolment link from Admin → Screens (with a request
// id, which must not keep a copy of the answer) and returns the link's
// path; the QR code on the page encodes the link.
func (d *devEnv) addScreen(admin *devBrowser, name string) string {
	d.t.Helper()
	rec := admin.post("/admin/screens", url.Values{"kind": {"screen"}, "name": {name}}, "Idempotency-Key", "screen-key-"+strings.Repeat("a", 20))
	if rec.Code != http.StatusOK {
		d.t.Fatalf("add a screen: %d %.500s", rec.Code, rec.Body.String())
	}
	m := enrolLinkRe.FindStringSubmatch(rec.Body.String())
	if m == nil {
		d.t.Fatalf("no enrolment link on the page: %.2000s", rec.Body.String())
	}
	u, err := url.Parse(m[1])
	if err != nil || !strings.HasPrefix(u.Path, "/enrol/") {
		d.t.Fatalf("enrolment link %q: %v", m[1], err)
	}
	code, err := qr.Encode(m[1])
	if err != nil {
		d.t.Fatal(err)
	}
	if q := qrPathRe.FindStringSubmatch(rec.Body.String()); q == nil || q[1] != code.Path() {
		d.t.Fatalf("the QR code on the page is not the link %q", m[1])
	}
	return u.Path
}

// enrol opens the link on the browser and confirms; it returns the answer
// to the confirmation.
func (b *devBrowser) enrol(link string) *httptest.ResponseRecorder {
	b.env.t.Helper()
	if rec := b.get(link); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "Enrol this screen") {
		b.env.t.Fatalf("GET %s: %d %.500s", link, rec.Code, rec.Body.String())
	}
	return b.post(link, url.Values{})
}

// dbBytes is the database file and its WAL.
func (d *devEnv) dbBytes() []byte {
	d.t.Helper()
	var out []byte
	for _, suffix := range []string{"", "-wal"} {
		b, err := os.ReadFile(d.app.DB.Path + suffix)
		if err != nil && !os.IsNotExist(err) {
			d.t.Fatal(err)
		}
		out = append(out, b...)
	}
	return out
}

// householdRoute is the policy under test: every route needs a device
// token in token mode except static assets, /healthz, the enrolment link
// and the admin's routes (login, /admin, /debug, the admin APIs).
func householdRoute(p string) bool {
	switch {
	case p == "/healthz", strings.HasPrefix(p, "/static/"), strings.HasPrefix(p, "/enrol/"):
		return false
	case isLoginPath(p):
		return false
	}
	return !isAdminPath(p)
}

// notEnrolled checks a refusal: 401, the API's JSON error or the "not
// enrolled" page, and nothing of the household in it.
func notEnrolled(t *testing.T, what string, rec *httptest.ResponseRecorder, api bool) {
	t.Helper()
	body := rec.Body.String()
	if rec.Code != http.StatusUnauthorized {
		t.Errorf("%s: %d, want 401: %.300s", what, rec.Code, body)
		return
	}
	if rec.Header().Get("Content-Security-Policy") == "" || rec.Header().Get("X-Frame-Options") != "SAMEORIGIN" {
		t.Errorf("%s: the refusal lacks the security headers", what)
	}
	if api {
		if !strings.Contains(rec.Header().Get("Content-Type"), "json") || !strings.Contains(body, `"code":"unauthorized"`) {
			t.Errorf("%s: not the API's JSON error: %.300s", what, body)
		}
	} else if !strings.Contains(body, "This screen is not enrolled") || !strings.Contains(body, "Admin → Screens") {
		t.Errorf("%s: not the not-enrolled page: %.300s", what, body)
	}
	for _, name := range []string{"Maya", "Theo"} {
		if strings.Contains(body, name) {
			t.Errorf("%s: the refusal shows %s", what, name)
		}
	}
}

// Off (the default): the kiosk and /api/v1 answer a LAN client without
// any token, as before.
func TestDeviceTokensOffByDefault(t *testing.T) {
	d := newDevEnv(t)
	b := d.browser()
	for _, p := range []string{"/", "/m/maya", "/api/v1/members", "/api/v1/members/maya/weight"} {
		if rec := b.get(p); rec.Code != http.StatusOK {
			t.Errorf("GET %s: %d", p, rec.Code)
		}
	}
	rec := b.do(http.MethodGet, "/live/m/maya", nil, "Datastar-Request", "true")
	if rec.Code != http.StatusOK || !strings.Contains(rec.Header().Get("Content-Type"), "event-stream") {
		t.Errorf("GET /live/m/maya: %d %s", rec.Code, rec.Header().Get("Content-Type"))
	}
	js := httptest.NewRequest(http.MethodPost, "http://127.0.0.1:8080/api/v1/members/maya/weight", strings.NewReader(`{"weight_kg":70.2}`))
	js.RemoteAddr = "192.168.1.50:40000"
	js.Header.Set("Content-Type", "application/json")
	w := httptest.NewRecorder()
	d.app.Echo.ServeHTTP(w, js)
	if w.Code != http.StatusCreated {
		t.Errorf("POST /api/v1/members/maya/weight: %d %s", w.Code, w.Body.String())
	}
}

// On: every kiosk and household API route of the real route table answers
// 401 to a client without a token and changes nothing; with a token each
// works. The routes that stay open still answer.
func TestDeviceTokenRouteSweep(t *testing.T) {
	d := newDevEnv(t)
	d.require(true)
	_, token, err := d.app.Devices.CreateScript(context.Background(), "sweep")
	if err != nil {
		t.Fatal(err)
	}
	anon, holder := d.browser(), d.browser()
	anon.get("/admin/login") // a CSRF cookie: changes are refused for the token, not for CSRF
	holder.get("/admin/login")
	holder.cookies["hearth_device"] = &http.Cookie{Name: "hearth_device", Value: token}
	household := 0
	for _, rt := range d.app.Echo.Routes() {
		switch rt.Method {
		case http.MethodGet, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
		default:
			continue // group placeholders
		}
		if !householdRoute(rt.Path) {
			continue
		}
		household++
		path := d.sw.fill(rt.Path, "")
		what := rt.Method + " " + path
		form := url.Values{"weight": {"70"}, "name": {"x"}, "calories": {"100"}, "type": {"run"}, "duration_min": {"5"}}
		if rt.Method == http.MethodGet {
			form = nil
		}
		api := strings.HasPrefix(rt.Path, "/api/")
		for _, ds := range []bool{false, true} {
			if ds && rt.Method != http.MethodGet {
				continue // a Datastar action: TestDatastarActionWithoutDeviceToken
			}
			var hdr []string
			if ds {
				hdr = []string{"Datastar-Request", "true"}
			}
			before := d.sw.digest(t)
			notEnrolled(t, fmt.Sprintf("%s (datastar=%v) without a token", what, ds), anon.do(rt.Method, path, cloneForm(form), hdr...), api)
			if d.sw.digest(t) != before {
				t.Errorf("%s without a token: stored a change", what)
			}
			if rec := anon.do(rt.Method, path, cloneForm(form), append(hdr, "Authorization", "Bearer "+strings.Repeat("A", 43))...); rec.Code != http.StatusUnauthorized {
				t.Errorf("%s with a made-up token: %d", what, rec.Code)
			}
		}
		rec := holder.do(rt.Method, path, cloneForm(form))
		if strings.Contains(rt.Path, "/lifeplan") || strings.HasPrefix(rt.Path, "/m/:member/plan") {
			// The token lets the screen in; a life plan stays private until
			// the member's PIN or the admin opens it (api_lifeplan_test.go,
			// kiosk_lifeplan_test.go).
			if rec.Code != http.StatusUnauthorized || !strings.Contains(rec.Body.String(), "life plan is") {
				t.Errorf("%s with a device token only: %d %.300s, want the life plan's 401", what, rec.Code, rec.Body.String())
			}
			continue
		}
		if rec.Code == http.StatusUnauthorized || rec.Code == http.StatusForbidden || rec.Code >= 500 {
			t.Errorf("%s with a device token: %d %.300s", what, rec.Code, rec.Body.String())
		}
	}
	if household < 40 {
		t.Fatalf("only %d household routes swept: is the route table wired?", household)
	}
	t.Logf("swept %d household routes", household)
	// With the token, pages show the household; a script's bearer token works on the API.
	for _, p := range []string{"/", "/m/maya"} {
		if rec := holder.get(p); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "Maya") {
			t.Errorf("GET %s with a device token: %d", p, rec.Code)
		}
	}
	if rec := d.browser().get("/api/v1/members", "Authorization", "Bearer "+token); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "maya") {
		t.Errorf("GET /api/v1/members with the bearer token: %d", rec.Code)
	}
	// What stays open: static assets, health, the admin's login, the enrolment link.
	for p, want := range map[string]int{"/static/hearth.css": http.StatusOK, "/healthz": http.StatusOK,
		"/admin/login": http.StatusOK, "/admin/screens": http.StatusSeeOther, "/enrol/" + strings.Repeat("B", 22): http.StatusNotFound} {
		if rec := anon.get(p); rec.Code != want {
			t.Errorf("GET %s without a token: %d, want %d", p, rec.Code, want)
		}
	}
}

func cloneForm(f url.Values) url.Values {
	if f == nil {
		return nil
	}
	out := url.Values{}
	for k, v := range f {
		out[k] = append([]string(nil), v...)
	}
	return out
}

// A Datastar action from a screen without a token (the page was open
// before the token was revoked) shows the message in the page's flash
// area, as Datastar drops non-200 answers, and changes nothing.
func TestDatastarActionWithoutDeviceToken(t *testing.T) {
	d := newDevEnv(t)
	d.require(true)
	b := d.browser()
	b.get("/admin/login")
	before := d.sw.digest(t)
	rec := b.do(http.MethodPost, "/m/maya/weight", url.Values{"weight": {"70"}}, "Datastar-Request", "true",
		"X-CSRF-Token", b.cookies["hearth_csrf"].Value)
	if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "This screen is not enrolled") {
		t.Fatalf("Datastar POST without a token: %d %.300s", rec.Code, rec.Body.String())
	}
	if d.sw.digest(t) != before {
		t.Fatal("a Datastar POST without a token stored a change")
	}
}

// The whole path of a screen: the admin turns the setting on and makes a
// link; the tablet opens it, confirms and gets a cookie that shows the
// household; the link does not work twice; the admin sees the screen and
// revokes it, and the tablet (pages and streams) is refused again. No
// code or token is in the database file.
func TestEnrolAScreenByLink(t *testing.T) {
	d := newDevEnv(t)
	admin := d.browser()
	admin.login()
	if rec := admin.post("/admin/screens/tokens", url.Values{"require": {"on"}}); rec.Code != http.StatusSeeOther {
		t.Fatalf("turn device tokens on: %d %.300s", rec.Code, rec.Body.String())
	}
	if on, err := d.app.Devices.Required(context.Background()); err != nil || !on {
		t.Fatalf("the setting is not on: %v %v", on, err)
	}
	tablet := d.browser()
	notEnrolled(t, "GET / before enrolment", tablet.get("/"), false)

	link := d.addScreen(admin, "Kitchen tablet")
	rec := tablet.get(link)
	if !strings.Contains(rec.Body.String(), "Kitchen tablet") || tablet.cookies["hearth_device"] != nil {
		t.Fatalf("opening the link: %d, device cookie %v: %.500s", rec.Code, tablet.cookies["hearth_device"], rec.Body.String())
	}
	rec = tablet.enrol(link)
	ck := tablet.cookies["hearth_device"]
	if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/" || ck == nil {
		t.Fatalf("enrolling: %d %q, cookie %v", rec.Code, rec.Header().Get("Location"), ck)
	}
	if !ck.HttpOnly || ck.SameSite != http.SameSiteStrictMode || ck.Secure || ck.MaxAge < 300*24*3600 || ck.Path != "/" {
		t.Errorf("device cookie %+v: want HttpOnly, SameSite=Strict, long-lived, not Secure on plain HTTP", ck)
	}
	if rec := tablet.get("/"); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), "Maya") {
		t.Fatalf("GET / enrolled: %d", rec.Code)
	}
	if rec := tablet.do(http.MethodGet, "/live/household", nil, "Datastar-Request", "true"); rec.Code != http.StatusOK ||
		!strings.Contains(rec.Header().Get("Content-Type"), "event-stream") {
		t.Fatalf("GET /live/household enrolled: %d", rec.Code)
	}

	// The link is used up: another browser gets nothing from it.
	other := d.browser()
	if rec := other.get(link); rec.Code != http.StatusNotFound || !strings.Contains(rec.Body.String(), "cannot be used") {
		t.Errorf("GET of a used link: %d %.300s", rec.Code, rec.Body.String())
	}
	if rec := other.post(link, url.Values{}); rec.Code != http.StatusNotFound || other.cookies["hearth_device"] != nil {
		t.Errorf("POST of a used link: %d, cookie %v", rec.Code, other.cookies["hearth_device"])
	}
	notEnrolled(t, "GET / by another browser", other.get("/"), false)

	// The admin's list: name, enrolled, last seen, revoke; no secret.
	page := admin.get("/admin/screens").Body.String()
	code := strings.TrimPrefix(link, "/enrol/")
	for _, want := range []string{"Kitchen tablet", "Revoke", "just now"} {
		if !strings.Contains(page, want) {
			t.Errorf("Admin → Screens lacks %q", want)
		}
	}
	if strings.Contains(page, code) || strings.Contains(page, ck.Value) {
		t.Error("Admin → Screens shows the link's code or the token again")
	}

	// Only hashes in the database, though the link was made with a request id.
	db := d.dbBytes()
	if bytes.Contains(db, []byte(code)) || bytes.Contains(db, []byte(ck.Value)) {
		t.Error("the enrolment code or the device token is in the database file")
	} else if !bytes.Contains(db, []byte(devices.Hash(ck.Value))) {
		t.Error("the token's hash is not in the database bytes either: is this the right file?")
	}

	// The logs say a screen was enrolled, never with its link's code.
	if logs := d.logs.String(); !strings.Contains(logs, `msg="screen enrolled"`) || !strings.Contains(logs, `uri=/enrol/…`) {
		t.Errorf("no log of the enrolment:\n%s", logs)
	} else if strings.Contains(logs, code) || strings.Contains(logs, ck.Value) {
		t.Error("the enrolment code or the device token is in the logs")
	}

	// Revoke: the tablet's next page and its stream's next reconnect are refused.
	list, err := d.app.Devices.List(context.Background())
	if err != nil || len(list) != 1 {
		t.Fatalf("devices: %+v %v", list, err)
	}
	if rec := admin.post(fmt.Sprintf("/admin/screens/%d/revoke", list[0].ID), url.Values{}); rec.Code != http.StatusSeeOther {
		t.Fatalf("revoke: %d %.300s", rec.Code, rec.Body.String())
	}
	notEnrolled(t, "GET / after revoke", tablet.get("/"), false)
	notEnrolled(t, "stream after revoke", tablet.do(http.MethodGet, "/live/household", nil, "Datastar-Request", "true"), false)
	notEnrolled(t, "API after revoke", tablet.get("/api/v1/members"), true)
}

// A link is good for 15 minutes on the device service's clock.
func TestEnrolmentLinkExpires(t *testing.T) {
	d := newDevEnv(t)
	d.require(true)
	admin := d.browser()
	admin.login()
	fresh := d.addScreen(admin, "Hall")
	stale := d.addScreen(admin, "Landing")
	d.clk.Advance(devices.CodeTTL - time.Minute)
	if rec := d.browser().enrol(fresh); rec.Code != http.StatusSeeOther {
		t.Fatalf("a link 14 minutes old: %d", rec.Code)
	}
	d.clk.Advance(time.Minute)
	late := d.browser()
	if rec := late.get(stale); rec.Code != http.StatusNotFound || !strings.Contains(rec.Body.String(), "expired") {
		t.Errorf("GET of an expired link: %d %.300s", rec.Code, rec.Body.String())
	}
	if rec := late.post(stale, url.Values{}); rec.Code != http.StatusNotFound || late.cookies["hearth_device"] != nil {
		t.Errorf("POST of an expired link: %d, cookie %v", rec.Code, late.cookies["hearth_device"])
	}
	notEnrolled(t, "GET / after an expired link", late.get("/"), false)
}

// A script's token is shown once, works as a bearer token on /api/v1 and
// stops at revoke.
func TestScriptTokenForTheAPI(t *testing.T) {
	d := newDevEnv(t)
	d.require(true)
	admin := d.browser()
	admin.login()
	rec := admin.post("/admin/screens", url.Values{"kind": {"script"}, "name": {"Scale sync"}})
	m := scriptTokenRe.FindStringSubmatch(rec.Body.String())
	if rec.Code != http.StatusOK || m == nil {
		t.Fatalf("add a script: %d %.1000s", rec.Code, rec.Body.String())
	}
	token := m[1]
	script := d.browser()
	notEnrolled(t, "API without a token", script.get("/api/v1/members"), true)
	if rec := script.get("/api/v1/members", "Authorization", "Bearer "+token); rec.Code != http.StatusOK {
		t.Fatalf("API with the token: %d %s", rec.Code, rec.Body.String())
	}
	if page := admin.get("/admin/screens").Body.String(); strings.Contains(page, token) || !strings.Contains(page, "Scale sync") {
		t.Error("Admin → Screens shows the script's token again, or not the script")
	}
	list, _ := d.app.Devices.List(context.Background())
	if rec := admin.post(fmt.Sprintf("/admin/screens/%d/revoke", list[0].ID), url.Values{}); rec.Code != http.StatusSeeOther {
		t.Fatalf("revoke: %d", rec.Code)
	}
	notEnrolled(t, "API after revoke", script.get("/api/v1/members", "Authorization", "Bearer "+token), true)
}

// The setting, the links and revoking need the admin's login and the CSRF
// token; a logged-in admin's browser sees the kiosk without a device token.
func TestScreensNeedLoginAndCSRF(t *testing.T) {
	d := newDevEnv(t)
	ctx := context.Background()
	_, _, err := d.app.Devices.StartEnrolment(ctx, "Hall")
	if err != nil {
		t.Fatal(err)
	}
	list, _ := d.app.Devices.List(ctx)
	anon := d.browser()
	for _, r := range []struct {
		path string
		form url.Values
	}{
		{"/admin/screens/tokens", url.Values{"require": {"on"}}},
		{"/admin/screens", url.Values{"kind": {"screen"}, "name": {"Porch"}}},
		{fmt.Sprintf("/admin/screens/%d/revoke", list[0].ID), url.Values{}},
	} {
		if rec := anon.post(r.path, r.form); rec.Code != http.StatusUnauthorized {
			t.Errorf("POST %s without login: %d, want 401", r.path, rec.Code)
		}
	}
	if rec := anon.get("/admin/screens"); rec.Code != http.StatusSeeOther || !strings.HasPrefix(rec.Header().Get("Location"), "/admin/login") {
		t.Errorf("GET /admin/screens without login: %d %q", rec.Code, rec.Header().Get("Location"))
	}
	admin := d.browser()
	admin.login()
	for _, path := range []string{"/admin/screens/tokens", "/admin/screens", fmt.Sprintf("/admin/screens/%d/revoke", list[0].ID)} {
		rec := admin.do(http.MethodPost, path, url.Values{"_csrf": {"-"}, "require": {"on"}, "kind": {"screen"}, "name": {"Porch"}})
		if rec.Code != http.StatusForbidden {
			t.Errorf("POST %s without the CSRF token: %d, want 403", path, rec.Code)
		}
	}
	if on, _ := d.app.Devices.Required(ctx); on {
		t.Error("the setting changed without login or CSRF")
	}
	if l, _ := d.app.Devices.List(ctx); len(l) != 1 || l[0].Name != "Hall" {
		t.Errorf("devices changed without login or CSRF: %+v", l)
	}

	// The admin's browser is not a screen but may look at one.
	d.require(true)
	for _, p := range []string{"/", "/m/maya", "/api/v1/members"} {
		if rec := admin.get(p); rec.Code != http.StatusOK {
			t.Errorf("GET %s as the logged-in admin: %d", p, rec.Code)
		}
	}
	if rec := admin.post("/admin/logout", url.Values{}); rec.Code != http.StatusSeeOther {
		t.Fatalf("logout: %d", rec.Code)
	}
	notEnrolled(t, "GET / after the admin logged out", admin.get("/"), false)
}

// Over TLS the device cookie is Secure.
func TestDeviceCookieSecureOverTLS(t *testing.T) {
	d := newDevEnv(t)
	d.require(true)
	admin := d.browser()
	admin.login()
	link := d.addScreen(admin, "Hall")
	tablet := d.browser()
	tablet.tls = true
	if rec := tablet.enrol(link); rec.Code != http.StatusSeeOther {
		t.Fatalf("enrol over TLS: %d", rec.Code)
	}
	if ck := tablet.cookies["hearth_device"]; ck == nil || !ck.Secure || !ck.HttpOnly || ck.SameSite != http.SameSiteStrictMode {
		t.Fatalf("device cookie over TLS: %+v", ck)
	}
}
