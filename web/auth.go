package web

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"golang.org/x/crypto/bcrypt"
)

const (
	sessionCookie = "hearth_admin"
	sessionTTL    = 12 * time.Hour
)

// auth guards the admin area: a bcrypt-checked password gives a signed,
// HttpOnly, SameSite=Strict session cookie; scripts use the bearer token;
// with neither configured only loopback clients get in.
type auth struct {
	hash  []byte // bcrypt of the admin password; nil = no password
	token string
	key   []byte
	now   func() time.Time
}

func newAuth(password, token string, key []byte) (*auth, error) {
	a := &auth{token: token, key: key, now: time.Now}
	if len(a.key) == 0 {
		a.key = make([]byte, 32)
		if _, err := rand.Read(a.key); err != nil {
			return nil, fmt.Errorf("web: session key: %w", err)
		}
	}
	if password != "" {
		h, err := bcrypt.GenerateFromPassword([]byte(password), bcrypt.DefaultCost)
		if err != nil {
			return nil, fmt.Errorf("web: hash admin password: %w", err)
		}
		a.hash = h
	}
	return a, nil
}

func (a *auth) open() bool { return a.hash == nil && a.token == "" }

func (a *auth) checkPassword(pw string) bool {
	return a.hash != nil && bcrypt.CompareHashAndPassword(a.hash, []byte(pw)) == nil
}

func (a *auth) bearerOK(r *http.Request) bool {
	h := r.Header.Get(echo.HeaderAuthorization)
	if a.token == "" || len(h) < 7 || !strings.EqualFold(h[:7], "bearer ") {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(strings.TrimSpace(h[7:])), []byte(a.token)) == 1
}

func (a *auth) sign(exp int64) string {
	m := hmac.New(sha256.New, a.key)
	fmt.Fprintf(m, "admin|%d", exp)
	return strconv.FormatInt(exp, 10) + "." + base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

func (a *auth) newSession() *http.Cookie {
	exp := a.now().Add(sessionTTL)
	return &http.Cookie{Name: sessionCookie, Value: a.sign(exp.Unix()), Path: "/", Expires: exp,
		HttpOnly: true, SameSite: http.SameSiteStrictMode}
}

func (a *auth) sessionOK(r *http.Request) bool {
	ck, err := r.Cookie(sessionCookie)
	if err != nil {
		return false
	}
	exp, _, ok := strings.Cut(ck.Value, ".")
	if !ok {
		return false
	}
	n, err := strconv.ParseInt(exp, 10, 64)
	if err != nil || a.now().Unix() > n {
		return false
	}
	return hmac.Equal([]byte(ck.Value), []byte(a.sign(n)))
}

func isLoopback(c echo.Context) bool {
	ip := net.ParseIP(c.RealIP())
	return ip != nil && ip.IsLoopback()
}

// allowed reports whether the request may use the admin area.
func (a *auth) allowed(c echo.Context) bool {
	r := c.Request()
	if a.open() {
		return isLoopback(c)
	}
	return a.sessionOK(r) || a.bearerOK(r)
}

// requireAdmin guards admin pages (redirect to login) and admin APIs and
// /debug/ (401 JSON).
func (s *Server) requireAdmin(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if s.auth.allowed(c) {
			return next(c)
		}
		if s.auth.open() {
			return echo.NewHTTPError(http.StatusForbidden, "admin is only reachable from this machine until HEARTH_ADMIN_PASSWORD or HEARTH_API_TOKEN is set")
		}
		if p := c.Request().URL.Path; strings.HasPrefix(p, "/api/") || strings.HasPrefix(p, "/debug/") || c.Request().Method != http.MethodGet {
			return echo.NewHTTPError(http.StatusUnauthorized, "login required")
		}
		return c.Redirect(http.StatusSeeOther, "/admin/login?next="+urlQueryEscape(c.Request().URL.RequestURI()))
	}
}
