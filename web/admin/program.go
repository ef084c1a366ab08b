package admin

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"hearth/internal/apperr"
	"hearth/views/adminview"
	"hearth/web/httpkit"
)

// adminProgram changes a member's program from Admin → Household and shows
// the member page with what happened.
func (s *householdPages) adminProgram(c echo.Context) error {
	msg, err := s.programs.Apply(c, c.Param("member"), "the admin page")
	status := http.StatusOK
	if err != nil {
		ae := apperr.As(err)
		if ae == nil || ae.Code != apperr.Invalid {
			return err
		}
		msg, status = ae.Message, http.StatusBadRequest
		if len(ae.Fields) > 0 {
			msg = httpkit.FieldList(ae.Fields)
		}
	}
	p, err := s.memberAdminPage(c, nil, nil)
	if err != nil {
		return err
	}
	p.ProgramMessage, p.ProgramFailed = msg, status != http.StatusOK
	return httpkit.Render(c, status, adminview.AdminMemberPage(p))
}
