package httpkit

import "github.com/labstack/echo/v4"

// Middleware is the route middleware the assembly (package web) hands
// each audience for its groups. Order matters and is the same on every
// group: Admin (admin groups only) first, so nothing reads an anonymous
// client's body; then Request (asset URLs, body limit, text gate, CSRF,
// which may parse a form); Idempotent on creating routes, last.
type Middleware struct {
	Request    []echo.MiddlewareFunc
	Admin      echo.MiddlewareFunc
	Idempotent echo.MiddlewareFunc
}

// AdminChain is Admin followed by Request: the group middleware of an
// admin group.
func (m Middleware) AdminChain() []echo.MiddlewareFunc {
	return append([]echo.MiddlewareFunc{m.Admin}, m.Request...)
}
