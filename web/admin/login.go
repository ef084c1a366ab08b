package admin

import (
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"hearth/views/adminview"
	"hearth/web/adminauth"
	"hearth/web/httpkit"
)

// loginPages are the admin login and logout: open routes (no admin auth).
type loginPages struct{ *core }

func safeNext(next string) string {
	if !strings.HasPrefix(next, "/admin") || strings.HasPrefix(next, "//") || strings.Contains(next, "\\") {
		return "/admin"
	}
	return next
}

func (s *loginPages) pageLogin(c echo.Context) error {
	return httpkit.Render(c, http.StatusOK, adminview.Login(httpkit.Page(c, "Admin login"), safeNext(c.QueryParam("next")), ""))
}

func (s *loginPages) login(c echo.Context) error {
	next := safeNext(c.FormValue("next"))
	client := c.RealIP()
	if !s.auth.HasPassword() {
		return httpkit.Render(c, http.StatusUnauthorized, adminview.Login(httpkit.Page(c, "Admin login"), next,
			"No admin password is configured (set HEARTH_ADMIN_PASSWORD); the admin area is open to this machine only."))
	}
	// The attempt is counted before bcrypt runs: parallel guesses cannot all
	// be checked before the first failure is counted.
	attempt, wait, scope := s.auth.BeginLogin(c.Request(), client)
	if attempt == nil {
		secs := int(math.Ceil(wait.Seconds()))
		s.log.Warn("admin login refused: too many failures", "ip", client, "retry_after_s", secs, "account", scope == adminauth.BlockAccount)
		c.Response().Header().Set("Retry-After", strconv.Itoa(secs))
		msg := fmt.Sprintf("Too many wrong passwords. Try again in %s.", waitText(secs))
		if scope == adminauth.BlockAccount {
			msg = fmt.Sprintf("Too many wrong passwords have been tried on this Hearth, from several addresses. Try again in %s, "+
				"log in from a browser that has logged in before, or run `hearth admin login-link` on the Hearth box for a one-time link.", waitText(secs))
		}
		return httpkit.Render(c, http.StatusTooManyRequests, adminview.Login(httpkit.Page(c, "Admin login"), next, msg))
	}
	if !s.auth.CheckPassword(c.FormValue("password")) {
		msg := "Wrong password."
		if wait := attempt.Penalty(); wait > 0 {
			msg = fmt.Sprintf("Wrong password. Too many tries: wait %s before the next.", waitText(int(math.Ceil(wait.Seconds()))))
		}
		s.log.Warn("admin login failed", "ip", client)
		return httpkit.Render(c, http.StatusUnauthorized, adminview.Login(httpkit.Page(c, "Admin login"), next, msg))
	}
	attempt.Succeeded()
	if err := s.startSession(c); err != nil {
		return err
	}
	s.log.Info("admin logged in", "ip", client)
	return c.Redirect(http.StatusSeeOther, next)
}

func (s *loginPages) startSession(c echo.Context) error {
	cookies, err := s.auth.NewSession(c.Request())
	if err != nil {
		return err
	}
	for _, ck := range cookies {
		c.SetCookie(ck)
	}
	return nil
}

// pageLoginLink is where a `hearth admin login-link` link lands: a button,
// not a login, so a link preview or prefetch cannot use the link up.
func (s *loginPages) pageLoginLink(c echo.Context) error {
	return httpkit.Render(c, http.StatusOK, adminview.LoginLink(httpkit.Page(c, "Admin login"), c.QueryParam("code"), ""))
}

// loginLink trades a one-time link for a session (and the trusted-browser
// mark). It is not throttled: the code is 256 random bits and single-use.
func (s *loginPages) loginLink(c echo.Context) error {
	ok, err := s.auth.TakeLoginLink(c.Request().Context(), c.FormValue("code"))
	if err != nil {
		return err
	}
	if !ok {
		s.log.Warn("admin login link refused", "ip", c.RealIP())
		return httpkit.Render(c, http.StatusUnauthorized, adminview.LoginLink(httpkit.Page(c, "Admin login"), "",
			"This login link was used already or has expired. Run `hearth admin login-link` on the Hearth box for a new one."))
	}
	if err := s.startSession(c); err != nil {
		return err
	}
	s.log.Info("admin logged in with a login link", "ip", c.RealIP())
	return c.Redirect(http.StatusSeeOther, "/admin")
}

// waitText says a wait in seconds as people do ("30 seconds", "4 minutes").
func waitText(secs int) string {
	if secs < 90 {
		return fmt.Sprintf("%d seconds", secs)
	}
	return fmt.Sprintf("%d minutes", (secs+59)/60)
}

func (s *loginPages) logout(c echo.Context) error {
	ck, err := s.auth.EndSession(c.Request())
	c.SetCookie(ck)
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/")
}
