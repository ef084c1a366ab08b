package kiosk

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

// playlists are the playlist builder: catalog search and edits.
type playlists struct {
	board      *dashboardModels // the catalog list model
	household  Household
	dashboards Dashboards
	catalog    Catalog
}

// kioskCatalog searches the catalog for the playlist builder.
func (h *playlists) kioskCatalog(c echo.Context) error {
	id := c.Param("member")
	q := strings.TrimSpace(c.QueryParam("q"))
	if len([]rune(q)) > maxQuery {
		q = string([]rune(q)[:maxQuery])
	}
	if !httpkit.IsDatastar(c) {
		return c.Redirect(http.StatusSeeOther, "/m/"+id)
	}
	if _, err := h.household.Member(c.Request().Context(), id); err != nil {
		return err
	}
	r, err := h.board.catalogModel(c.Request().Context(), id, httpkit.CSRFToken(c), q)
	if err != nil {
		return err
	}
	return httpkit.NewSSE(c).PatchElementTempl(kioskview.CatalogList(r))
}

// kioskPlaylist edits a member's playlist: add (from the catalog), remove,
// up, down, suggest (take the coach's suggested stack) and clear, in one
// transaction of the dashboard store. The answer is empty: the live stream
// of every open screen, this one included, shows the new playlist.
func (h *playlists) kioskPlaylist(c echo.Context) error {
	ctx := c.Request().Context()
	id := c.Param("member")
	if h.dashboards == nil || h.catalog == nil {
		return apperr.Invalidf("playlists are not available")
	}
	if _, err := h.household.Member(ctx, id); err != nil {
		return err
	}
	edit := dashboard.PlaylistEdit{Op: c.FormValue("op"), ContentID: strings.TrimSpace(c.FormValue("id")), Pos: -1}
	if pos, err := strconv.Atoi(c.FormValue("pos")); err == nil {
		edit.Pos = pos
	}
	if edit.Op == dashboard.PlaylistAdd {
		if _, err := h.catalog.Get(ctx, edit.ContentID); err != nil {
			return err
		}
	}
	if err := h.dashboards.EditPlaylist(ctx, id, edit); err != nil {
		return err
	}
	if !httpkit.IsDatastar(c) {
		return c.Redirect(http.StatusSeeOther, "/m/"+id)
	}
	httpkit.NewSSE(c) // 200 with no events: the stream patches the playlist
	return nil
}
