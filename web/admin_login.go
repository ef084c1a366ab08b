package web

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"hearth/views"
)

func safeNext(next string) string {
	if !strings.HasPrefix(next, "/admin") || strings.HasPrefix(next, "//") || strings.Contains(next, "\\") {
		return "/admin"
	}
	return next
}

func (s *Server) pageLogin(c echo.Context) error {
	return render(c, http.StatusOK, views.Login(s.page(c, "Admin login"), safeNext(c.QueryParam("next")), ""))
}

func (s *Server) login(c echo.Context) error {
	next := safeNext(c.FormValue("next"))
	if !s.auth.checkPassword(c.FormValue("password")) {
		s.log.Warn("admin login failed", "ip", c.RealIP())
		msg := "Wrong password."
		if s.auth.hash == nil {
			msg = "No admin password is configured (set HEARTH_ADMIN_PASSWORD); the admin area is open to this machine only."
		}
		return render(c, http.StatusUnauthorized, views.Login(s.page(c, "Admin login"), next, msg))
	}
	c.SetCookie(s.auth.newSession())
	return c.Redirect(http.StatusSeeOther, next)
}

func (s *Server) logout(c echo.Context) error {
	c.SetCookie(&http.Cookie{Name: sessionCookie, Value: "", Path: "/", MaxAge: -1, HttpOnly: true, SameSite: http.SameSiteStrictMode})
	return c.Redirect(http.StatusSeeOther, "/")
}

func (s *Server) pageAdmin(c echo.Context) error {
	return render(c, http.StatusOK, views.AdminHome(s.adminPage(c, "Admin", "assignments")))
}
