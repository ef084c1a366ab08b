package admin

import (
	"context"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"hearth/internal/apperr"
	"hearth/internal/screen"
	"hearth/views"
	"hearth/views/adminview"
	"hearth/web/httpkit"
)

// Layouts are the screen layouts as Admin → Screens edits them
// (*screen.Service).
type Layouts interface {
	List(ctx context.Context) ([]screen.Entry, error)
	Get(ctx context.Context, slug string) (screen.Entry, error)
	Save(ctx context.Context, slug string, l screen.Layout) (screen.Entry, error)
	Versions(ctx context.Context, slug string) ([]screen.Entry, error)
	Remove(ctx context.Context, slug string) error
	Default(ctx context.Context) (string, error)
	SetDefault(ctx context.Context, slug string) error
	Assign(ctx context.Context, device int64, slug string) error
	Assignments(ctx context.Context) (map[int64]string, error)
}

var layoutNotices = map[string]string{
	"saved":   "Saved: screens showing this layout rearrange now.",
	"default": "Screens without a layout of their own show the new default now.",
	"removed": "Removed.",
	"reset":   "Back to the layout as Hearth ships it.",
	"screen":  "The screen shows its new layout now.",
}

// layoutSection is Admin → Screens' layouts: the list, the default and
// the widget registry.
func (s *screenPage) layoutSection(ctx context.Context) (*adminview.LayoutSection, error) {
	list, err := s.layouts.List(ctx)
	if err != nil {
		return nil, err
	}
	def, err := s.layouts.Default(ctx)
	if err != nil {
		return nil, err
	}
	sec := &adminview.LayoutSection{Default: def}
	for _, e := range list {
		sec.Rows = append(sec.Rows, layoutRow(e, def))
	}
	for _, w := range screen.Widgets() {
		sizes := make([]string, len(w.Sizes))
		for i, z := range w.Sizes {
			sizes[i] = z.String()
		}
		sec.Widgets = append(sec.Widgets, adminview.WidgetRow{Name: w.Name, Title: w.Title, Sizes: strings.Join(sizes, ", "),
			Needs: strings.Join(w.Needs, ", "), Private: w.Private, About: w.About})
	}
	return sec, nil
}

func layoutRow(e screen.Entry, def string) adminview.LayoutRow {
	r := adminview.LayoutRow{Slug: e.Slug, Name: e.Layout.Name, Default: e.Slug == def, Shipped: e.Shipped}
	switch {
	case e.Version == 0:
		r.Version = "as shipped"
	case e.Shipped:
		r.Version = "edited, version " + strconv.Itoa(e.Version)
	default:
		r.Version = "version " + strconv.Itoa(e.Version)
	}
	land, port, narrow := e.Layout.Grids()
	r.Grids = gridText(e.Layout.Landscape, "landscape", land) + gridText(e.Layout.Portrait, " · portrait", port) +
		gridText(e.Layout.Narrow, " · narrow", narrow)
	r.Grids = strings.TrimPrefix(r.Grids, " · ")
	return r
}

func gridText(own *screen.Grid, name string, g screen.Grid) string {
	if own == nil {
		return ""
	}
	return name + " " + strconv.Itoa(g.Cols) + "×" + strconv.Itoa(g.Rows) + " (" + strconv.Itoa(len(g.Places)) + " widgets)"
}

// adminLayout is one layout's editor: its file, a live preview (the kiosk
// page itself, in a frame) and its versions.
func (s *screenPage) adminLayout(c echo.Context) error {
	e, err := s.layouts.Get(c.Request().Context(), c.Param("slug"))
	if err != nil {
		return err
	}
	p, err := s.layoutPage(c, e, string(e.Layout.JSON()), views.FormState{})
	if err != nil {
		return err
	}
	p.Notice = adminview.Notice{Text: layoutNotices[c.QueryParam("done")]}
	return httpkit.Render(c, http.StatusOK, adminview.AdminLayoutPage(p))
}

func (s *screenPage) layoutPage(c echo.Context, e screen.Entry, body string, form views.FormState) (adminview.AdminLayoutEditor, error) {
	ctx := c.Request().Context()
	p := adminview.AdminLayoutEditor{AdminPage: s.adminPage(c, "Layout: "+e.Layout.Name, "screens"), Row: layoutRow(e, ""),
		Body: body, Form: form}
	if def, err := s.layouts.Default(ctx); err == nil {
		p.Row.Default = def == e.Slug
	}
	vs, err := s.layouts.Versions(ctx, e.Slug)
	if err != nil {
		return p, err
	}
	for _, v := range vs {
		p.Versions = append(p.Versions, adminview.LayoutVersion{Version: strconv.Itoa(v.Version), Saved: s.fmtSlot(v.UpdatedAt)})
	}
	if s.members != nil {
		ms, err := s.members.Members(ctx)
		if err != nil {
			return p, err
		}
		if len(ms) > 0 {
			p.Preview = "/m/" + ms[0].ID + "?layout=" + e.Slug + "&preview=1"
		}
	}
	switch {
	case e.Layout.Landscape != nil:
		p.PreviewW, p.PreviewH = 1280, 800
	case e.Layout.Portrait != nil:
		p.PreviewW, p.PreviewH = 800, 1280
	default:
		p.PreviewW, p.PreviewH = 390, 844
	}
	return p, nil
}

// readLayout reads the posted layout file: the text area, or an uploaded
// file (JSON or YAML), at most screen.MaxBytes.
func readLayout(c echo.Context) (string, error) {
	if fh, err := c.FormFile("file"); err == nil && fh.Size > 0 {
		if fh.Size > screen.MaxBytes {
			return "", apperr.Invalidf("A layout file is at most %d KiB.", screen.MaxBytes>>10)
		}
		f, err := fh.Open()
		if err != nil {
			return "", err
		}
		defer f.Close()
		b, err := io.ReadAll(io.LimitReader(f, screen.MaxBytes+1))
		return string(b), err
	}
	return c.FormValue("body"), nil
}

// adminLayoutSave stores the edited file as the layout's next version; a
// file that does not validate (an unknown widget, overlapping places) is
// refused naming the problem, with the text kept.
func (s *screenPage) adminLayoutSave(c echo.Context) error {
	ctx := c.Request().Context()
	e, err := s.layouts.Get(ctx, c.Param("slug"))
	if err != nil {
		return err
	}
	body, err := readLayout(c)
	if err == nil {
		var l screen.Layout
		if l, err = screen.Parse([]byte(body)); err == nil {
			if _, err = s.layouts.Save(ctx, e.Slug, l); err == nil {
				s.log.Info("layout saved", "layout", e.Slug)
				return c.Redirect(http.StatusSeeOther, "/admin/screens/layouts/"+e.Slug+"?done=saved")
			}
		}
	}
	fs, ferr := formFailure(err, map[string]string{"body": body})
	if ferr != nil {
		return ferr
	}
	p, perr := s.layoutPage(c, e, body, fs)
	if perr != nil {
		return perr
	}
	return httpkit.Render(c, http.StatusBadRequest, adminview.AdminLayoutPage(p))
}

// adminLayoutCreate adds a layout: a copy of another (from) under a new
// name, or an imported file.
func (s *screenPage) adminLayoutCreate(c echo.Context) error {
	ctx := c.Request().Context()
	name := strings.TrimSpace(c.FormValue("name"))
	body, err := readLayout(c)
	var l screen.Layout
	if err == nil {
		if strings.TrimSpace(body) != "" {
			l, err = screen.Parse([]byte(body))
		} else {
			var from screen.Entry
			if from, err = s.layouts.Get(ctx, c.FormValue("from")); err == nil {
				l = from.Layout
			}
		}
	}
	if err == nil {
		if name != "" {
			l.Name = name
		}
		slug := screen.Slugify(l.Name)
		if _, gerr := s.layouts.Get(ctx, slug); gerr == nil {
			err = apperr.FieldErrors(map[string]string{"name": "A layout with this name exists: pick another name, or edit that one."})
		} else if _, err = s.layouts.Save(ctx, slug, l); err == nil {
			s.log.Info("layout added", "layout", slug)
			return c.Redirect(http.StatusSeeOther, "/admin/screens/layouts/"+slug+"?done=saved")
		}
	}
	fs, ferr := formFailure(err, map[string]string{"name": name, "body": body})
	if ferr != nil {
		return ferr
	}
	p, perr := s.screensPage(c, adminview.DeviceForms{}, adminview.Notice{}, nil)
	if perr != nil {
		return perr
	}
	if p.Layouts != nil {
		p.Layouts.New = fs
	}
	return httpkit.Render(c, http.StatusBadRequest, adminview.AdminScreensPage(p))
}

// adminLayoutExport downloads the layout as JSON (or YAML: ?format=yaml).
func (s *screenPage) adminLayoutExport(c echo.Context) error {
	e, err := s.layouts.Get(c.Request().Context(), c.Param("slug"))
	if err != nil {
		return err
	}
	if c.QueryParam("format") == "yaml" {
		c.Response().Header().Set(echo.HeaderContentDisposition, `attachment; filename="`+e.Slug+`.yaml"`)
		return c.Blob(http.StatusOK, "application/yaml; charset=utf-8", e.Layout.YAML())
	}
	c.Response().Header().Set(echo.HeaderContentDisposition, `attachment; filename="`+e.Slug+`.json"`)
	return c.Blob(http.StatusOK, echo.MIMEApplicationJSONCharsetUTF8, e.Layout.JSON())
}

// adminLayoutRemove deletes the household's layout, or returns a shipped
// one to as it ships.
func (s *screenPage) adminLayoutRemove(c echo.Context) error {
	ctx := c.Request().Context()
	e, err := s.layouts.Get(ctx, c.Param("slug"))
	if err != nil {
		return err
	}
	if err := s.layouts.Remove(ctx, e.Slug); err != nil {
		return err
	}
	s.log.Info("layout removed", "layout", e.Slug)
	if e.Shipped {
		return c.Redirect(http.StatusSeeOther, "/admin/screens/layouts/"+e.Slug+"?done=reset")
	}
	return c.Redirect(http.StatusSeeOther, "/admin/screens?done=removed#layouts")
}

// adminLayoutDefault sets the layout of screens without one of their own.
func (s *screenPage) adminLayoutDefault(c echo.Context) error {
	if err := s.layouts.SetDefault(c.Request().Context(), c.FormValue("layout")); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/admin/screens?done=default#layouts")
}

// adminScreenLayout gives an enrolled screen its layout ("" : the default).
func (s *screenPage) adminScreenLayout(c echo.Context) error {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil {
		return apperr.NotFoundf("no such screen")
	}
	if err := s.layouts.Assign(c.Request().Context(), id, c.FormValue("layout")); err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/admin/screens?done=screen#devices")
}
