package kiosk

import (
	"context"
	"io"
	"net/http"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"
	"github.com/starfederation/datastar-go/datastar"

	"hearth/internal/apperr"
	"hearth/internal/live"
	"hearth/internal/screen"
	"hearth/views/kioskview"
	"hearth/web/httpkit"
)

// widgets is a set of dashboard parts to re-render.
type widgets uint16

const (
	wWeight widgets = 1 << iota
	wNutrition
	wBody
	wWorkouts
	wCurated
	wPlaylist
	wCoach
	wHead         // switcher and privacy
	wAll  widgets = 1<<iota - 1
	// wLayout is the screen's layout and wTiles the household tiles
	// widget: not parts of the member's shared model (each stream renders
	// its own screen's, and only a screen that places the tiles reads
	// everyone's figures for them), so not in wAll.
	wLayout = wAll + 1
	wTiles  = wLayout << 1
)

// wData is every widget that shows the member's records.
const wData = wWeight | wNutrition | wBody | wWorkouts | wCurated | wCoach

// memberWidgets maps each kind published on a member's topic to the widgets
// that show it. Kinds nothing on the dashboard shows map to 0: a coach run
// publishes about ten progress events, and each used to rebuild and
// re-patch every widget of every open kiosk of that member.
var memberWidgets = map[live.Kind]widgets{
	live.KindWeight:    wWeight | wBody | wCoach, // body: scale body fat; coach: data-gap CTAs
	live.KindMeal:      wNutrition | wCoach,
	live.KindWorkout:   wWorkouts | wCurated | wCoach, // curated: a workout can finish Up Next
	live.KindScan:      wBody,
	live.KindImport:    wData,
	live.KindMember:    wAll, // name, unit, targets
	live.KindPrivacy:   wHead,
	live.KindSettings:  0, // the page reloads (reloadPage)
	live.KindDashboard: wCurated | wCoach | wPlaylist,
	live.KindAnswer:    wCoach,
	live.KindVoice:     wCoach,
	live.KindConsumed:  wCurated | wCoach,
	live.KindPlaylist:  wPlaylist,
	live.KindNotify:    0,                    // not shown on the kiosk yet
	live.KindProgram:   wCurated | wPlaylist, // the program card and the day the player shows
	live.KindMessage:   wCoach,
	live.KindRun:       0, // run progress is an admin view
	live.KindTask:      0,
	live.KindTodo:      0,
	live.KindBackup:    0,      // the household view's admin badge, not a dashboard
	live.KindWorkflow:  wCoach, // a run's question for the member, or its answer
	live.KindChat:      0,      // the chat sheet follows its own turn
	live.KindModel:     0,      // Admin → Model
	live.KindEval:      0,      // admin only
	live.KindLayout:    wLayout,
	live.KindProposal:  0, // Admin → Curator
	live.KindPolicy:    0, // the home sheet follows its own confirmations
}

// householdWidgets maps kinds on the household topic: other members'
// entries show only in the household tiles (this member's arrive on their
// own topic too); membership and privacy changes show in the switcher and
// the tiles.
var householdWidgets = map[live.Kind]widgets{
	live.KindWeight:   wTiles,
	live.KindMeal:     0,
	live.KindWorkout:  wTiles,
	live.KindScan:     0,
	live.KindImport:   wTiles,
	live.KindMember:   wHead | wTiles,
	live.KindPrivacy:  wHead | wTiles,
	live.KindSettings: 0, // the page reloads (reloadPage)
	live.KindBackup:   0, // the household view shows the badge
	live.KindProgram:  0, // published on the member's topic only
	live.KindMessage:  0, // published on the member's topic only
	live.KindLayout:   wLayout,
}

// affected maps a change notification to the widgets that show it. A kind
// missing from the tables (none today) re-renders everything, to be safe.
func affected(ev live.Event, member string) widgets {
	table := memberWidgets
	if ev.Topic == live.TopicHousehold {
		table = householdWidgets
	}
	if w, ok := table[ev.Kind]; ok {
		return w
	}
	return wAll
}

// streamMember is a member dashboard's live stream. The first events patch
// every widget from current state (a reconnect after a restart or a sleep
// shows the truth, not old signals), unless the page just rendered them
// (streamStart); then each change re-renders only the widgets that show
// it. Once its headers are decided the stream leaves net/http for a
// goroutine of its own (stream_detach.go).
func (s *dashboardPages) streamMember(c echo.Context) error {
	ctx := c.Request().Context()
	id := c.Param("member")
	version := pageShows(c)
	if _, err := s.household.Member(ctx, id); err != nil {
		if apperr.Is(err, apperr.NotFound) {
			// Gone (deleted): a 404 would be retried forever; go home instead.
			_ = httpkit.Navigate(httpkit.StartStream(c), "/")
			return nil
		}
		return err
	}
	if s.live == nil {
		return apperr.New(apperr.Internal, "live updates are not configured")
	}
	sub := s.live.Subscribe(live.MemberTopic(id), live.TopicHousehold)
	csrf := httpkit.CSRFToken(c)
	// The screen's layout, resolved again when one changes: the admin may
	// have edited it, assigned another or changed the default.
	ch, hash := screenChoiceOf(c), screenHash(c)
	if l := c.Param("layout"); screen.ValidSlug(l) { // an admin preview's stream
		ch = screenChoice{want: l, inQuery: true}
	}
	scr := func(ctx context.Context) (screen.Entry, error) { return s.board.resolveScreenBy(ctx, ch, hash) }
	sid := screenOf(c) // whose unlocks this screen holds
	page := "/m/" + id // where a change of lock state reloads the page
	if ch.inQuery {
		page += "?layout=" + ch.want + "&preview=1"
	}
	switch st, taken := s.detached.Detach(c); {
	case st != nil:
		go func() {
			defer st.End()
			defer sub.Close()
			s.memberStream(st.Ctx, st.SSE, st.Out, sub, id, csrf, sid, page, version, scr)
		}()
		return nil
	case taken: // shutting down: the connection is closed, the page reconnects
		sub.Close()
		return nil
	}
	defer sub.Close()
	sse := httpkit.StartStream(c)
	s.memberStream(ctx, sse, c.Response(), sub, id, csrf, sid, page, version, scr)
	return nil
}

// streamConnected is the id of a stream's first event. Datastar sends the
// last id it saw as Last-Event-ID on every retry of the same stream, so a
// request carrying it is a reconnect: the page may have missed changes
// (or got some of a full patch set) and always gets every widget again.
const streamConnected = "connected"

// pageShows is the version of the widgets the client's page holds (the
// ?v= of Page.StreamVersion), or "" when unknown: no version, or a
// reconnect, whose page may have changed since it was rendered.
func pageShows(c echo.Context) string {
	if c.Request().Header.Get("Last-Event-ID") != "" {
		return ""
	}
	return c.QueryParam("v")
}

// memberStream patches the dashboard through sse (and out, which the
// shared pre-encoded patches are written to) until the client goes, the
// hub closes or a write fails. shown is the version of the widgets the
// page already holds ("" unknown).
func (s *dashboardPages) memberStream(ctx context.Context, sse *datastar.ServerSentEventGenerator, out http.ResponseWriter,
	sub *live.Sub, id, csrf, sid, page, version string, scr func(context.Context) (screen.Entry, error)) {
	w := httpkit.SSEWriter{ResponseWriter: out}
	loc := s.board.opt.Location
	day := today(loc)
	// The screen's layout, resolved once and again on a layout event (not
	// on every event); one that cannot be read counts as household only,
	// so nothing private is sent.
	layout, err := scr(ctx)
	hhOnly := err != nil || layout.Layout.HouseholdOnly
	shown := layout.Key() // the layout the page shows; a layout event re-renders the grid when it changes
	locked := s.board.lockedOn(ctx, sid, id, hhOnly)
	if locked && hhOnly {
		_ = httpkit.Navigate(sse, page) // the sealed page: nothing of the member streams here
		return
	}
	if s.board.streamStart(ctx, sse, w, id, csrf, version, locked) != nil {
		return
	}
	tick := time.NewTicker(s.board.opt.KeepAlive)
	defer tick.Stop()
	for {
		var set widgets
		select {
		case <-ctx.Done():
			return
		case <-sub.Done():
			return
		case <-tick.C:
			if d := today(loc); d != day { // midnight: a new day, new document
				day, set = d, wAll
			} else if httpkit.KeepAlive(sse) != nil {
				return
			}
		case <-sub.Resync():
			set = wAll
		case ev := <-sub.C():
			more, settings := drain(sub, id)
			set = affected(ev, id) | more
			if (settings || ev.Kind == live.KindSettings) && reloadPage(sse) != nil {
				return
			}
		}
		if set&wLayout != 0 {
			if layout, err = scr(ctx); err != nil {
				if ctx.Err() != nil {
					return
				}
				s.board.log.Error("live: screen layout", "member", id, "err", err)
			}
			hhOnly = err != nil || layout.Layout.HouseholdOnly
		}
		// The member was locked or unlocked on this screen (their PIN, the
		// unlock running out, privacy turned on elsewhere, the layout made
		// household only): the page is rendered again for it, so no figure
		// stays from the other state.
		if now := s.board.lockedOn(ctx, sid, id, hhOnly); now != locked {
			_ = httpkit.Navigate(sse, page)
			return
		}
		if set&wLayout != 0 && err == nil && layout.Key() != shown {
			if s.board.patchLayout(ctx, sse, id, csrf, layout, locked) != nil {
				return
			}
			shown = layout.Key()
		}
		if set&wTiles != 0 && layout.Layout.Placed()["tiles"] {
			if s.board.patchTiles(ctx, sse, id) != nil {
				return
			}
		}
		set &^= wLayout | wTiles
		if set != 0 && s.board.patchDashboard(ctx, sse, w, id, csrf, set, locked) != nil {
			return
		}
	}
}

// patchLayout re-renders the screen's grid (and the More sheet) in layout
// e, as a screen that has the member locked or not sees it, so an edit in
// Admin → Screens rearranges an open screen without a reload.
func (s *dashboardModels) patchLayout(ctx context.Context, sse *datastar.ServerSentEventGenerator, id, csrf string,
	e screen.Entry, locked bool) error {
	d, err := s.sharedModel(ctx, id, csrf)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		s.log.Error("live: render dashboard", "member", id, "err", err)
		return nil
	}
	if locked {
		d = lockedModel(d)
	}
	d.Screen = screenView(e)
	d.Screen.MembersCSS = membersCSS(e.Layout, id)
	if err := sse.PatchElementTempl(kioskview.ScreenGrid(d)); err != nil {
		return err
	}
	if err := sse.PatchElementTempl(kioskview.MoreSheet(d)); err != nil {
		return err
	}
	return httpkit.KeepAlive(sse)
}

// patchTiles re-renders the household tiles (on a screen that places them).
func (s *dashboardModels) patchTiles(ctx context.Context, sse *datastar.ServerSentEventGenerator, id string) error {
	tiles, err := householdTiles(ctx, s.deps.Household, s.opt.Location)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		s.log.Error("live: household tiles", "member", id, "err", err)
		return nil
	}
	if err := sse.PatchElementTempl(kioskview.TilesWidget(kioskview.Dashboard{Member: kioskview.MemberHead{ID: id}, Tiles: tiles})); err != nil {
		return err
	}
	return httpkit.KeepAlive(sse)
}

// drain folds events already queued into one re-render; settings
// reports whether the household settings changed among them.
func drain(sub *live.Sub, member string) (set widgets, settings bool) {
	for {
		select {
		case ev := <-sub.C():
			set |= affected(ev, member)
			settings = settings || ev.Kind == live.KindSettings
		default:
			return set, settings
		}
	}
}

// reloadPage tells a page that the household settings it was rendered
// with (the night schedule) changed: hearth.js reloads it once nobody is
// using the screen. A marker element, not a script: no code travels.
func reloadPage(sse *datastar.ServerSentEventGenerator) error {
	return sse.PatchElements(`<div id="hearth-reload" hidden></div>`, datastar.WithSelector("body"), datastar.WithModeAppend())
}

// streamStart writes a stream's first events: the connected event (its
// id makes every retry a known reconnect) carrying the client's CSRF token
// for the page's header, then every widget from current state, unless the
// page already shows exactly that: shown is the content hash of the full
// patch set the page was rendered with, and the current one has the same
// hash. That full patch was ~22 KB the browser parsed and morphed into
// identical DOM right after load (BENCHMARKS.md, "Lighthouse"). The
// subscription is open before the comparison: a change after it arrives as
// an event.
func (s *dashboardModels) streamStart(ctx context.Context, sse *datastar.ServerSentEventGenerator, w io.Writer, id, csrf, shown string,
	locked bool) error {
	if err := sse.MarshalAndPatchSignals(map[string]any{"_csrf": csrf}, datastar.WithPatchSignalsEventID(streamConnected)); err != nil {
		return err
	}
	if shown != "" {
		if e, err := s.sharedEntry(ctx, id); err == nil && e != nil {
			if p, err := e.patches(ctx, wAll, locked, s.patchRenders); err == nil && p.tag == shown {
				return httpkit.KeepAlive(sse) // flushes
			}
		}
	}
	return s.patchDashboard(ctx, sse, w, id, csrf, wAll, locked)
}

// patchDashboard re-renders the given widgets from current state. A failed
// render is logged and skipped (the stream stays up); a failed write ends it.
// The events for a widget set are encoded once per change of the member's
// model and shared by every open stream (page_cache.go splices each
// stream's CSRF token in); only the keep-alive is written per stream.
func (s *dashboardModels) patchDashboard(ctx context.Context, sse *datastar.ServerSentEventGenerator, w io.Writer, id, csrf string,
	set widgets, locked bool) error {
	e, err := s.sharedEntry(ctx, id)
	if err == nil && e == nil { // a hub without generations: nothing to share
		var d kioskview.Dashboard
		if d, err = s.sharedModel(ctx, id, csrf); err == nil {
			if locked {
				d = lockedModel(d)
			}
			if err := writePatches(sse, d, csrf, set); err != nil {
				return err
			}
			return httpkit.KeepAlive(sse)
		}
	}
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if apperr.Is(err, apperr.NotFound) {
			return httpkit.Navigate(sse, "/")
		}
		s.log.Error("live: render dashboard", "member", id, "err", err)
		return nil
	}
	p, err := e.patches(ctx, set, locked, s.patchRenders)
	if err != nil {
		s.log.Error("live: render dashboard", "member", id, "err", err)
		return nil
	}
	if err := p.writeTo(w, csrf); err != nil {
		return err
	}
	return httpkit.KeepAlive(sse) // flushes
}

// writePatches writes the Datastar events that patch the widgets in set.
func writePatches(sse *datastar.ServerSentEventGenerator, d kioskview.Dashboard, csrf string, set widgets) error {
	parts := []struct {
		w   widgets
		cmp func() error
	}{
		{wWeight, func() error { return sse.PatchElementTempl(kioskview.WeightWidgetView(d.State.Weight)) }},
		{wNutrition, func() error { return sse.PatchElementTempl(kioskview.NutritionWidgetView(d.State.Nutrition)) }},
		{wBody, func() error { return sse.PatchElementTempl(kioskview.BodyWidgetView(d.State.Body)) }},
		{wWorkouts, func() error { return sse.PatchElementTempl(kioskview.WorkoutsWidgetView(d.State.Workouts)) }},
		{wCurated, func() error {
			if err := sse.PatchElementTempl(kioskview.CuratedView(d.Curated)); err != nil {
				return err
			}
			return sse.PatchElementTempl(kioskview.ProgramWidget(d.Curated))
		}},
		{wPlaylist, func() error { return sse.PatchElementTempl(kioskview.PlaylistView(d.Playlist)) }},
		{wCoach, func() error {
			for _, c := range []templ.Component{kioskview.BriefingView(d.Coach), kioskview.CTAsView(d.Coach),
				kioskview.PromptsWidget(d.Coach), kioskview.MessagesView(d.Coach)} {
				if err := sse.PatchElementTempl(c); err != nil {
					return err
				}
			}
			return nil
		}},
		{wHead, func() error {
			if err := sse.PatchElementTempl(kioskview.Switcher(d.Member.ID, d.Members)); err != nil {
				return err
			}
			if err := sse.PatchElementTempl(kioskview.PrivacyToggle(d.Member, csrf)); err != nil {
				return err
			}
			return sse.MarshalAndPatchSignals(map[string]any{"_private": d.Member.Private})
		}},
	}
	for _, p := range parts {
		if set&p.w != 0 {
			if err := p.cmp(); err != nil {
				return err
			}
		}
	}
	if set == wAll {
		// (Re)connected: the forms just patched carry the token of the
		// cookie this stream was opened with; make the page's header match.
		if err := sse.MarshalAndPatchSignals(map[string]any{"_csrf": csrf}); err != nil {
			return err
		}
	}
	return nil
}

// streamHousehold is the household screen's live stream: tiles re-render
// when anyone logs something or changes privacy.
func (s *homePages) streamHousehold(c echo.Context) error {
	ctx := c.Request().Context()
	if s.live == nil {
		return apperr.New(apperr.Internal, "live updates are not configured")
	}
	sub := s.live.Subscribe(live.TopicHousehold)
	defer sub.Close()
	sse := httpkit.StartStream(c)
	send := func() error {
		tiles, err := s.householdTiles(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			s.log.Error("live: render household", "err", err)
			return nil
		}
		if err := sse.PatchElementTempl(kioskview.Tiles(tiles)); err != nil {
			return err
		}
		if err := sse.PatchElementTempl(kioskview.AdminAlert(s.adminAlert(ctx))); err != nil {
			return err
		}
		return httpkit.KeepAlive(sse)
	}
	if send() != nil {
		return nil
	}
	tick := time.NewTicker(s.opt.KeepAlive)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-sub.Done():
			return nil
		case <-tick.C:
			if httpkit.KeepAlive(sse) != nil {
				return nil
			}
		case <-sub.Resync():
			if send() != nil {
				return nil
			}
		case ev := <-sub.C():
			if _, settings := drain(sub, ""); (settings || ev.Kind == live.KindSettings) && reloadPage(sse) != nil {
				return nil
			}
			if send() != nil {
				return nil
			}
		}
	}
}
