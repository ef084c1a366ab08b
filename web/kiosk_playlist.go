package web

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"hearth/internal/apperr"
	"hearth/views"
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
	if !isDatastar(c) {
		return c.Redirect(http.StatusSeeOther, "/m/"+id)
	}
	if _, err := s.deps.Household.Member(c.Request().Context(), id); err != nil {
		return err
	}
	r, err := s.catalogModel(c.Request().Context(), id, csrfToken(c), q)
	if err != nil {
		return err
	}
	return newSSE(c).PatchElementTempl(views.CatalogList(r))
}

// kioskPlaylist edits a member's playlist: add (from the catalog), remove,
// up, down, suggest (take the coach's suggested stack) and clear.
func (s *Server) kioskPlaylist(c echo.Context) error {
	ctx := c.Request().Context()
	id := c.Param("member")
	if s.deps.Dashboards == nil || s.deps.Catalog == nil {
		return apperr.Invalidf("playlists are not available")
	}
	if _, err := s.deps.Household.Member(ctx, id); err != nil {
		return err
	}
	ids, err := s.deps.Dashboards.Playlist(ctx, id)
	if err != nil {
		return err
	}
	content := strings.TrimSpace(c.FormValue("id"))
	switch op := c.FormValue("op"); op {
	case "add":
		if _, err := s.deps.Catalog.Get(ctx, content); err != nil {
			return err
		}
		ids = append(ids, content)
	case "remove", "up", "down":
		i := playlistIndex(ids, c.FormValue("pos"), content)
		if i < 0 {
			break // changed on another screen meanwhile: just show the current list
		}
		switch {
		case op == "remove":
			ids = slices.Delete(ids, i, i+1)
		case op == "up" && i > 0:
			ids[i-1], ids[i] = ids[i], ids[i-1]
		case op == "down" && i < len(ids)-1:
			ids[i+1], ids[i] = ids[i], ids[i+1]
		}
	case "suggest":
		st, err := s.deps.Dashboards.Latest(ctx, id, s.deps.Dashboards.Day(time.Now()))
		if err != nil {
			return err
		}
		ids = ids[:0]
		for _, r := range st.Document.Curated.PlaylistSuggestion {
			ids = append(ids, r.ContentID)
		}
	case "clear":
		ids = nil
	default:
		return apperr.Invalidf("unknown playlist operation %q", op)
	}
	if err := s.deps.Dashboards.SetPlaylist(ctx, id, ids); err != nil {
		return err
	}
	if !isDatastar(c) {
		return c.Redirect(http.StatusSeeOther, "/m/"+id)
	}
	d, err := s.dashboardModel(ctx, id, csrfToken(c))
	if err != nil {
		return err
	}
	return newSSE(c).PatchElementTempl(views.PlaylistView(d.Playlist))
}

// playlistIndex finds the row a button belongs to: its position when the id
// still matches there, else the id's first position, else -1.
func playlistIndex(ids []string, pos, id string) int {
	if i, err := strconv.Atoi(pos); err == nil && i >= 0 && i < len(ids) && ids[i] == id {
		return i
	}
	return slices.Index(ids, id)
}
