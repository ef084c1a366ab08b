package web

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"hearth/internal/apperr"
	"hearth/internal/dashboard"
	"hearth/views/kioskview"
	"hearth/web/httpkit"
)

// maxQuery caps a catalog search string.
const maxQuery = 100

// kioskCatalog searches the catalog for the playlist builder.
func (s *Server) kioskCatalog(c echo.Context) error {
	id := c.Param("member")
	q := strings.TrimSpace(c.QueryParam("q"))
	if len([]rune(q)) > maxQuery {
		q = string([]rune(q)[:maxQuery])
	}
	if !httpkit.IsDatastar(c) {
		return c.Redirect(http.StatusSeeOther, "/m/"+id)
	}
	if _, err := s.deps.Household.Member(c.Request().Context(), id); err != nil {
		return err
	}
	r, err := s.catalogModel(c.Request().Context(), id, httpkit.CSRFToken(c), q)
	if err != nil {
		return err
	}
	return httpkit.NewSSE(c).PatchElementTempl(kioskview.CatalogList(r))
}

// kioskPlaylist edits a member's playlist: add (from the catalog), remove,
// up, down, suggest (take the coach's suggested stack) and clear, in one
// transaction of the dashboard store. The answer is empty: the live stream
// of every open screen, this one included, shows the new playlist.
func (s *Server) kioskPlaylist(c echo.Context) error {
	ctx := c.Request().Context()
	id := c.Param("member")
	if s.deps.Dashboards == nil || s.deps.Catalog == nil {
		return apperr.Invalidf("playlists are not available")
	}
	if _, err := s.deps.Household.Member(ctx, id); err != nil {
		return err
	}
	edit := dashboard.PlaylistEdit{Op: c.FormValue("op"), ContentID: strings.TrimSpace(c.FormValue("id")), Pos: -1}
	if pos, err := strconv.Atoi(c.FormValue("pos")); err == nil {
		edit.Pos = pos
	}
	if edit.Op == dashboard.PlaylistAdd {
		if _, err := s.deps.Catalog.Get(ctx, edit.ContentID); err != nil {
			return err
		}
	}
	if err := s.deps.Dashboards.EditPlaylist(ctx, id, edit); err != nil {
		return err
	}
	if !httpkit.IsDatastar(c) {
		return c.Redirect(http.StatusSeeOther, "/m/"+id)
	}
	httpkit.NewSSE(c) // 200 with no events: the stream patches the playlist
	return nil
}
