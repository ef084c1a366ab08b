package admin

import (
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"hearth/views/adminview"
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
	if wait, global := s.auth.LoginBlocked(client); wait > 0 {
		secs := int(math.Ceil(wait.Seconds()))
		s.log.Warn("admin login refused: too many failures", "ip", client, "retry_after_s", secs, "global", global)
		c.Response().Header().Set("Retry-After", strconv.Itoa(secs))
		msg := fmt.Sprintf("Too many wrong passwords. Try again in %s.", waitText(secs))
		if global {
			msg = fmt.Sprintf("Too many wrong passwords have been tried on this Hearth. Try again in %s.", waitText(secs))
		}
		return httpkit.Render(c, http.StatusTooManyRequests, adminview.Login(httpkit.Page(c, "Admin login"), next, msg))
	}
	if !s.auth.CheckPassword(c.FormValue("password")) {
		msg := "Wrong password."
		if !s.auth.HasPassword() {
			msg = "No admin password is configured (set HEARTH_ADMIN_PASSWORD); the admin area is open to this machine only."
		} else if wait := s.auth.LoginFailed(client); wait > 0 {
			msg = fmt.Sprintf("Wrong password. Too many tries: wait %s before the next.", waitText(int(wait.Seconds())))
		}
		s.log.Warn("admin login failed", "ip", client)
		return httpkit.Render(c, http.StatusUnauthorized, adminview.Login(httpkit.Page(c, "Admin login"), next, msg))
	}
	s.auth.LoginSucceeded(client)
	ck, err := s.auth.NewSession(c.Request())
	if err != nil {
		return err
	}
	c.SetCookie(ck)
	s.log.Info("admin logged in", "ip", client)
	return c.Redirect(http.StatusSeeOther, next)
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
