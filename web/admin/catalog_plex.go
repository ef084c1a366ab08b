package admin

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"hearth/internal/content"
	"hearth/views/adminview"
	"hearth/web/httpkit"
)

// plexOrigins say what started a sync, as the catalog page says it.
var plexOrigins = map[string]string{
	content.PlexSyncAtStart: "when Hearth started",
	content.PlexSyncCLI:     "by hearth plex sync",
	content.PlexSyncAdmin:   "from this page",
}

// plexView is the last Plex sync for the catalog page.
func (s *catalogPages) plexView(c echo.Context) (adminview.PlexSyncView, error) {
	var v adminview.PlexSyncView
	if s.plex != nil {
		v.Section = s.plex.PlexSection(c.Request().Context())
	}
	last, ok, err := s.catalog.LastPlexSync(c.Request().Context())
	if err != nil || !ok {
		return v, err
	}
	v.Recorded, v.Name, v.When, v.Origin, v.Error = true, last.Name(), s.fmtAge(last.Finished), plexOrigins[last.Origin], last.Error
	v.Took = last.Finished.Sub(last.Started).Round(100 * time.Millisecond).String()
	v.Seen, v.Added, v.Updated, v.Unchanged, v.Removed, v.Skipped = last.Seen, last.Added, last.Updated, last.Unchanged, last.Removed, last.Skipped
	v.Warnings = last.Warnings
	return v, nil
}

// adminCatalogPlexSync syncs the configured Plex section now and shows the
// catalog with the outcome (recorded, so the page shows it from then on).
func (s *catalogPages) adminCatalogPlexSync(c echo.Context) error {
	if s.plex == nil || s.plex.PlexSection(c.Request().Context()) == "" {
		p, err := s.catalogPage(c, adminview.Notice{Text: "Plex is not configured to sync: set its URL, token and library section on Admin → Integrations.", Error: true}, nil)
		if err != nil {
			return err
		}
		return httpkit.Render(c, http.StatusBadRequest, adminview.AdminCatalogPage(p))
	}
	res, err := s.plex.SyncPlexNow(c.Request().Context())
	notice := adminview.Notice{Text: res.Headline() + "."}
	if err != nil {
		notice = adminview.Notice{Text: "The Plex sync failed: " + res.Error, Error: true}
		if res.Error == "" { // not even recorded
			notice.Text = "The Plex sync failed: " + problemText(err)
		}
	}
	p, perr := s.catalogPage(c, notice, nil)
	if perr != nil {
		return perr
	}
	return httpkit.Render(c, http.StatusOK, adminview.AdminCatalogPage(p))
}
