package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"hearth/views"
	"hearth/web/httpkit"
)

// kioskProgram changes the member's program from their dashboard; the live
// stream re-renders the card.
func (s *Server) kioskProgram(c echo.Context) error {
	member := c.Param("member")
	msg, err := s.programs.Apply(c, member, "the kiosk")
	if err != nil {
		return err
	}
	if !httpkit.IsDatastar(c) {
		return c.Redirect(http.StatusSeeOther, "/m/"+member)
	}
	return httpkit.NewSSE(c).PatchElementTempl(views.Flash(msg, false))
}
