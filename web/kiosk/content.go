package kiosk

import (
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"hearth/internal/apperr"
	"hearth/internal/content"
	"hearth/internal/household"
	"hearth/views"
	"hearth/views/kioskview"
	"hearth/web/httpkit"
	"hearth/web/programs"
)

// contentPages play catalog items and members' playlists and record what
// was done.
type contentPages struct {
	household  Household
	dashboards Dashboards
	catalog    Catalog
	programs   *programs.Controls // the member's program day on a card
	mediaDir   string
	thumbs     Thumbs // nil: Plex thumbnails answer the placeholder
	opt        Options
}

// localName extracts the file name part of a local content id.
var localName = regexp.MustCompile(`^local:([A-Za-z0-9][A-Za-z0-9._-]{0,99})$`)

// videoExts are the file types looked up for a local item, in order.
var videoExts = []string{".mp4", ".webm", ".m4v", ".mov", ".ogv"}

// localVideo returns the video file of a local item under MediaDir.
func (h *contentPages) localVideo(id string) (string, bool) {
	m := localName.FindStringSubmatch(id)
	if h.mediaDir == "" || m == nil || strings.Contains(m[1], "..") {
		return "", false
	}
	for _, ext := range videoExts {
		p := filepath.Join(h.mediaDir, m[1]+ext)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			return p, true
		}
	}
	return "", false
}

// externalURL is an item's play URL when it points at another player (Plex…).
func externalURL(it content.Item) string {
	u, err := url.Parse(it.PlayURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return ""
	}
	return it.PlayURL
}

// memberParam returns the member named by a query or form value when it exists.
func (h *contentPages) memberParam(c echo.Context, v string) string {
	if v == "" || !views.SafeID(v) {
		return ""
	}
	if _, err := h.household.Member(c.Request().Context(), v); err != nil {
		return ""
	}
	return v
}

func (h *contentPages) contentPage(c echo.Context, it content.Item, member string) (kioskview.ContentPage, error) {
	p := kioskview.ContentPage{Page: kioskPage(c, h.opt, it.Title, "", member, false), Item: itemCard(it, member),
		Summary: it.Summary, External: externalURL(it), MemberID: member, Back: "/"}
	if _, ok := h.localVideo(it.ID); ok {
		p.Video = "/content/" + url.PathEscape(it.ID) + "/video"
	}
	if member != "" {
		p.Back = "/m/" + member
		item, day := h.programs.Day(c.Request().Context(), member)
		p.Item = withDay(p.Item, item, day)
		return p, nil
	}
	ms, err := h.household.Members(c.Request().Context())
	p.Members = tilesOf(ms)
	return p, err
}

// pageContent plays one item; "?m=<member>" says who is playing it.
func (h *contentPages) pageContent(c echo.Context) error {
	if h.catalog == nil {
		return apperr.NotFoundf("no catalog")
	}
	it, err := h.catalog.Get(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	p, err := h.contentPage(c, it, h.memberParam(c, c.QueryParam("m")))
	if err != nil {
		return err
	}
	p.Done = c.QueryParam("done") == "1"
	return httpkit.Render(c, http.StatusOK, kioskview.ContentView(p))
}

// contentVideo streams a local item's video file (range requests work).
func (h *contentPages) contentVideo(c echo.Context) error {
	p, ok := h.localVideo(c.Param("id"))
	if !ok {
		return apperr.NotFoundf("no video file for this item")
	}
	return c.File(p)
}

// pagePlaylistPlayer plays a member's playlist in order, one item per page
// ("?i=" is the position); Done (or the video ending) moves on.
func (h *contentPages) pagePlaylistPlayer(c echo.Context) error {
	ctx := c.Request().Context()
	id := c.Param("member")
	if _, err := h.household.Member(ctx, id); err != nil {
		return err
	}
	if h.dashboards == nil || h.catalog == nil {
		return c.Redirect(http.StatusSeeOther, "/m/"+id)
	}
	ids, err := h.dashboards.Playlist(ctx, id)
	if err != nil {
		return err
	}
	i, _ := strconv.Atoi(c.QueryParam("i"))
	if len(ids) == 0 || i < 0 || i >= len(ids) {
		return c.Redirect(http.StatusSeeOther, "/m/"+id)
	}
	it, err := h.catalog.Get(ctx, ids[i])
	if apperr.Is(err, apperr.NotFound) && i+1 < len(ids) { // gone from the catalog: skip it
		return c.Redirect(http.StatusSeeOther, fmt.Sprintf("/m/%s/play?i=%d", id, i+1))
	}
	if err != nil {
		return err
	}
	p, err := h.contentPage(c, it, id)
	if err != nil {
		return err
	}
	p.InPlaylist, p.Index, p.Position = true, i, fmt.Sprintf("%d of %d", i+1, len(ids))
	if i+1 < len(ids) {
		p.Next = fmt.Sprintf("/m/%s/play?i=%d", id, i+1)
	}
	return httpkit.Render(c, http.StatusOK, kioskview.ContentView(p))
}

// contentDone records that a member finished an item: a consumed mark (Up
// Next for it disappears on every screen) and a workout with the item's
// content id, kind and length, so the state widgets count it.
func (h *contentPages) contentDone(c echo.Context) error {
	ctx := c.Request().Context()
	if h.catalog == nil || h.dashboards == nil {
		return apperr.NotFoundf("no catalog")
	}
	member := h.memberParam(c, c.FormValue("m"))
	if member == "" {
		return apperr.FieldErrors(map[string]string{"m": "choose who did it"})
	}
	httpkit.Owner(c, member)
	it, err := h.catalog.Get(ctx, c.FormValue("id"))
	if err != nil {
		return err
	}
	if err := h.dashboards.MarkConsumed(ctx, member, it.ID, "done_tap"); err != nil {
		return err
	}
	if _, err := h.household.LogWorkout(ctx, member, household.WorkoutInput{Type: it.Kind, Title: it.Title,
		DurationMin: float64(it.DurationMin), ContentID: it.ID}); err != nil {
		return err
	}
	if pos := c.FormValue("i"); pos != "" {
		if i, err := strconv.Atoi(pos); err == nil {
			ids, err := h.dashboards.Playlist(ctx, member)
			if err == nil && i+1 < len(ids) {
				return c.Redirect(http.StatusSeeOther, fmt.Sprintf("/m/%s/play?i=%d", member, i+1))
			}
		}
	}
	return c.Redirect(http.StatusSeeOther, "/m/"+member)
}

// plexThumb serves a Plex item's thumbnail (/plex/thumb/<ratingKey>)
// through Hearth: fetched server-side with the token and cached
// (content.PlexThumbs), so the page holds only this URL. An item not in
// the catalog, or without a picture, is 404; Plex not configured or not
// answering is 503; both answer a placeholder picture, not kept.
func (h *contentPages) plexThumb(c echo.Context) error {
	if h.thumbs == nil {
		return thumbPlaceholder(c, http.StatusNotFound)
	}
	f, err := h.thumbs.Open(c.Request().Context(), c.Param("key"))
	switch {
	case apperr.Is(err, apperr.NotFound):
		return thumbPlaceholder(c, http.StatusNotFound)
	case err != nil:
		h.opt.Logger.Info("plex thumbnail not served", "key", c.Param("key"), "err", err)
		return thumbPlaceholder(c, http.StatusServiceUnavailable)
	}
	defer f.Close()
	hd := c.Response().Header()
	hd.Set(echo.HeaderContentType, f.ContentType)
	hd.Set(echo.HeaderCacheControl, "private, max-age=86400")
	hd.Set("ETag", f.ETag) // a conditional request is answered 304 by ServeContent
	http.ServeContent(c.Response(), c.Request(), "", time.Time{}, f)
	return nil
}

// thumbPlaceholderSVG stands in for a picture Plex cannot give: a dark
// 16:9 frame with a play mark.
const thumbPlaceholderSVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 160 90" width="160" height="90">` +
	`<rect width="160" height="90" fill="#2b2f36"/><path d="M70 31v28l24-14z" fill="#8a93a3"/></svg>`

func thumbPlaceholder(c echo.Context, status int) error {
	c.Response().Header().Set(echo.HeaderCacheControl, "no-store") // try again next time
	return c.Blob(status, "image/svg+xml", []byte(thumbPlaceholderSVG))
}
