package kiosk

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"hearth/internal/devices"
	"hearth/internal/screen"
	"hearth/views"
	"hearth/views/kioskview"
	"hearth/web/httpkit"
)

// Screens resolves the layout a screen shows (*screen.Service).
type Screens interface {
	Resolve(ctx context.Context, want, tokenHash string) (screen.Entry, error)
}

// layoutCookie remembers a layout chosen on a screen that is not enrolled
// (/?layout=tv once, and the TV keeps it).
const layoutCookie = "hearth_layout"

// screenChoice is how a request picks its layout: the ?layout= it names
// (sticky through the cookie unless it is an admin preview), the cookie,
// then (in screen.Service.Resolve) the enrolled screen's own and the
// household default.
type screenChoice struct {
	want    string
	inQuery bool // the stream URL carries it (a preview is not remembered)
}

// screenChoiceOf is the layout choice a request carries, without
// remembering anything (for requests that are not page loads).
func screenChoiceOf(c echo.Context) screenChoice {
	if q := c.QueryParam("layout"); q != "" && screen.ValidSlug(q) {
		return screenChoice{want: q, inQuery: c.QueryParam("preview") != ""}
	}
	if ck, err := c.Cookie(layoutCookie); err == nil && screen.ValidSlug(ck.Value) {
		return screenChoice{want: ck.Value}
	}
	return screenChoice{}
}

func chooseScreen(c echo.Context) screenChoice {
	secure := c.Scheme() == "https"
	q := c.QueryParam("layout")
	switch {
	case q == "auto": // forget a remembered choice
		c.SetCookie(&http.Cookie{Name: layoutCookie, Path: "/", MaxAge: -1, HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: secure})
		return screenChoice{}
	case q != "" && screen.ValidSlug(q) && c.QueryParam("preview") == "":
		c.SetCookie(&http.Cookie{Name: layoutCookie, Value: q, Path: "/", MaxAge: 400 * 24 * 3600,
			HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: secure})
		return screenChoice{want: q}
	}
	return screenChoiceOf(c)
}

// resolveScreen is the layout this request's screen shows; without a
// layout service every dashboard gets the shipped default.
func (s *dashboardModels) resolveScreen(ctx context.Context, c echo.Context, ch screenChoice) (screen.Entry, error) {
	return s.resolveScreenBy(ctx, ch, screenHash(c))
}

func (s *dashboardModels) resolveScreenBy(ctx context.Context, ch screenChoice, deviceHash string) (screen.Entry, error) {
	if s.deps.Screens == nil {
		return shippedDefault(), nil
	}
	return s.deps.Screens.Resolve(ctx, ch.want, deviceHash)
}

// screenHash is the stored hash of the enrolled screen's cookie ("" for a
// screen that is not enrolled).
func screenHash(c echo.Context) string {
	if tok, fromCookie := httpkit.DeviceToken(c.Request()); tok != "" && fromCookie {
		return devices.Hash(tok)
	}
	return ""
}

func shippedDefault() screen.Entry {
	l, err := screen.Shipped(screen.DefaultSlug)
	if err != nil {
		panic(err) // the binary's own layouts are checked by tests
	}
	return screen.Entry{Slug: screen.DefaultSlug, Layout: l, Shipped: true}
}

// screenView maps a layout onto the page: the grid's custom properties for
// each orientation and one cell per widget placed on any of them (hidden
// on the orientations that do not place it). Everything written into the
// style attributes is an integer of a validated layout.
func screenView(e screen.Entry) kioskview.ScreenView {
	land, port, narrow := e.Layout.Grids()
	grids := []struct {
		p string
		g screen.Grid
	}{{"l", land}, {"p", port}, {"n", narrow}}
	v := kioskview.ScreenView{Key: e.Key()}
	var gs strings.Builder
	for _, g := range grids {
		fmt.Fprintf(&gs, "--%sc:%d;--%sr:%d;", g.p, g.g.Cols, g.p, g.g.Rows)
	}
	v.Grid = templ.SafeCSS(gs.String())
	var order []string
	areas := map[string]*strings.Builder{}
	for _, g := range grids {
		for _, pl := range g.g.Places {
			b := areas[pl.Widget]
			if b == nil {
				b = &strings.Builder{}
				areas[pl.Widget] = b
				order = append(order, pl.Widget)
			}
			fmt.Fprintf(b, "--%sa:%d/%d/span %d/span %d;--%sd:flex;", g.p, pl.Row, pl.Col, pl.H, pl.W, g.p)
		}
	}
	for _, w := range order {
		v.Cells = append(v.Cells, kioskview.CellView{Widget: w, Style: templ.SafeCSS(areas[w].String())})
	}
	placed := e.Layout.Placed()
	for _, w := range screen.Widgets() {
		// The frame has the clock and the way to the coach; the household
		// view (⌂) is the tiles.
		if !placed[w.Name] && w.Name != "clock" && w.Name != "chat" && w.Name != "tiles" {
			v.More = append(v.More, w.Name)
		}
	}
	return v
}

// screenMembers keeps the switcher to the members the layout shows (and
// the member on screen).
func screenMembers(ms []kioskview.MemberTile, l screen.Layout, current string) []kioskview.MemberTile {
	if len(l.Members) == 0 {
		return ms
	}
	keep := map[string]bool{current: true}
	for _, m := range l.Members {
		keep[m] = true
	}
	out := make([]kioskview.MemberTile, 0, len(ms))
	for _, m := range ms {
		if keep[m.ID] {
			out = append(out, m)
		}
	}
	return out
}

// membersCSS is the rule that hides the switcher's members the layout does
// not show ("" : it shows all). Member ids are [a-z0-9_-] (household), so
// they are safe in a selector; anything else is left out.
func membersCSS(l screen.Layout, current string) string {
	if len(l.Members) == 0 {
		return ""
	}
	var keep []string
	for _, m := range append([]string{current}, l.Members...) {
		if views.SafeID(m) {
			keep = append(keep, "#switch-"+m)
		}
	}
	return "#switcher .switch:not(" + strings.Join(keep, ", ") + ") { display: none; }"
}

// nextMember is where a rotating screen goes next: the member after
// current among those the layout shows ("" when there is nowhere to go).
func nextMember(ms []kioskview.MemberTile, current string) string {
	if len(ms) < 2 {
		return ""
	}
	for i, m := range ms {
		if m.ID == current {
			return ms[(i+1)%len(ms)].ID
		}
	}
	return ms[0].ID
}

// idleFor is the layout's idle return (0: none).
func idleFor(l screen.Layout, def time.Duration) time.Duration {
	switch {
	case l.IdleSeconds < 0:
		return 0
	case l.IdleSeconds > 0:
		return time.Duration(l.IdleSeconds) * time.Second
	}
	return def
}
