package api

import (
	"slices"

	"github.com/labstack/echo/v4"

	"hearth/internal/debugvars"
	"hearth/internal/household"
	"hearth/web/httpkit"
)

// Routes registers the JSON APIs: the household API on /api/v1 (request
// middleware, then idempotency: bodies are capped at httpkit.MaxJSONBody),
// the description at /api/openapi.json, and the admin APIs on the admin's
// /api and /debug groups (a session, the bearer token, or a loopback
// client when neither a password nor a token is configured; unknown paths
// under /api are 401 without the admin, 404 with).
func Routes(e *echo.Echo, deps Deps, opt Options, mw httpkit.Middleware) {
	idem := mw.Idempotent
	members := memberCheck{admin: deps.AdminMembers, household: deps.Household}

	v1 := e.Group("/api/v1", append(slices.Clone(mw.Request), idem)...)
	en := entries{h: deps.Household}
	v1.GET("/members", en.members)
	v1.GET("/members/:member/weight", en.weightList)
	v1.POST("/members/:member/weight", en.weightCreate)
	v1.GET("/members/:member/meals", en.mealList)
	v1.POST("/members/:member/meals", en.mealCreate)
	v1.GET("/members/:member/workouts", en.workoutList)
	v1.POST("/members/:member/workouts", en.workoutCreate)
	v1.GET("/members/:member/body-scans", en.scanList)
	v1.POST("/members/:member/body-scans", en.scanCreate)
	v1.PATCH("/members/:member/weight/:id", en.weightEdit)
	v1.DELETE("/members/:member/weight/:id", en.delete(household.EntryWeight))
	v1.PATCH("/members/:member/meals/:id", en.mealEdit)
	v1.DELETE("/members/:member/meals/:id", en.delete(household.EntryMeal))
	v1.PATCH("/members/:member/workouts/:id", en.workoutEdit)
	v1.DELETE("/members/:member/workouts/:id", en.delete(household.EntryWorkout))
	v1.PATCH("/members/:member/body-scans/:id", en.scanEdit)
	v1.DELETE("/members/:member/body-scans/:id", en.delete(household.EntryScan))
	docs := documents{household: deps.Household, dashboards: deps.Dashboards}
	v1.GET("/health-dashboard/:member/:date", docs.dashboard)
	v1.GET("/catalog", catalog{deps.Catalog}.list)
	v1.POST("/members/:member/prompts/:prompt/answer", docs.answer)
	e.GET("/api/openapi.json", serveSpec, mw.Request...)
	if deps.LifePlan != nil { // its own group: its access rule runs before the body is read
		lifePlanRoutes(e, deps, mw, members)
	}

	g, debug := e.Group("/api", mw.AdminChain()...), e.Group("/debug", mw.AdminChain()...)
	// Runtime figures (goroutines, heap, RSS, open files) for operators and
	// cmd/hearth-load: admin only, and debugvars itself answers loopback only.
	debug.GET("/vars", echo.WrapHandler(debugvars.Handler()))
	if deps.Agents != nil {
		ag := agents{agents: deps.Agents, defs: deps.Definitions}
		g.GET("/agents", ag.list)
		g.GET("/agents/:agent/assignments", ag.assignments)
		g.GET("/tool-factories", ag.factories)
		g.POST("/agents/:agent/run", ag.run, idem)
		g.POST("/agents/:agent/run-background", ag.runBackground, idem)
		g.POST("/agents/:agent/assignments/:assignment/run", ag.assignmentRun, idem)
		rs := runs{agents: deps.Agents, members: deps.AdminMembers}
		g.GET("/runs", rs.list)
		g.GET("/runs/:id", rs.get)
		th := threads{agents: ag, members: members, keepAlive: opt.KeepAlive}
		g.GET("/agents/:agent/threads", th.list)
		g.POST("/agents/:agent/threads", th.create, idem)
		g.GET("/threads/:id", th.get)
		g.POST("/threads/:id/messages", th.message, idem)
		g.DELETE("/threads/:id", th.delete)
	}
	if deps.Workflows != nil {
		wf := workflows{wf: deps.Workflows, members: members, live: deps.Live, keepAlive: opt.KeepAlive}
		g.GET("/workflows", wf.list)
		g.POST("/workflows/:id/runs", wf.start, idem)
		g.GET("/workflow-runs", wf.runs)
		g.GET("/workflow-runs/:id", wf.run)
		g.POST("/workflow-runs/:id/resume", wf.resume, idem)
		g.POST("/workflow-runs/:id/restart", wf.restart)
		g.POST("/workflow-runs/:id/pause", wf.pause)
		g.GET("/workflow-runs/:id/events", wf.events)
	}
	if deps.Schedule != nil {
		ts := tasks{schedule: deps.Schedule}
		g.GET("/agent/tasks", ts.list)
		g.POST("/agent/tasks", ts.create, idem)
		g.GET("/agent/tasks/:id", ts.get)
		g.PUT("/agent/tasks/:id", ts.update)
		g.DELETE("/agent/tasks/:id", ts.delete)
	}
	if deps.Policies != nil {
		pol := policies{deps.Policies}
		g.GET("/policies/talos", pol.get)
		g.PUT("/policies/talos", pol.put)
		g.GET("/policies/talos/decisions", pol.decisions)
	}
}
