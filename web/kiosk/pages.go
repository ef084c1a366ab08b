package kiosk

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"hearth/internal/dashboard/board"
	"hearth/internal/health"
	"hearth/internal/screen"
	"hearth/views"
	"hearth/views/kioskview"
	"hearth/web/httpkit"
)

// kioskPage fills what every kiosk page shares: CSRF token, the household
// clock's time zone, the live stream, the night schedule (on a member's
// page, with what their morning holds) and, when idle is set, the return
// to the household view after KioskIdle untouched. Only dashboards set
// idle: the content and Play pages stay while a workout runs, however long
// nobody touches the screen.
func kioskPage(c echo.Context, opt Options, title, stream, member string, idle bool) views.Page {
	p := httpkit.Page(c, title)
	p.Stream, p.Screen = stream, true
	if name := opt.Location.String(); name != "Local" && name != "" {
		p.TZ = name
		p.TZOffsetMin, p.TZUntilMS = zoneNow(time.Now().In(opt.Location))
	}
	if idle {
		p.IdleMS = opt.KioskIdle.Milliseconds()
	}
	opt.night.fill(c.Request().Context(), &p, member, time.Now(), nil)
	return p
}

// zoneNow is now's offset from UTC in minutes and the Unix ms at which
// its zone period ends (a daylight-saving change; 0: none ahead).
func zoneNow(now time.Time) (offsetMin int, untilMS int64) {
	_, off := now.Zone()
	if _, end := now.ZoneBounds(); !end.IsZero() {
		untilMS = end.UnixMilli()
	}
	return off / 60, untilMS
}

// homePages are the household view and its live stream.
type homePages struct {
	household Household
	alerts    Alerts
	live      Live
	opt       Options
	log       *slog.Logger
	locks     *screenLocks
}

func (s *homePages) pageHousehold(c echo.Context) error {
	// Back at the household view (a tap on ⌂ or the idle return): every
	// member this screen unlocked is locked again.
	s.locks.unlocks.LockScreen(ensureScreen(c))
	tiles, err := s.householdTiles(c.Request().Context())
	if err != nil {
		return err
	}
	now := time.Now().In(s.opt.Location)
	p := kioskview.HouseholdPage{Page: kioskPage(c, s.opt, "Household", "/live/household", "", false),
		Clock: now.Format("15:04"), Date: now.Format("Monday 2 January"), Members: tiles, Alert: s.adminAlert(c.Request().Context())}
	return httpkit.Render(c, http.StatusOK, kioskview.Household(p))
}

// householdTiles builds one tile per member with a single glance figure:
// the weight and its weekly change, or (figures private) this week's workouts.
func (s *homePages) householdTiles(ctx context.Context) ([]kioskview.MemberTile, error) {
	return householdTiles(ctx, s.household, s.opt.Location)
}

// householdTiles is the household view's tiles, and the tiles widget's.
func householdTiles(ctx context.Context, h Household, loc *time.Location) ([]kioskview.MemberTile, error) {
	ms, err := h.Members(ctx)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	tiles := tilesOf(ms)
	for i, m := range ms {
		t := &tiles[i]
		if m.PrivateFigures {
			wos, err := h.Workouts(ctx, m.ID, 30)
			if err != nil {
				return nil, err
			}
			n := health.WorkoutStats(wos, now, loc).ThisWeekCount
			t.Glance, t.GlanceLabel = views.Plural(n, "workout"), "this week"
			continue
		}
		ws, err := h.Weights(ctx, m.ID, 60)
		if err != nil {
			return nil, err
		}
		w := board.WeightOf(m, ws, now, loc) // as the member's page shows it
		tr := w.Trend
		last, stale := w.Last(now, loc)
		if last == nil {
			t.Glance, t.GlanceLabel = "–", "no weigh-in yet"
			continue
		}
		u := m.Unit.Normalize()
		t.Glance = board.WeightNumber(u, last.WeightKg) + " " + string(u) // as the weight widget shows it
		if stale {                                                        // history, not this week's weight
			t.GlanceLabel = "last weighed " + health.ShortDayText(last.MeasuredAt, now, loc)
		} else if tr.Change7dKg != nil {
			t.GlanceLabel = u.FormatDelta(*tr.Change7dKg) + " this week"
		} else if tr.LastWeighIn != nil {
			t.GlanceLabel = "weighed " + views.When(*tr.LastWeighIn, now, loc)
		}
	}
	return tiles, nil
}

// dashboardPages are a member's dashboard and its live stream.
type dashboardPages struct {
	board     *dashboardModels
	household Household
	live      Live
	detached  *httpkit.Streams // nil: streams stay on their request goroutine
}

func (s *dashboardPages) pageMember(c echo.Context) error {
	if ok, err := s.board.sealedPage(c); ok {
		return err
	}
	if ok, err := s.board.serveCachedDashboard(c); ok {
		return err
	}
	return s.board.renderDashboard(c, http.StatusOK, "", nil)
}

// renderDashboard renders a member's full dashboard; open names a sheet to
// show at once, whose state fill sets (a failed plain-form post, an entry
// to correct).
func (s *dashboardModels) renderDashboard(c echo.Context, status int, open string, fill func(*kioskview.Sheets)) error {
	ctx := c.Request().Context()
	csrf := httpkit.CSRFToken(c)
	d, err := s.sharedModel(ctx, c.Param("member"), csrf)
	if err != nil {
		return err
	}
	ch := chooseScreen(c)
	e, err := s.resolveScreen(ctx, c, ch)
	if err != nil {
		return err
	}
	if s.locks.locked(ensureScreen(c), d.Member.Private, e.Layout.HouseholdOnly, d.Member.ID) {
		d = lockedModel(d)
	}
	d = s.dashboardPage(c, d, csrf, e, ch)
	d.Page.Sheet, d.Sheets.Open = open, open
	if fill != nil {
		fill(&d.Sheets)
	}
	return httpkit.Render(c, status, kioskview.MemberDashboard(d))
}

// dashboardPage fills the page frame of a member's dashboard (title,
// stream, idle return, rotation, night, the screen's layout)
// with csrf as the page's token: the client's, or the placeholder of the
// rendered-page cache.
func (s *dashboardModels) dashboardPage(c echo.Context, d kioskview.Dashboard, csrf string, e screen.Entry, ch screenChoice) kioskview.Dashboard {
	stream := "/live/m/" + d.Member.ID
	if ch.inQuery { // an admin preview: the stream follows the previewed layout (a path: no query in a stream URL)
		stream += "/l/" + e.Slug
	}
	d.Page = kioskPage(c, s.opt, d.Member.Name, stream, d.Member.ID, false)
	d.Page.IdleMS = idleFor(e.Layout, s.opt.KioskIdle).Milliseconds()
	if n := e.Layout.Night; n != nil { // the screen's own night schedule
		s.opt.night.fill(c.Request().Context(), &d.Page, d.Member.ID, time.Now(), &views.Night{From: n.From, To: n.To, Mode: n.Mode})
	}
	d.Page.CSRF, d.Page.Private = csrf, d.Member.Private
	if e.Layout.RotateSeconds > 0 {
		if next := nextMember(screenMembers(d.Members, e.Layout, d.Member.ID), d.Member.ID); next != "" {
			d.Page.RotateMS, d.Page.Next = int64(e.Layout.RotateSeconds)*1000, memberURLOf(next, "")
		}
	}
	d.Screen = screenView(e)
	d.Screen.MembersCSS = membersCSS(e.Layout, d.Member.ID)
	if e.Layout.Placed()["tiles"] { // only a screen that shows the household reads everyone's figures
		tiles, err := householdTiles(c.Request().Context(), s.deps.Household, s.opt.Location)
		if err != nil {
			s.log.Error("kiosk: household tiles", "member", d.Member.ID, "err", err)
		}
		d.Tiles = tiles
	}
	return d
}

// adminAlert is the household view's admin badge text; a failure to read it
// is logged, never shown on the kiosk.
func (s *homePages) adminAlert(ctx context.Context) string {
	if s.alerts == nil {
		return ""
	}
	a, err := s.alerts.Alert(ctx)
	if err != nil {
		s.log.Error("admin alert", "err", err)
		return ""
	}
	return a
}
