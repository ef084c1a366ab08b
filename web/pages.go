package web

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"

	"hearth/internal/dashboard/board"
	"hearth/internal/health"
	"hearth/views"
)

// kioskPage fills what every kiosk page shares: CSRF token, the household
// clock's time zone, the idle return and the live stream.
func (s *Server) kioskPage(c echo.Context, title, stream string, idle bool) views.Page {
	p := s.page(c, title)
	p.Stream = stream
	if name := s.opt.Location.String(); name != "Local" && name != "" {
		p.TZ = name
	}
	if idle {
		p.IdleMS = s.opt.KioskIdle.Milliseconds()
	}
	return p
}

func (s *Server) pageHousehold(c echo.Context) error {
	tiles, err := s.householdTiles(c.Request().Context())
	if err != nil {
		return err
	}
	now := time.Now().In(s.opt.Location)
	p := views.HouseholdPage{Page: s.kioskPage(c, "Household", "/live/household", false),
		Clock: now.Format("15:04"), Date: now.Format("Monday 2 January"), Members: tiles, Alert: s.adminAlert(c.Request().Context())}
	return render(c, http.StatusOK, views.Household(p))
}

// householdTiles builds one tile per member with a single glance figure:
// the weight and its weekly change, or (figures private) this week's workouts.
func (s *Server) householdTiles(ctx context.Context) ([]views.MemberTile, error) {
	h := s.deps.Household
	ms, err := h.Members(ctx)
	if err != nil {
		return nil, err
	}
	now, loc := time.Now(), s.opt.Location
	tiles := tilesOf(ms)
	for i, m := range ms {
		t := &tiles[i]
		if m.PrivateFigures {
			wos, err := h.Workouts(ctx, m.ID, 30)
			if err != nil {
				return nil, err
			}
			n := health.WorkoutStats(wos, now, loc).ThisWeekCount
			t.Glance, t.GlanceLabel = plural(n, "workout"), "this week"
			continue
		}
		ws, err := h.Weights(ctx, m.ID, 60)
		if err != nil {
			return nil, err
		}
		tr := board.WeightOf(m, ws, now, loc).Trend // as the member's page shows it
		if tr.CurrentKg == nil {
			t.Glance, t.GlanceLabel = "–", "no weigh-in yet"
			continue
		}
		u := m.Unit.Normalize()
		t.Glance = board.WeightNumber(u, *tr.CurrentKg) + " " + string(u) // as the weight widget shows it
		if tr.Change7dKg != nil {
			t.GlanceLabel = u.FormatDelta(*tr.Change7dKg) + " this week"
		} else if tr.LastWeighIn != nil {
			t.GlanceLabel = "weighed " + when(*tr.LastWeighIn, now, loc)
		}
	}
	return tiles, nil
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

func (s *Server) pageMember(c echo.Context) error {
	if ok, err := s.serveCachedDashboard(c); ok {
		return err
	}
	return s.renderDashboard(c, http.StatusOK, "", nil)
}

// renderDashboard renders a member's full dashboard; open names a sheet to
// show at once, whose state fill sets (a failed plain-form post, an entry
// to correct).
func (s *Server) renderDashboard(c echo.Context, status int, open string, fill func(*views.Sheets)) error {
	csrf := csrfToken(c)
	d, err := s.sharedModel(c.Request().Context(), c.Param("member"), csrf)
	if err != nil {
		return err
	}
	d = s.dashboardPage(c, d, csrfToken(c))
	d.Page.Sheet, d.Sheets.Open = open, open
	if fill != nil {
		fill(&d.Sheets)
	}
	return render(c, status, views.MemberDashboard(d))
}

// dashboardPage fills the page frame of a member's dashboard (title,
// stream, idle return, blurred figures) with csrf as the page's token: the
// client's, or the placeholder of the rendered-page cache.
func (s *Server) dashboardPage(c echo.Context, d views.Dashboard, csrf string) views.Dashboard {
	d.Page = s.kioskPage(c, d.Member.Name, "/live/m/"+d.Member.ID, true)
	d.Page.CSRF, d.Page.Private = csrf, d.Member.Private
	return d
}

// adminAlert is the household view's admin badge text; a failure to read it
// is logged, never shown on the kiosk.
func (s *Server) adminAlert(ctx context.Context) string {
	if s.deps.Alerts == nil {
		return ""
	}
	a, err := s.deps.Alerts.Alert(ctx)
	if err != nil {
		s.log.Error("admin alert", "err", err)
		return ""
	}
	return a
}
