package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"hearth/web/adminauth"
)

// loginFrom posts a password to the login form as a client at addr (an
// address, not a port: the login budgets are per address), with cookies.
func (env *adminEnv) loginFrom(addr, password string, cookies ...*http.Cookie) *httptest.ResponseRecorder {
	return env.postFrom(addr, "/admin/login", url.Values{"password": {password}}, cookies...)
}

// postFrom posts a form as a browser at addr, with its CSRF token.
func (env *adminEnv) postFrom(addr, path string, form url.Values, cookies ...*http.Cookie) *httptest.ResponseRecorder {
	tok := env.token()
	form.Set("_csrf", tok)
	req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1"+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	req.RemoteAddr = addr + ":40000"
	req.AddCookie(&http.Cookie{Name: "hearth_csrf", Value: tok})
	for _, ck := range cookies {
		req.AddCookie(ck)
	}
	rec := httptest.NewRecorder()
	env.e.ServeHTTP(rec, req)
	return rec
}

func cookieNamed(rec *httptest.ResponseRecorder, name string) *http.Cookie {
	for _, ck := range rec.Result().Cookies() {
		if ck.Name == name {
			return ck
		}
	}
	return nil
}

// Parallel wrong passwords from one address: each is counted before the
// password is checked, so only the free tries get an answer other than 429
// (the audit saw 100 parallel guesses all checked before the first 429).
func TestParallelLoginGuessesAreCountedFirst(t *testing.T) {
	env := newAdminEnv(t, withPassword("hunter2", ""))
	const parallel = 100
	codes := make(chan int, parallel)
	var wg sync.WaitGroup
	for i := range parallel {
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes <- env.loginFrom("192.0.2.30", fmt.Sprint("guess", i)).Code
		}()
	}
	wg.Wait()
	close(codes)
	checked := 0
	for c := range codes {
		switch c {
		case http.StatusUnauthorized:
			checked++
		case http.StatusTooManyRequests:
		default:
			t.Fatalf("status %d", c)
		}
	}
	if checked != 5 {
		t.Fatalf("%d of %d parallel guesses were checked, want the 5 free tries", checked, parallel)
	}
}

// Rotating addresses does not multiply the guesses: 12 addresses with five
// tries each (60 on a per-address rule) get the account's 20. The admin
// still has two ways in that no LAN client can block: a browser that
// logged in before, and a one-time link made on the box.
func TestLoginRotationAndTheAdminsWayIn(t *testing.T) {
	env := newAdminEnv(t, withPassword("hunter2", ""))
	// The admin's own browser logged in yesterday and kept its mark.
	first := env.loginFrom("192.0.2.100", "hunter2")
	if first.Code != http.StatusSeeOther {
		t.Fatalf("first login: %d", first.Code)
	}
	mark := cookieNamed(first, "hearth_admin_device")
	if mark == nil || !mark.HttpOnly || mark.SameSite != http.SameSiteStrictMode || mark.MaxAge < 300*24*3600 {
		t.Fatalf("trusted-browser mark %+v", mark)
	}

	checked := 0
	for i := range 12 {
		for j := range 5 {
			switch c := env.loginFrom(fmt.Sprintf("127.0.0.%d", i+2), fmt.Sprint("guess", i, j)).Code; c {
			case http.StatusUnauthorized:
				checked++
			case http.StatusTooManyRequests:
			default:
				t.Fatalf("status %d", c)
			}
		}
	}
	if checked != 20 {
		t.Fatalf("12 addresses × 5 guesses: %d checked, want the account budget of 20", checked)
	}

	// A new browser at a fresh address is refused, and told the ways in.
	rec := env.loginFrom("192.0.2.200", "hunter2")
	if rec.Code != http.StatusTooManyRequests || !strings.Contains(rec.Body.String(), "hearth admin login-link") {
		t.Fatalf("a new browser during the attack: %d %s", rec.Code, rec.Body.String())
	}
	// The browser that logged in before gets in, from any address.
	rec = env.loginFrom("192.0.2.201", "hunter2", mark)
	if rec.Code != http.StatusSeeOther || cookieNamed(rec, "hearth_admin") == nil {
		t.Fatalf("the trusted browser during the attack: %d", rec.Code)
	}

	// The one-time link from the box: its page has a button (a link
	// preview cannot use it up), its post logs in once.
	code, err := adminauth.NewLoginLink(context.Background(), env.sessions)
	if err != nil {
		t.Fatal(err)
	}
	status, body := env.page("/admin/login/link?code=" + url.QueryEscape(code))
	if status != http.StatusOK || !strings.Contains(body, `action="/admin/login/link"`) {
		t.Fatalf("link page: %d", status)
	}
	post := func() *httptest.ResponseRecorder {
		return env.postFrom("192.0.2.202", "/admin/login/link", url.Values{"code": {code}})
	}
	rec = post()
	session := cookieNamed(rec, "hearth_admin")
	if rec.Code != http.StatusSeeOther || session == nil {
		t.Fatalf("login link: %d", rec.Code)
	}
	req := httptest.NewRequest(http.MethodGet, "http://127.0.0.1/admin/household", nil)
	req.RemoteAddr = "192.0.2.202:40000"
	req.AddCookie(session)
	page := httptest.NewRecorder()
	env.e.ServeHTTP(page, req)
	if page.Code != http.StatusOK {
		t.Fatalf("the link's session: %d", page.Code)
	}
	if rec := post(); rec.Code != http.StatusUnauthorized || !strings.Contains(rec.Body.String(), "used already or has expired") {
		t.Fatalf("the link a second time: %d", rec.Code)
	}
}
