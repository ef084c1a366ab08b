package admin

import (
	"context"
	"io"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"hearth/internal/apperr"
	"hearth/internal/store"
	"hearth/views/adminview"
	"hearth/web/httpkit"
)

// MemberData exports and erases everything of one member.
type MemberData interface {
	Export(ctx context.Context, member string, w io.Writer) error
	ExportName(member string) string
	Counts(ctx context.Context, member string) ([]store.MemberDataCount, error)
	Erase(ctx context.Context, member string) error
}

// adminMemberExport sends the member's data as a zip (CSV per kind + JSON).
func (s *householdPages) adminMemberExport(c echo.Context) error {
	ctx := c.Request().Context()
	member := c.Param("member")
	if _, err := s.household.Member(ctx, member); err != nil {
		return err
	}
	h := c.Response().Header()
	h.Set(echo.HeaderContentType, "application/zip")
	h.Set(echo.HeaderContentDisposition, `attachment; filename="`+s.memberData.ExportName(member)+`"`)
	liftDeadlines(c)
	c.Response().WriteHeader(http.StatusOK)
	if err := s.memberData.Export(ctx, member, c.Response()); err != nil {
		// Headers are sent: the truncated zip fails to open; log the cause.
		s.log.Error("export failed", "member", member, "err", err)
	}
	return nil
}

func (s *householdPages) erasePage(c echo.Context, member string, confirmErr string) (adminview.AdminErase, error) {
	ctx := c.Request().Context()
	m, err := s.household.Member(ctx, member)
	if err != nil {
		return adminview.AdminErase{}, err
	}
	counts, err := s.memberData.Counts(ctx, member)
	if err != nil {
		return adminview.AdminErase{}, err
	}
	p := adminview.AdminErase{AdminPage: s.adminPage(c, "Erase "+m.Name, "household"), ID: m.ID, Name: m.Name, Error: confirmErr}
	for _, n := range counts {
		if n.Rows > 0 {
			p.Counts = append(p.Counts, adminview.EraseCount{What: n.What, Rows: n.Rows})
		}
	}
	return p, nil
}

// adminMemberErasePage says what erasing removes and offers the export first.
func (s *householdPages) adminMemberErasePage(c echo.Context) error {
	p, err := s.erasePage(c, c.Param("member"), "")
	if err != nil {
		return err
	}
	return httpkit.Render(c, http.StatusOK, adminview.AdminErasePage(p))
}

// adminMemberErase erases after the member's id was typed to confirm.
func (s *householdPages) adminMemberErase(c echo.Context) error {
	member := c.Param("member")
	if strings.TrimSpace(c.FormValue("confirm")) != member {
		p, err := s.erasePage(c, member, "Type the member's id exactly to confirm; nothing was erased.")
		if err != nil {
			return err
		}
		return httpkit.Render(c, http.StatusBadRequest, adminview.AdminErasePage(p))
	}
	if err := s.memberData.Erase(c.Request().Context(), member); err != nil {
		if apperr.Is(err, apperr.NotFound) {
			return err
		}
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/admin/household")
}
