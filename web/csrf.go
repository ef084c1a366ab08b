package web

import (
	"bytes"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"hearth/web/httpkit"
)

// crossOrigin is the first layer: no trusted origins, no bypass patterns.
var crossOrigin = http.NewCrossOriginProtection()

const (
	csrfCookie = httpkit.CSRFCookie
	csrfHeader = httpkit.CSRFHeader
	csrfField  = httpkit.CSRFField
)

// csrf protects every state-changing request in two layers:
//  1. cross-origin requests are refused by the standard library's
//     http.CrossOriginProtection (Sec-Fetch-Site, else Origin against Host);
//  2. a browser request must carry the double-submit token (cookie = header
//     X-CSRF-Token or form field _csrf). Datastar actions send the header.
//
// Requests with no browser signal at all (no cookie, no Sec-Fetch-Site, no
// Origin: curl, scripts) to /api/ cannot ride on a victim's browser, so they
// pass; admin APIs still need the bearer token or a session (see auth).
func (s *Server) csrf(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		_, noCookie := r.Cookie(csrfCookie)
		hadCookie := noCookie == nil
		token := ensureCSRFCookie(c)
		httpkit.SetCSRFToken(c, token)
		switch r.Method {
		case http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodTrace:
			return next(c)
		}
		if crossOrigin.Check(r) != nil {
			return echo.NewHTTPError(http.StatusForbidden, "cross-site request refused")
		}
		browser := hadCookie || r.Header.Get("Sec-Fetch-Site") != "" || r.Header.Get("Origin") != ""
		if !browser && strings.HasPrefix(r.URL.Path, "/api/") {
			return next(c)
		}
		if strings.HasPrefix(strings.ToLower(r.Header.Get(echo.HeaderAuthorization)), "bearer ") && s.auth.BearerOK(r) {
			return next(c)
		}
		sent := r.Header.Get(csrfHeader)
		if sent == "" {
			sent = formToken(r)
		}
		if !hadCookie || sent == "" || subtle.ConstantTimeCompare([]byte(sent), []byte(token)) != 1 {
			return echo.NewHTTPError(http.StatusForbidden, "missing or invalid CSRF token: reload the page and try again")
		}
		return next(c)
	}
}

// formToken reads _csrf from a form body, never from the query string (a
// token in a URL ends up in access logs and Referer headers). A urlencoded
// form was parsed by textGate already. A multipart body is not parsed to
// find it: only its first part is read, when that part is the token (as in
// Hearth's own upload forms), and the bytes read are put back.
func formToken(r *http.Request) string {
	ct := r.Header.Get(echo.HeaderContentType)
	switch {
	case strings.HasPrefix(ct, echo.MIMEApplicationForm):
		return r.PostFormValue(csrfField)
	case strings.HasPrefix(ct, echo.MIMEMultipartForm):
		return firstPartToken(r, ct)
	}
	return ""
}

// maxFirstPart bounds what is read of a multipart body to find the token.
const maxFirstPart = 8 << 10

func firstPartToken(r *http.Request, ct string) string {
	_, params, err := mime.ParseMediaType(ct)
	if err != nil || params["boundary"] == "" || r.Body == nil {
		return ""
	}
	var seen bytes.Buffer
	mr := multipart.NewReader(io.TeeReader(io.LimitReader(r.Body, maxFirstPart), &seen), params["boundary"])
	tok := ""
	if p, err := mr.NextPart(); err == nil && p.FormName() == csrfField {
		b, _ := io.ReadAll(io.LimitReader(p, 128))
		tok = string(b)
	}
	r.Body = readCloser{io.MultiReader(bytes.NewReader(seen.Bytes()), r.Body), r.Body}
	return tok
}

// readCloser puts read bytes back in front of a body, keeping its Close.
type readCloser struct {
	io.Reader
	io.Closer
}

func ensureCSRFCookie(c echo.Context) string {
	// Only a token of the shape this server issues is kept: the token is
	// echoed into pages (data-signals, evaluated by Datastar), so a cookie
	// planted by someone else must never reach them.
	if ck, err := c.Cookie(csrfCookie); err == nil && isToken(ck.Value) {
		return ck.Value
	}
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	tok := hex.EncodeToString(b)
	// Lax, not Strict: a top-level navigation from another site must still
	// carry the cookie, or it would be replaced and break forms open in other
	// tabs. Double-submit protection does not rely on SameSite.
	c.SetCookie(&http.Cookie{Name: csrfCookie, Value: tok, Path: "/", HttpOnly: true, SameSite: http.SameSiteLaxMode})
	// Make the new token visible to this request's own checks.
	c.Request().AddCookie(&http.Cookie{Name: csrfCookie, Value: tok})
	return tok
}

// isToken reports whether s is 32 lower-case hex digits.
func isToken(s string) bool {
	if len(s) != 32 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
