package admin

import (
	"github.com/labstack/echo/v4"

	"hearth/web/httpkit"
)

// Routes registers the admin area. The login and logout are open (the
// request chain only: CSRF still guards the posts). Everything else lives
// on the /admin group, whose first middleware is the admin's
// authentication: it runs before the body limit, the text gate and CSRF
// (which may read and parse the body, or spool an upload to disk), so an
// anonymous client can never make the server read an admin route's body.
// Creating requests carry a client request id (mw.Idempotent, last).
func Routes(e *echo.Echo, deps Deps, opt Options, mw httpkit.Middleware) {
	c := &core{opt: opt, log: opt.Logger, auth: deps.Auth, live: deps.Live, members: deps.Members}

	login := &loginPages{c}
	e.GET("/admin/login", login.pageLogin, mw.Request...)
	e.POST("/admin/login", login.login, mw.Request...)
	e.GET("/admin/login/link", login.pageLoginLink, mw.Request...)
	e.POST("/admin/login/link", login.loginLink, mw.Request...)
	e.POST("/admin/logout", login.logout, mw.Request...)

	g := e.Group("/admin", append(mw.AdminChain(), mw.Idempotent)...)
	if a := deps.Agents; a != nil {
		runs, memory, chat := &runPages{c, a, deps.Household}, &memoryPages{c, a}, &chatPages{c, a, deps.Definitions}
		g.GET("", runs.adminAssignments)
		g.POST("/assignments/:agent/:assignment/run", runs.adminRunNow)
		g.GET("/runs", runs.adminRuns)
		g.GET("/runs/:id", runs.adminRun)
		g.GET("/memory", memory.adminMemory)
		g.POST("/memory", memory.adminMemorySet)
		g.POST("/memory/delete", memory.adminMemoryDelete)
		g.POST("/memory/undo/:change", memory.adminMemoryUndo)
		g.GET("/live/assignments", runs.liveAssignments)
		g.GET("/live/runs", runs.liveRuns)
		g.GET("/live/runs/:id", runs.liveRun)
		g.GET("/live/memory/:agent/:member", memory.liveMemory)
		g.GET("/chat", chat.adminChat)
		g.POST("/chat", chat.adminChatSend)
		g.GET("/live/chat/:thread", chat.liveChat)
	} else {
		g.GET("", c.pageAdmin)
	}
	if deps.Copilot != nil { // the configuration copilot's panel (copilot.go)
		cp := &copilotPages{c, deps.Copilot}
		// No request-id replay: an answer is a function of the form state
		// the browser sends and stores nothing, and a record of it would
		// keep the form's values (a member's name, targets) in the
		// database, owned by nobody an erase could find.
		for path, h := range map[string]echo.HandlerFunc{"": cp.ask, "/undo": cp.undo, "/redo": cp.redo, "/confirm": cp.confirm,
			"/decline": cp.decline} {
			e.POST("/admin/copilot/:form"+path, h, mw.AdminChain()...)
		}
	}
	if deps.Household != nil {
		h := &householdPages{core: c, household: deps.Household, memberData: deps.MemberData,
			programs: deps.Programs, messages: deps.Messages, settings: deps.Settings, lifePlan: deps.LifePlan != nil,
			copilot: deps.Copilot != nil}
		g.GET("/household", h.adminHousehold)
		g.POST("/household", h.adminMemberCreate)
		if deps.Settings != nil {
			g.POST("/settings/time-zone", h.adminTimeZone)
			g.POST("/settings/night", h.adminNight)
		}
		g.GET("/household/:member", h.adminMember)
		g.POST("/household/:member", h.adminMemberUpdate)
		g.POST("/household/:member/goals", h.adminGoalCreate)
		g.POST("/household/:member/pin", h.adminMemberPIN)
		g.POST("/household/:member/goals/:goal", h.adminGoalStatus)
		if deps.Programs != nil {
			g.POST("/household/:member/program", h.adminProgram)
		}
		if deps.MemberData != nil {
			g.GET("/household/:member/export", h.adminMemberExport)
			g.GET("/household/:member/erase", h.adminMemberErasePage)
			g.POST("/household/:member/erase", h.adminMemberErase)
		}
	}
	if deps.Household != nil && deps.LifePlan != nil {
		lp := &lifePlanPages{core: c, household: deps.Household, plans: deps.LifePlan}
		g.GET("/household/:member/lifeplan", lp.adminLifePlan)
		g.POST("/household/:member/lifeplan/goals/:goal", lp.adminLifePlanMove)
		g.POST("/household/:member/lifeplan/goals/:goal/link", lp.adminLifePlanLink)
		g.POST("/household/:member/lifeplan/fitness/:fitness/unlink", lp.adminLifePlanUnlink)
	}
	if deps.Messages != nil {
		g.GET("/messages", (&messagePages{c, deps.Messages}).adminMessages)
	}
	if deps.Schedule != nil {
		sp := &schedulePages{core: c, schedule: deps.Schedule, agents: deps.Agents, workflows: deps.Workflows,
			hasBackups: deps.Backups != nil, copilot: deps.Copilot != nil}
		todos := &todoPages{core: c, schedule: deps.Schedule, agents: deps.Agents}
		g.GET("/schedules", sp.adminSchedules)
		g.POST("/schedules", sp.adminScheduleCreate)
		g.GET("/schedules/preview", sp.adminSchedulePreview)
		g.GET("/schedules/:id", sp.adminSchedule)
		g.POST("/schedules/:id", sp.adminScheduleUpdate)
		g.POST("/schedules/:id/:action", sp.adminScheduleAction)
		g.GET("/live/schedules", sp.liveSchedules)
		g.GET("/live/schedules/:id", sp.liveSchedule)
		g.GET("/todos", todos.adminTodos)
		g.POST("/todos", todos.adminTodoAdd)
		g.POST("/todos/:id/:action", todos.adminTodoAction)
		g.GET("/live/todos", todos.liveTodos)
	}
	if deps.Catalog != nil {
		cat := &catalogPages{c, deps.Catalog, deps.Plex}
		g.GET("/catalog", cat.adminCatalog)
		g.POST("/catalog/import", cat.adminCatalogImport)
		g.POST("/catalog/meta", cat.adminCatalogMeta)
		g.POST("/catalog/plex-sync", cat.adminCatalogPlexSync)
	}
	if deps.Sensors != nil {
		sp := &sensorPages{c, deps.Sensors}
		g.GET("/integrations/sensors", sp.adminSensors)
		g.POST("/integrations/sensors", sp.adminSensorAdd)
		g.POST("/integrations/sensors/poll", sp.adminSensorPoll)
		g.POST("/integrations/sensors/:id/delete", sp.adminSensorRemove)
	}
	if deps.Importer != nil {
		imp := &importPages{core: c, importer: deps.Importer, uploadDir: opt.UploadDir, maxImport: opt.MaxImportBytes}
		g.GET("/imports", imp.adminImports)
		g.POST("/imports", imp.adminImportUpload)
	}
	if deps.Definitions != nil {
		d := &definitionPages{core: c, defs: deps.Definitions, agents: deps.Agents, household: deps.Household, evals: deps.Evals}
		g.GET("/definitions", d.list)
		g.GET("/definitions/new", d.newAgent)
		g.POST("/definitions", d.create)
		g.GET("/definitions/:agent", d.edit)
		g.POST("/definitions/:agent", d.save)
		g.GET("/definitions/:agent/history", d.history)
		g.POST("/definitions/:agent/rollback", d.rollback)
		g.POST("/definitions/:agent/versions/:version/activate", d.activate)
		g.POST("/definitions/:agent/versions/:version/discard", d.discard)
		g.POST("/definitions/:agent/try", d.try)
	}
	if deps.Backups != nil {
		b := &backupPages{c, deps.Backups}
		g.GET("/backups", b.adminBackups)
		g.POST("/backups", b.adminBackupNow)
		g.POST("/backups/settings", b.adminBackupSettings)
		g.GET("/backups/:name", b.adminBackupDownload)
		g.POST("/backups/:name/delete", b.adminBackupDelete)
		g.GET("/live/backups", b.liveBackups)
	}
	if deps.Workflows != nil {
		w := &workflowPages{core: c, workflows: deps.Workflows, schedule: deps.Schedule}
		g.GET("/workflows", w.adminWorkflows)
		g.POST("/workflows/:id/start", w.adminWorkflowStart)
		g.GET("/workflow-runs/:id", w.adminWorkflowRun)
		g.POST("/workflow-runs/:id/:action", w.adminWorkflowAction)
		g.GET("/live/workflows", w.liveWorkflows)
		g.GET("/live/workflow-runs/:id", w.liveWorkflowRun)
	}
	if deps.Model != nil {
		m := &modelPages{c, deps.Model, deps.Agents}
		g.GET("/model", m.adminModel)
		g.POST("/model/check", m.adminModelCheck)
		g.POST("/model/reset", m.adminModelReset)
		g.GET("/live/model", m.liveModel)
	}
	if deps.Integrations != nil {
		in := &integrationPages{core: c, integrations: deps.Integrations, copilot: deps.Copilot != nil}
		g.GET("/integrations", in.adminIntegrations)
		// The posts carry a token: no request-id replay, whose record
		// would keep the page in the database (saving twice changes
		// nothing, a test saves nothing).
		for path, h := range map[string]echo.HandlerFunc{"": in.adminHASave, "/test": in.adminHATest, "/remove-token": in.adminHARemoveToken} {
			e.POST("/admin/integrations/homeassistant"+path, h, mw.AdminChain()...)
		}
		for path, h := range map[string]echo.HandlerFunc{"": in.adminPlexSave, "/test": in.adminPlexTest, "/remove-token": in.adminPlexRemoveToken} {
			e.POST("/admin/integrations/plex"+path, h, mw.AdminChain()...)
		}
	}
	if deps.Curator != nil {
		cp := &curatorPages{core: c, curator: deps.Curator}
		g.GET("/curator", cp.adminCurator)
		g.GET("/live/curator", cp.liveCurator)
		// No request-id replay: the proposal's status is the record, so a
		// repeated confirmation answers with its outcome and applies
		// nothing again, even one retried after a restart (which a replay
		// record would refuse as interrupted).
		e.POST("/admin/curator/:id/:action", cp.adminCuratorDecide, mw.AdminChain()...)
	}
	if deps.Policies != nil {
		pp := &policyPages{core: c, policies: deps.Policies}
		g.GET("/policies", pp.adminPolicies)
		g.POST("/policies", pp.adminPolicySave)
		g.GET("/policies/reset", pp.adminPolicyResetPage)
		g.POST("/policies/reset", pp.adminPolicyReset)
	}
	if deps.Evals != nil {
		ev := &evalPages{core: c, evals: deps.Evals, definitions: deps.Definitions}
		g.GET("/evals", ev.adminEvals)
		g.POST("/evals", ev.adminEvalStart)
		g.GET("/evals/:id", ev.adminEvalRun)
		g.GET("/live/evals", ev.liveEvals)
	}
	g.GET("/api", (&apiDocPage{core: c, spec: opt.APISpec}).adminAPIDoc)
	sp := &screenPage{core: c, screenURL: opt.ScreenURL, devices: deps.Devices, layouts: deps.Layouts, members: deps.Members,
		copilot: deps.Copilot != nil}
	g.GET("/screens", sp.adminScreens)
	if deps.Layouts != nil {
		g.GET("/screens/layouts/:slug", sp.adminLayout)
		g.GET("/screens/layouts/:slug/export", sp.adminLayoutExport)
		g.POST("/screens/layouts", sp.adminLayoutCreate)
		g.POST("/screens/layouts/:slug", sp.adminLayoutSave)
		g.POST("/screens/layouts/:slug/remove", sp.adminLayoutRemove)
		g.POST("/screens/default-layout", sp.adminLayoutDefault)
		g.POST("/screens/:id/layout", sp.adminScreenLayout)
	}
	if deps.Devices != nil {
		g.POST("/screens/tokens", sp.adminScreenTokens)
		g.POST("/screens/:id/revoke", sp.adminScreenRevoke)
		// Its answer holds a new enrolment link or script token, shown
		// once: no request-id replay, whose record would keep the secret
		// in the database.
		e.POST("/admin/screens", sp.adminScreenAdd, mw.AdminChain()...)
	}
}
