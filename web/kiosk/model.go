package kiosk

import (
	"context"
	"fmt"
	"time"

	"hearth/internal/content"
	"hearth/internal/dashboard"
	"hearth/internal/dashboard/board"
	"hearth/internal/health"
	"hearth/views/kioskview"
)

// Catalog list sizes on the dashboard.
const (
	catalogResults = 8
	discoverItems  = 3
)

// dashboardModel loads everything a member's dashboard shows. A missing
// document is not an error: the areas fall back to onboarding states.
func (s *dashboardModels) dashboardModel(ctx context.Context, id, csrf string) (kioskview.Dashboard, error) {
	h := s.deps.Household
	now, loc := time.Now(), s.opt.Location
	// One board: the member row and each kind of record read once, every
	// figure below (and the coach column's re-quotes) from it.
	r, err := s.loadRecords(ctx, id, now)
	if err != nil {
		return kioskview.Dashboard{}, err
	}
	m := r.Member
	ms, err := h.Members(ctx)
	if err != nil {
		return kioskview.Dashboard{}, err
	}
	d := kioskview.Dashboard{
		Member:  kioskview.MemberHead{ID: m.ID, Name: m.Name, Color: m.Color, Avatar: m.Avatar, Unit: string(m.Unit.Normalize()), Private: m.PrivateFigures, HasPIN: m.HasPIN},
		Members: tilesOf(ms),
		Date:    now.In(loc).Format("Monday 2 January"),
		Clock:   now.In(loc).Format("15:04"),
		State: kioskview.StateArea{
			Weight:    weightWidget(r),
			Nutrition: nutritionWidget(r),
			Body:      bodyWidget(r),
			Workouts:  workoutsWidget(r),
		},
		Sheets: kioskview.Sheets{MemberID: m.ID, CSRF: csrf, Unit: string(m.Unit.Normalize()), Now: now.In(loc).Format(localInput),
			House: hasAgent(s.deps.Agents, houseAgent), Plan: s.deps.LifePlan != nil},
	}
	dv, err := s.docView(ctx, r)
	if err != nil {
		return d, err
	}
	if dv.today.Doc != nil && dv.today.Doc.Document.GoalPaceHeld {
		d.State.Weight.ETA = "" // the coach holds back the pace toward a lower goal: so does the widget
	}
	var discover []content.Item
	if dv.today.Doc == nil && s.deps.Catalog != nil {
		if discover, err = s.deps.Catalog.List(ctx, content.Filter{MaxDuration: 20, Limit: discoverItems}); err != nil {
			return d, err
		}
	}
	d.Curated = dv.curated(discover)
	if d.Curated.Program, err = s.programs.Card(ctx, m.ID, memberURLOf(m.ID, "/program"), true); err != nil {
		return d, err
	}
	d.Coach = dv.coach(d.Curated.UpNext)
	d.Coach.CSRF = csrf
	if d.Coach.Messages, err = s.messageViews(ctx, m.ID, now); err != nil {
		return d, err
	}
	if err = s.workflowQuestions(ctx, &d.Coach); err != nil {
		return d, err
	}
	if d.Playlist, err = s.playlistModel(ctx, m.ID, csrf, dv); err != nil {
		return d, err
	}
	// The catalog list loads when Browse opens (a sheet): on the page it
	// was most of the DOM of every dashboard.
	d.Catalog = kioskview.CatalogResults{MemberID: m.ID, CSRF: csrf}
	return d, nil
}

// loadRecords loads the member's board (internal/dashboard/board) as of
// now: from the dashboard store, which re-checks the coach column against
// the same board; a server without one reads the records through the
// household service.
func (s *dashboardModels) loadRecords(ctx context.Context, id string, now time.Time) (board.Board, error) {
	if s.deps.Dashboards != nil {
		return s.deps.Dashboards.Board(ctx, id, now)
	}
	h := s.deps.Household
	m, err := h.Member(ctx, id)
	if err != nil {
		return board.Board{}, err
	}
	ws, err := h.Weights(ctx, id, loadWeights)
	if err != nil {
		return board.Board{}, err
	}
	meals, err := h.Meals(ctx, id, loadMeals)
	if err != nil {
		return board.Board{}, err
	}
	wos, err := h.Workouts(ctx, id, loadWorkouts)
	if err != nil {
		return board.Board{}, err
	}
	scans, err := h.BodyScans(ctx, id, loadScans)
	if err != nil {
		return board.Board{}, err
	}
	return board.Of(m, ws, meals, wos, scans, now, s.opt.Location), nil
}

// docView loads the member's dashboard for today (the staleness rules are
// dashboard.Today's, against the page's board) and the catalog entries its
// cards show.
func (s *dashboardModels) docView(ctx context.Context, b board.Board) (docView, error) {
	m, now := b.Member, b.Now
	dv := docView{member: m, now: now, loc: s.opt.Location,
		transcribes: s.deps.Voice != nil && s.deps.Voice.Transcribes(), canPrepare: s.deps.Coach != nil}
	dv.progItem, dv.progDay = s.programs.Day(ctx, m.ID)
	ds := s.deps.Dashboards
	if ds == nil {
		return dv, nil
	}
	var err error
	if dv.today, err = ds.TodayOf(ctx, b); err != nil {
		return dv, err
	}
	if dv.today.Doc != nil && s.deps.Catalog != nil {
		if dv.items, err = s.deps.Catalog.Lookup(ctx, dv.today.Doc.Document.ContentIDs()); err != nil {
			return dv, err
		}
	}
	return dv, nil
}

func (s *dashboardModels) playlistModel(ctx context.Context, member, csrf string, dv docView) (kioskview.PlaylistWidget, error) {
	p := kioskview.PlaylistWidget{MemberID: member, CSRF: csrf}
	p.CanSuggest = len(dv.today.Suggestion) > 0
	if s.deps.Dashboards == nil || s.deps.Catalog == nil {
		return p, nil
	}
	ids, err := s.deps.Dashboards.Playlist(ctx, member)
	if err != nil || len(ids) == 0 {
		return p, err
	}
	items, err := s.deps.Catalog.Lookup(ctx, ids)
	if err != nil {
		return p, err
	}
	total := 0
	for _, id := range ids {
		it, ok := items[id]
		if !ok {
			// Gone from the catalog: keep the slot so positions stay aligned.
			p.Items = append(p.Items, kioskview.ContentCard{ID: id, Title: "(no longer in the catalog)"})
			continue
		}
		p.Items = append(p.Items, withDay(itemCard(it, member), dv.progItem, dv.progDay))
		total += it.DurationMin
	}
	p.Total = fmt.Sprintf("%d min", total)
	return p, nil
}

func (s *dashboardModels) catalogModel(ctx context.Context, member, csrf, q string) (kioskview.CatalogResults, error) {
	r := kioskview.CatalogResults{MemberID: member, CSRF: csrf, Query: q, Loaded: true}
	if s.deps.Catalog == nil {
		return r, nil
	}
	items, err := s.deps.Catalog.List(ctx, content.Filter{Query: q, Limit: catalogResults})
	if err != nil {
		return r, err
	}
	for _, it := range items {
		r.Items = append(r.Items, itemCard(it, member))
	}
	return r, nil
}

func tilesOf(ms []health.Member) []kioskview.MemberTile {
	out := make([]kioskview.MemberTile, 0, len(ms))
	for _, m := range ms {
		out = append(out, kioskview.MemberTile{ID: m.ID, Name: m.Name, Color: m.Color, Avatar: m.Avatar, Private: m.PrivateFigures})
	}
	return out
}

// ensure the store satisfies the kiosk's view of it.
var _ Dashboards = (*dashboard.Store)(nil)

func memberURLOf(member, suffix string) string { return "/m/" + member + suffix }
