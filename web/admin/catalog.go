package admin

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"hearth/internal/apperr"
	"hearth/internal/content"
	"hearth/views/adminview"
	"hearth/web/httpkit"
)

// catalogPages are Admin → Catalog.
type catalogPages struct {
	*core
	catalog CatalogAdmin
	plex    PlexSyncer // nil: no "Sync now"
}

// catalogPageItems caps the items the catalog page lists.
const catalogPageItems = 200

func (s *catalogPages) catalogPage(c echo.Context, notice adminview.Notice, problems []string) (adminview.AdminCatalog, error) {
	ctx := c.Request().Context()
	cat := s.catalog
	p := adminview.AdminCatalog{AdminPage: s.adminPage(c, "Catalog", "catalog"), Notice: notice, Problems: problems,
		Query: strings.TrimSpace(c.QueryParam("q")), Kind: c.QueryParam("kind"), Program: c.QueryParam("program"),
		MaxSize: fmt.Sprintf("%d MiB", content.MaxFileSize>>20)}
	for _, k := range content.Kinds() {
		p.Kinds = append(p.Kinds, string(k))
	}
	programs, err := cat.Programs(ctx)
	if err != nil {
		return p, err
	}
	for _, pr := range programs {
		p.Programs = append(p.Programs, adminview.ProgramRow{ID: pr.ID, Title: pr.Title, Description: pr.Description,
			Source: pr.Source, TotalDays: pr.TotalDays, TrainingDays: pr.TrainingDays})
	}
	if p.Total, err = cat.Count(ctx); err != nil {
		return p, err
	}
	items, err := cat.List(ctx, content.Filter{Query: p.Query, Kind: p.Kind, Program: p.Program, Limit: catalogPageItems})
	if err != nil {
		return p, err
	}
	for _, it := range items {
		m := it.Meta()
		p.Items = append(p.Items, adminview.CatalogRow{ID: it.ID, Title: it.Title, Kind: string(it.Kind), Program: it.Program,
			Day: it.Day, Duration: strconv.Itoa(it.DurationMin), Source: it.Source, Tags: strings.Join(it.Tags, ", "),
			Intensity: m.Intensity, Impact: m.Impact, Areas: strings.Join(m.Areas, ", "),
			Guessed: strings.Join(m.Guessed, ", "), Edited: it.MetaEdited,
			EditURL: "/admin/catalog?edit=" + url.QueryEscape(it.ID) + "#catalog-meta"})
	}
	p.Shown = len(p.Items)
	if p.Plex, err = s.plexView(c); err != nil {
		return p, err
	}
	if id := c.QueryParam("edit"); id != "" {
		it, err := cat.Get(ctx, id)
		if err != nil {
			return p, err
		}
		p.Edit = metaEditView(it)
	}
	return p, nil
}

// metaEditView is the metadata form of an item.
func metaEditView(it content.Item) *adminview.CatalogMetaEdit {
	k := content.KindMeta(it.Kind)
	e := &adminview.CatalogMetaEdit{ID: it.ID, Title: it.Title, Kind: string(it.Kind), Intensity: it.Intensity,
		Impact: it.Impact, Intensities: content.Intensities(), Impacts: content.Impacts(), AreasGuessed: it.Areas == nil,
		Edited: it.MetaEdited, KindIntensity: k.Intensity, KindImpact: k.Impact, KindAreas: strings.Join(k.Areas, ", ")}
	for _, a := range content.Areas() {
		e.Areas = append(e.Areas, adminview.CheckOption{Value: a, Checked: slices.Contains(it.Areas, a)})
	}
	return e
}

// adminCatalogMeta stores an admin's edit of an item's metadata (form
// fields id, intensity, impact, areas (repeated), areas_guessed, release)
// and shows the catalog with the item's form again.
func (s *catalogPages) adminCatalogMeta(c echo.Context) error {
	id := c.FormValue("id")
	form, err := c.FormParams()
	if err != nil {
		return apperr.Invalidf("the form could not be read")
	}
	e := content.MetaEdit{Intensity: c.FormValue("intensity"), Impact: c.FormValue("impact"),
		Release: c.FormValue("release") != ""}
	if c.FormValue("areas_guessed") == "" {
		e.Areas = append([]string{}, form["areas"]...)
	}
	notice := adminview.Notice{Text: "Metadata saved."}
	status := http.StatusOK
	it, err := s.catalog.SetMeta(c.Request().Context(), id, e)
	switch {
	case err == nil && e.Release:
		notice.Text = "The catalog's values apply again from the next import or sync."
	case apperr.CodeOf(err) == apperr.Invalid:
		notice, status = adminview.Notice{Text: "Nothing was saved: " + problemText(err), Error: true}, http.StatusBadRequest
	case err != nil:
		return err
	}
	c.QueryParams().Set("edit", id)
	p, perr := s.catalogPage(c, notice, nil)
	if perr != nil {
		return perr
	}
	if err == nil {
		p.Edit = metaEditView(it)
	}
	return httpkit.Render(c, status, adminview.AdminCatalogPage(p))
}

// adminCatalog browses and searches the catalog and lists the programs.
func (s *catalogPages) adminCatalog(c echo.Context) error {
	p, err := s.catalogPage(c, adminview.Notice{}, nil)
	if err != nil {
		return err
	}
	return httpkit.Render(c, http.StatusOK, adminview.AdminCatalogPage(p))
}

// adminCatalogImport imports an uploaded catalog file (multipart field
// "catalog", at most content.MaxFileSize). A bad file imports nothing and
// its problems are listed.
func (s *catalogPages) adminCatalogImport(c echo.Context) error {
	sum, err := s.importCatalog(c)
	if err == nil {
		msg := fmt.Sprintf("Imported: %d items added, %d updated, %d unchanged; %d programs added, %d updated, %d unchanged.",
			sum.ItemsAdded, sum.ItemsUpdated, sum.ItemsUnchanged, sum.ProgramsAdded, sum.ProgramsUpdated, sum.ProgramsUnchanged)
		p, perr := s.catalogPage(c, adminview.Notice{Text: msg}, nil)
		if perr != nil {
			return perr
		}
		return httpkit.Render(c, http.StatusOK, adminview.AdminCatalogPage(p))
	}
	var ae *apperr.Error
	if !errors.As(err, &ae) || (ae.Code != apperr.Invalid && ae.Code != apperr.TooLarge) {
		return err
	}
	var problems []string
	for k, v := range ae.Fields {
		problems = append(problems, k+": "+v)
	}
	sort.Strings(problems)
	msg := ae.Message
	if len(problems) > 0 {
		msg = "Nothing was imported: the catalog file has problems."
	} else {
		msg = "Nothing was imported: " + msg
	}
	p, perr := s.catalogPage(c, adminview.Notice{Text: msg, Error: true}, problems)
	if perr != nil {
		return perr
	}
	return httpkit.Render(c, httpkit.Status(ae.Code), adminview.AdminCatalogPage(p))
}

func (s *catalogPages) importCatalog(c echo.Context) (content.Summary, error) {
	r := c.Request()
	r.Body = http.MaxBytesReader(c.Response(), r.Body, content.MaxFileSize+1<<20)
	fh, err := c.FormFile("catalog")
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return content.Summary{}, apperr.New(apperr.TooLarge, "the catalog file is larger than %d MiB", content.MaxFileSize>>20)
		}
		return content.Summary{}, apperr.Invalidf("choose a catalog file to import")
	}
	if fh.Size > content.MaxFileSize {
		return content.Summary{}, apperr.New(apperr.TooLarge, "the catalog file is larger than %d MiB", content.MaxFileSize>>20)
	}
	f, err := fh.Open()
	if err != nil {
		return content.Summary{}, fmt.Errorf("admin: open uploaded catalog: %w", err)
	}
	defer f.Close()
	return s.catalog.ImportFile(c.Request().Context(), f)
}

// problemText is an apperr's message with its field problems.
func problemText(err error) string {
	var ae *apperr.Error
	if !errors.As(err, &ae) {
		return err.Error()
	}
	parts := make([]string, 0, len(ae.Fields))
	for _, v := range ae.Fields {
		parts = append(parts, v)
	}
	sort.Strings(parts)
	if len(parts) == 0 {
		return ae.Message
	}
	return ae.Message + ": " + strings.Join(parts, "; ")
}
