package kiosk

import (
	"log/slog"
	"time"

	"github.com/labstack/echo/v4"

	"hearth/internal/content"
	"hearth/internal/screen"
	"hearth/web/httpkit"
	"hearth/web/ratelimit"
)

// Routes registers the kiosk's pages, streams and forms on its group: the
// household network, no login. Creating requests carry a client request id
// (idempotent): a repeat (the Datastar client re-sends after a network
// error) gets the first answer again.
func Routes(e *echo.Echo, deps Deps, opt Options, mw httpkit.Middleware) {
	if opt.Logger == nil {
		opt.Logger = slog.New(slog.DiscardHandler)
	}
	if opt.Location == nil {
		opt.Location = time.Local
	}
	if opt.KeepAlive <= 0 {
		opt.KeepAlive = 15 * time.Second
	}
	if opt.ModelCalls == nil {
		opt.ModelCalls = ratelimit.New(ratelimit.Options{})
	}
	if deps.Unlocks == nil {
		deps.Unlocks = screen.NewUnlocks(nil)
	}
	opt.night = nightSource{settings: deps.Settings, programs: deps.Programs, loc: opt.Location, log: opt.Logger}
	loc, log, once := opt.Location, opt.Logger, mw.Idempotent
	gate := modelGate{opt.ModelCalls}
	lk := &screenLocks{unlocks: deps.Unlocks, pins: deps.PINs, household: deps.Household}
	b := &dashboardModels{deps: deps, opt: opt, log: log, programs: deps.Programs, patchRenders: opt.PatchRenders, locks: lk}
	lk.board = b
	home := &homePages{household: deps.Household, alerts: deps.Alerts, live: deps.Live, opt: opt, log: log, locks: lk}
	dash := &dashboardPages{board: b, household: deps.Household, live: deps.Live, detached: opt.Streams}
	forms := &entryForms{board: b, household: deps.Household, loc: loc}
	ans := &answers{household: deps.Household, dashboards: deps.Dashboards, voice: deps.Voice, privacy: deps.Privacy, log: log,
		gate: gate, listener: deps.Listener}
	wf := &workflowAnswers{household: deps.Household, workflows: deps.Workflows}
	prep := &preparer{household: deps.Household, dashboards: deps.Dashboards, coach: deps.Coach, loc: loc, gate: gate}
	prog := &programControls{programs: deps.Programs}
	msgs := &messagePages{messages: deps.Messages}
	chat := &chatSheets{household: deps.Household, agents: deps.Agents, voice: deps.Voice, loc: loc, log: log, gate: gate,
		agent: kioskChatAgent, base: "chat"}
	house := &chatSheets{household: deps.Household, agents: deps.Agents, loc: loc, log: log, gate: gate,
		agent: houseAgent, base: "house", held: deps.Held, locks: lk}
	plan := &planPages{household: deps.Household, plans: deps.LifePlan, agents: deps.Agents, opt: opt}
	planChat := &chatSheets{household: deps.Household, agents: deps.Agents, loc: loc, log: log, gate: gate,
		agent: planAgent, base: "plan", plan: plan}
	lists := &playlists{board: b, household: deps.Household, dashboards: deps.Dashboards, catalog: deps.Catalog}
	hist := &historyPages{household: deps.Household, dashboards: deps.Dashboards, opt: opt}
	cont := &contentPages{household: deps.Household, dashboards: deps.Dashboards, catalog: deps.Catalog,
		programs: deps.Programs, mediaDir: deps.MediaDir, thumbs: deps.Thumbs, opt: opt}

	k := e.Group("", mw.Request...)
	k.GET("/", home.pageHousehold)
	k.GET("/live/household", home.streamHousehold)
	k.GET("/m/:member", dash.pageMember)
	k.GET("/live/m/:member", dash.streamMember)
	k.GET("/live/m/:member/l/:layout", dash.streamMember) // an admin preview of a layout
	k.POST("/m/:member/weight", forms.formWeight, once)
	k.POST("/m/:member/meal", forms.formMeal, once)
	k.POST("/m/:member/workout", forms.formWorkout, once)
	k.POST("/m/:member/scan", forms.formScan, once)
	// A member's corrections, chat and "privacy off" need their figures
	// unlocked on this screen when they are private (lock.go).
	guard := lk.guard
	k.GET("/m/:member/entry/:kind/:id", forms.kioskEntry, guard)
	k.POST("/m/:member/entry/:kind/:id", forms.kioskEntryEdit, guard, once)
	k.POST("/m/:member/entry/:kind/:id/delete", forms.kioskEntryDelete, guard, once)
	k.POST("/m/:member/undo/:trash", forms.kioskUndo, guard, once)
	k.POST("/m/:member/answer", ans.kioskAnswer, once)
	k.POST("/m/:member/workflow/:run/answer", wf.kioskWorkflowAnswer, once)
	k.POST("/m/:member/voice", ans.kioskVoice, once)
	k.POST("/m/:member/privacy", ans.kioskPrivacy, guard)
	k.POST("/m/:member/unlock", lk.kioskUnlock)
	k.POST("/m/:member/lock", lk.kioskLock)
	k.POST("/m/:member/prepare", prep.kioskPrepare, once)
	k.POST("/m/:member/program", prog.kioskProgram, once)
	k.POST("/m/:member/messages/:id/dismiss", msgs.kioskDismissMessage, once)
	k.GET("/m/:member/history", hist.pageHistory, guard)
	k.GET("/m/:member/chat", chat.kioskChat, guard)
	k.GET("/m/:member/chat/:thread", chat.kioskChat, guard)
	k.POST("/m/:member/chat", chat.kioskChatSend, guard, once)
	k.POST("/m/:member/chat/voice", chat.kioskChatVoice, guard, once)
	k.POST("/m/:member/chat/:thread/delete", chat.kioskChatDelete, guard, once)
	// "Home & TV": Talos, through the household's policy (internal/talos).
	k.GET("/m/:member/house", house.kioskChat, guard)
	k.GET("/m/:member/house/:thread", house.kioskChat, guard)
	k.POST("/m/:member/house", house.kioskChatSend, guard, once)
	k.POST("/m/:member/house/:thread/delete", house.kioskChatDelete, guard, once)
	k.GET("/m/:member/house/held", house.kioskHeldList, guard)
	k.POST("/m/:member/house/held/:id", house.kioskHeld, guard, once)
	// The life plan: personal, behind this screen's unlock of the member.
	if deps.LifePlan != nil {
		personal := lk.personal
		k.GET("/m/:member/plan", plan.pagePlan, personal)
		k.POST("/m/:member/plan/goals/:goal", plan.kioskPlanGoal, personal, once)
		k.POST("/m/:member/plan/evidence/:id", plan.kioskPlanEvidence, personal, once)
		k.GET("/m/:member/plan/chat", planChat.kioskChat, personal)
		k.GET("/m/:member/plan/chat/:thread", planChat.kioskChat, personal)
		k.POST("/m/:member/plan/chat", planChat.kioskChatSend, personal, once)
		k.POST("/m/:member/plan/chat/:thread/delete", planChat.kioskChatDelete, personal, once)
	}
	k.GET("/m/:member/catalog", lists.kioskCatalog)
	k.POST("/m/:member/playlist", lists.kioskPlaylist, once)
	k.GET("/m/:member/play", cont.pagePlaylistPlayer)
	k.GET("/content/:id", cont.pageContent)
	k.GET("/content/:id/video", cont.contentVideo)
	k.GET(content.PlexThumbPrefix+":key", cont.plexThumb)
	k.POST("/content/done", cont.contentDone, once)
}
