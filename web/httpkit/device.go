package httpkit

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"
)

// DeviceCookie holds an enrolled screen's device token (internal/devices).
const DeviceCookie = "hearth_device"

// deviceCookieAge is how long a browser keeps the device cookie; the
// server renews it when it records the screen as seen, so a wall screen
// stays enrolled until revoked (browsers cap cookies at 400 days).
const deviceCookieAge = 400 * 24 * 60 * 60

// NewDeviceCookie is the cookie that carries a screen's device token:
// HttpOnly (no script reads it), SameSite=Strict (no other site's request
// carries it), Secure over TLS or when secure is set (behind a TLS proxy).
func NewDeviceCookie(r *http.Request, token string, secure bool) *http.Cookie {
	return &http.Cookie{Name: DeviceCookie, Value: token, Path: "/", MaxAge: deviceCookieAge,
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: secure || r.TLS != nil}
}

// DeviceToken is the request's device token: a script's
// "Authorization: Bearer" header, else a screen's cookie ("" if neither).
func DeviceToken(r *http.Request) (token string, fromCookie bool) {
	if h := r.Header.Get(echo.HeaderAuthorization); len(h) > 7 && strings.EqualFold(h[:7], "bearer ") {
		return strings.TrimSpace(h[7:]), false
	}
	if ck, err := r.Cookie(DeviceCookie); err == nil {
		return ck.Value, true
	}
	return "", false
}
