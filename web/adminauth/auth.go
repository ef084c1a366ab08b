// Package adminauth decides who is the household's admin: the password
// login with its sessions and throttling, the API bearer token, and the
// loopback-only open mode. Require is the admin routes' first middleware,
// so nothing reads an anonymous client's body (CSRF, forms, uploads).
package adminauth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
	"golang.org/x/crypto/bcrypt"

	"hearth/internal/session"
	"hearth/web/httpkit"
)

const (
	sessionCookie = "hearth_admin"
	sessionTTL    = 12 * time.Hour
	// deviceCookie marks a browser that has logged in before: the account's
	// throttling (which any LAN client can run up) does not apply to it.
	deviceCookie = "hearth_admin_device"
	deviceTTL    = 400 * 24 * time.Hour // browsers cap cookies at 400 days
	// LoginLinkTTL is how long a `hearth admin login-link` link works.
	LoginLinkTTL = 10 * time.Minute
)

// The kinds of secret Sessions keeps ("" is a session).
const (
	kindSession = ""
	kindDevice  = "device"
	kindLink    = "login-link"
)

// Sessions keeps the admin's secrets on the server, so logging out (or a
// new admin password) ends them; a signed cookie alone would stay valid
// until it expired. A secret has a kind (a session, a trusted browser's
// mark, a one-time login link) and never passes for another kind.
// Deps.Sessions, or an in-memory store when nil.
type Sessions interface {
	Create(ctx context.Context, kind string, ttl time.Duration) (string, error)
	Valid(ctx context.Context, kind, token string) bool
	Revoke(ctx context.Context, kind, token string) error
	// Take uses up a single-use secret, reporting whether it was live.
	Take(ctx context.Context, kind, token string) (bool, error)
}

// Auth guards the admin area: a bcrypt-checked password gives a session
// (random token in an HttpOnly, SameSite=Strict cookie, Secure over TLS);
// scripts use the bearer token; with neither configured only loopback
// clients get in.
type Auth struct {
	hash     []byte // bcrypt of the admin password; nil = no password
	token    string
	sessions Sessions
	secure   bool // Secure cookies even on plain HTTP (behind a TLS proxy)
	logins   *loginGuard
}

// New hashes the password (bcrypt) and keeps the token; nil sessions are
// kept in memory (lost at restart). A password that is already a bcrypt
// hash is kept as it is (session.PasswordHash).
func New(password, token string, sessions Sessions, secure bool) (*Auth, error) {
	if sessions == nil {
		sessions = newMemSessions()
	}
	a := &Auth{token: token, sessions: sessions, secure: secure, logins: newLoginGuard(time.Now)}
	if password != "" {
		h, err := session.PasswordHash(password)
		if err != nil {
			return nil, fmt.Errorf("adminauth: hash admin password: %w", err)
		}
		a.hash = h
	}
	return a, nil
}

func (a *Auth) Open() bool { return a.hash == nil && a.token == "" }

func (a *Auth) CheckPassword(pw string) bool {
	return a.hash != nil && bcrypt.CompareHashAndPassword(a.hash, []byte(pw)) == nil
}

func (a *Auth) BearerOK(r *http.Request) bool {
	h := r.Header.Get(echo.HeaderAuthorization)
	if a.token == "" || len(h) < 7 || !strings.EqualFold(h[:7], "bearer ") {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(strings.TrimSpace(h[7:])), []byte(a.token)) == 1
}

// secureFor reports whether cookies for r get the Secure flag.
func (a *Auth) secureFor(r *http.Request) bool { return a.secure || r.TLS != nil }

// NewSession starts a session and returns its cookies: the session's, and
// the trusted-browser mark when the browser does not carry a live one yet.
func (a *Auth) NewSession(r *http.Request) ([]*http.Cookie, error) {
	ctx := r.Context()
	tok, err := a.sessions.Create(ctx, kindSession, sessionTTL)
	if err != nil {
		return nil, err
	}
	cookies := []*http.Cookie{{Name: sessionCookie, Value: tok, Path: "/", MaxAge: int(sessionTTL.Seconds()),
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: a.secureFor(r)}}
	if a.trustedDevice(r) == "" {
		mark, err := a.sessions.Create(ctx, kindDevice, deviceTTL)
		if err != nil {
			return nil, err
		}
		cookies = append(cookies, &http.Cookie{Name: deviceCookie, Value: mark, Path: "/admin", MaxAge: int(deviceTTL.Seconds()),
			HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: a.secureFor(r)})
	}
	return cookies, nil
}

// trustedDevice returns the request's live trusted-browser mark, or "".
func (a *Auth) trustedDevice(r *http.Request) string {
	ck, err := r.Cookie(deviceCookie)
	if err != nil || ck.Value == "" || !a.sessions.Valid(r.Context(), kindDevice, ck.Value) {
		return ""
	}
	return ck.Value
}

// EndSession revokes the request's session and returns the cookie that
// clears it.
func (a *Auth) EndSession(r *http.Request) (*http.Cookie, error) {
	var err error
	if ck, cerr := r.Cookie(sessionCookie); cerr == nil && ck.Value != "" {
		err = a.sessions.Revoke(r.Context(), kindSession, ck.Value)
	}
	return &http.Cookie{Name: sessionCookie, Value: "", Path: "/", MaxAge: -1, HttpOnly: true,
		SameSite: http.SameSiteStrictMode, Secure: a.secureFor(r)}, err
}

func (a *Auth) SessionOK(r *http.Request) bool {
	if a.hash == nil {
		return false
	}
	ck, err := r.Cookie(sessionCookie)
	return err == nil && a.sessions.Valid(r.Context(), kindSession, ck.Value)
}

// memSessions is the in-process session store used when none is given.
type memSessions struct {
	mu  sync.Mutex
	exp map[string]time.Time
}

func newMemSessions() *memSessions { return &memSessions{exp: map[string]time.Time{}} }

func (m *memSessions) Create(_ context.Context, kind string, ttl time.Duration) (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	tok := base64.RawURLEncoding.EncodeToString(b)
	m.mu.Lock()
	m.exp[kind+"\x00"+tok] = time.Now().Add(ttl)
	m.mu.Unlock()
	return tok, nil
}

func (m *memSessions) Valid(_ context.Context, kind, token string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	exp, ok := m.exp[kind+"\x00"+token]
	return ok && time.Now().Before(exp)
}

func (m *memSessions) Revoke(_ context.Context, kind, token string) error {
	m.mu.Lock()
	delete(m.exp, kind+"\x00"+token)
	m.mu.Unlock()
	return nil
}

func (m *memSessions) Take(_ context.Context, kind, token string) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	exp, ok := m.exp[kind+"\x00"+token]
	delete(m.exp, kind+"\x00"+token)
	return ok && time.Now().Before(exp), nil
}

func isLoopback(c echo.Context) bool {
	ip := net.ParseIP(c.RealIP())
	return ip != nil && ip.IsLoopback()
}

// Allowed reports whether the request may use the admin area. Open mode
// (no password, no token) trusts only a loopback client that asked for a
// loopback name directly: a proxy on the same machine (forwarding headers)
// makes every client look local.
func (a *Auth) Allowed(c echo.Context) bool {
	r := c.Request()
	if a.Open() {
		return isLoopback(c) && httpkit.IsLoopbackHost(r.Host) && !httpkit.Forwarded(r)
	}
	return a.SessionOK(r) || a.BearerOK(r)
}

// Require authenticates an admin route before anything reads its body
// (CSRF, forms, uploads): it is the first middleware of every admin group: an anonymous client must not be able to make the
// server parse or spool a large upload. Pages redirect to the login; admin
// APIs, /debug and non-GET requests get 401.
//
// Admin answers are never cached (Cache-Control: no-store): they hold the
// household's data and settings.
func (a *Auth) Require(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		c.Response().Header().Set(echo.HeaderCacheControl, "no-store")
		if a.Allowed(c) {
			return next(c)
		}
		if a.Open() {
			if httpkit.Forwarded(c.Request()) {
				return echo.NewHTTPError(http.StatusForbidden, "admin without a password is refused behind a proxy (every client would look local): set HEARTH_ADMIN_PASSWORD or HEARTH_API_TOKEN")
			}
			return echo.NewHTTPError(http.StatusForbidden, "admin is only reachable from this machine (at localhost or 127.0.0.1) until HEARTH_ADMIN_PASSWORD or HEARTH_API_TOKEN is set")
		}
		if p := c.Request().URL.Path; strings.HasPrefix(p, "/api/") || strings.HasPrefix(p, "/debug/") || c.Request().Method != http.MethodGet {
			return echo.NewHTTPError(http.StatusUnauthorized, "login required")
		}
		return c.Redirect(http.StatusSeeOther, "/admin/login?next="+url.QueryEscape(c.Request().URL.RequestURI()))
	}
}

// LoginAttempt is a password try counted against the login budgets
// (loginguard.go) before the password is checked.
type LoginAttempt struct{ a *loginAttempt }

// BeginLogin counts a login attempt from client (its address) for r, whose
// trusted-browser mark, if live, puts it on its own budget. It returns the
// attempt, or how long to wait and which budget is spent.
func (a *Auth) BeginLogin(r *http.Request, client string) (*LoginAttempt, time.Duration, BlockScope) {
	device := a.trustedDevice(r)
	if device != "" {
		sum := sha256.Sum256([]byte(device)) // the guard keeps no usable secret
		device = hex.EncodeToString(sum[:])
	}
	at, wait, scope := a.logins.begin(client, device)
	if at == nil {
		return nil, wait, scope
	}
	return &LoginAttempt{at}, 0, 0
}

// Succeeded gives the attempt back: the password was right.
func (l *LoginAttempt) Succeeded() { l.a.succeeded() }

// Penalty is how long this client must wait after the failed attempt (0
// while it has free tries left).
func (l *LoginAttempt) Penalty() time.Duration { return l.a.penalty() }

// NewLoginLink makes a one-time admin login link code, valid for
// LoginLinkTTL (`hearth admin login-link` prints it on the box): the way in
// while the account's throttling refuses new browsers.
func NewLoginLink(ctx context.Context, s Sessions) (string, error) {
	code, err := s.Create(ctx, kindLink, LoginLinkTTL)
	if err != nil {
		return "", fmt.Errorf("adminauth: login link: %w", err)
	}
	return code, nil
}

// TakeLoginLink uses up a login link code, reporting whether it was live.
func (a *Auth) TakeLoginLink(ctx context.Context, code string) (bool, error) {
	return a.sessions.Take(ctx, kindLink, code)
}

// HasPassword reports whether a password login is configured.
func (a *Auth) HasPassword() bool { return a.hash != nil }
