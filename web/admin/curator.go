package admin

import (
	"context"
	"net/http"
	"strconv"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"hearth/internal/apperr"
	"hearth/internal/live"
	"hearth/internal/proposals"
	"hearth/views/adminview"
	"hearth/web/httpkit"
)

// Curator is what Admin → Curator needs of the agents' proposals
// (*proposals.Service).
type Curator interface {
	List(ctx context.Context, f proposals.Filter) (proposals.Listing, error)
	Confirm(ctx context.Context, id int64, by string) (proposals.Record, error)
	Discard(ctx context.Context, id int64, by string) (proposals.Record, error)
}

// curatorPages are Admin → Curator: the changes agents propose to outside
// systems, shown before anything reaches them, confirmed or discarded.
type curatorPages struct {
	*core
	curator Curator
}

const curatorPath = "/admin/curator"

// decidedBy is who confirms or discards: Hearth has one admin.
const decidedBy = "admin"

func (s *curatorPages) curatorLists(ctx context.Context, csrf string) (adminview.CuratorLists, error) {
	l, err := s.curator.List(ctx, proposals.Filter{})
	if err != nil {
		return adminview.CuratorLists{}, err
	}
	return adminview.CuratorLists{CSRF: csrf, Waiting: s.curatorRuns(l.Waiting), Decided: s.curatorRuns(l.Decided)}, nil
}

func (s *curatorPages) curatorRuns(gs []proposals.Group) []adminview.CuratorRun {
	out := make([]adminview.CuratorRun, 0, len(gs))
	for _, g := range gs {
		run := adminview.CuratorRun{RunID: strconv.FormatInt(g.RunID, 10), Agent: g.AgentID, When: s.fmtWhen(g.At)}
		for _, r := range g.Items {
			item := adminview.CuratorItem{ID: strconv.FormatInt(r.ID, 10), Summary: r.Summary, Lines: r.Lines,
				Status: string(r.Status), Result: r.Result, Decided: s.fmtWhenPtr(r.DecidedAt)}
			if r.AppliedAt != nil {
				item.Decided = s.fmtWhen(*r.AppliedAt)
			}
			run.Items = append(run.Items, item)
		}
		out = append(out, run)
	}
	return out
}

func (s *curatorPages) render(c echo.Context, status int, notice adminview.Notice) error {
	lists, err := s.curatorLists(c.Request().Context(), httpkit.CSRFToken(c))
	if err != nil {
		return err
	}
	p := adminview.AdminCurator{AdminPage: s.adminPage(c, "Curator", "curator"), Notice: notice, Lists: lists}
	p.Stream = "/admin/live/curator"
	return httpkit.Render(c, status, adminview.AdminCuratorPage(p))
}

// adminCurator shows what is waiting, then what was decided.
func (s *curatorPages) adminCurator(c echo.Context) error {
	notice := adminview.Notice{}
	switch c.QueryParam("done") {
	case string(proposals.StatusApplied):
		notice.Text = "Applied. Its result is below."
	case string(proposals.StatusFailed):
		notice = adminview.Notice{Text: "The change could not be applied: the error is below. Nothing is lost; you can try again.", Error: true}
	case string(proposals.StatusApplying):
		notice.Text = "This change is being applied; the page shows its outcome when it is done."
	case string(proposals.StatusDiscarded):
		notice.Text = "Discarded: nothing was changed."
	}
	return s.render(c, http.StatusOK, notice)
}

// adminCuratorDecide confirms or discards one proposal. Safe to repeat:
// the proposal's own status is the record (proposals.Service), so a
// repeated post answers with the outcome and applies nothing again.
func (s *curatorPages) adminCuratorDecide(c echo.Context) error {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil {
		return s.refused(c, apperr.NotFoundf("no proposal %q", c.Param("id")))
	}
	ctx := c.Request().Context()
	var r proposals.Record
	switch c.Param("action") {
	case "confirm":
		r, err = s.curator.Confirm(ctx, id, decidedBy)
	case "discard":
		r, err = s.curator.Discard(ctx, id, decidedBy)
	default:
		return apperr.NotFoundf("no action %q", c.Param("action"))
	}
	if err != nil {
		return s.refused(c, err)
	}
	return c.Redirect(http.StatusSeeOther, curatorPath+"?done="+string(r.Status))
}

// refused shows the page with why nothing was done (a discarded change,
// a kind nobody can apply, an unknown id); other errors are the error
// handler's.
func (s *curatorPages) refused(c echo.Context, err error) error {
	status := http.StatusBadRequest
	switch apperr.CodeOf(err) {
	case apperr.NotFound:
		status = http.StatusNotFound
	case apperr.Conflict:
		status = http.StatusConflict
	case apperr.Invalid:
	default:
		return err
	}
	return s.render(c, status, adminview.Notice{Text: "Nothing was changed: " + problemText(err), Error: true})
}

// liveCurator re-renders the lists when a proposal is decided or a run
// ends (a run's commit writes the proposals it staged).
func (s *curatorPages) liveCurator(c echo.Context) error {
	csrf := httpkit.CSRFToken(c)
	return s.adminStream(c, isKind(live.KindProposal, live.KindRun), func(ctx context.Context) ([]templ.Component, error) {
		lists, err := s.curatorLists(ctx, csrf)
		if err != nil {
			return nil, err
		}
		return []templ.Component{adminview.CuratorListsView(lists)}, nil
	})
}
