package web

import (
	"context"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"hearth/internal/household"
	"hearth/views"
	"hearth/web/admin"
	"hearth/web/adminauth"
	"hearth/web/httpkit"
	"hearth/web/programs"
)

// Deps are the services handlers call; each is an interface declared by the
// handler group that uses it.
type Deps struct {
	Household Household
	Ping      func(ctx context.Context) error
	Admin     AdminDeps

	// Kiosk services.
	Dashboards Dashboards
	Catalog    Catalog
	Live       Live
	Voice      Voice              // nil: voice memos are refused
	Privacy    Privacy            // nil: the privacy toggle is refused
	Coach      DayPreparer        // nil: no "prepare my day now"
	Alerts     Alerts             // nil: no admin badge on the household view
	Programs   programs.Programs  // nil: no program controls
	Messages   Messages           // nil: no messages from the coach
	Requests   Requests           // nil: request ids are ignored (no replay of repeats)
	Sessions   adminauth.Sessions // admin sessions; nil: kept in memory (lost at restart)
	// MediaDir holds local videos: local:<name> plays <MediaDir>/<name>.mp4 (.webm, .m4v, .mov).
	MediaDir string
}

// routes is the whole route table: the audiences, each on its own groups.
// Every group's route middleware reads the request in this order: the
// admin's authentication first (admin groups only), then the body limit,
// the text gate and CSRF (which may parse a form), then idempotency. So an
// anonymous client can never make the server read, parse or spool an admin
// route's body, and a replay never reaches someone who could not have
// made the request.
func (s *Server) routes(e *echo.Echo) {
	e.GET("/healthz", s.healthz)
	if s.assets != nil {
		e.GET("/static/*", s.assets.serve)
		e.HEAD("/static/*", s.assets.serve)
	}
	mw := httpkit.Middleware{Request: []echo.MiddlewareFunc{s.withAssets, s.bodyLimit, s.textGate, s.csrf},
		Admin: s.auth.Require, Idempotent: s.idempotent}
	request := mw.Request

	// Kiosk pages: household network, no login.
	k := e.Group("", request...)
	k.GET("/", s.pageHousehold)
	k.GET("/live/household", s.streamHousehold)
	k.GET("/m/:member", s.pageMember)
	k.GET("/live/m/:member", s.streamMember)
	// Creating requests carry a client request id: a repeat (the Datastar
	// client re-sends after a network error) gets the first answer again.
	k.POST("/m/:member/weight", s.formWeight, s.idempotent)
	k.POST("/m/:member/meal", s.formMeal, s.idempotent)
	k.POST("/m/:member/workout", s.formWorkout, s.idempotent)
	k.POST("/m/:member/scan", s.formScan, s.idempotent)
	k.GET("/m/:member/entry/:kind/:id", s.kioskEntry)
	k.POST("/m/:member/entry/:kind/:id", s.kioskEntryEdit, s.idempotent)
	k.POST("/m/:member/entry/:kind/:id/delete", s.kioskEntryDelete, s.idempotent)
	k.POST("/m/:member/undo/:trash", s.kioskUndo, s.idempotent)
	k.POST("/m/:member/answer", s.kioskAnswer, s.idempotent)
	k.POST("/m/:member/workflow/:run/answer", s.kioskWorkflowAnswer, s.idempotent)
	k.POST("/m/:member/voice", s.kioskVoice, s.idempotent)
	k.POST("/m/:member/privacy", s.kioskPrivacy)
	k.POST("/m/:member/prepare", s.kioskPrepare, s.idempotent)
	k.POST("/m/:member/program", s.kioskProgram, s.idempotent)
	k.POST("/m/:member/messages/:id/dismiss", s.kioskDismissMessage, s.idempotent)
	k.GET("/m/:member/chat", s.kioskChat)
	k.GET("/m/:member/chat/:thread", s.kioskChat)
	k.POST("/m/:member/chat", s.kioskChatSend, s.idempotent)
	k.POST("/m/:member/chat/voice", s.kioskChatVoice, s.idempotent)
	k.POST("/m/:member/chat/:thread/delete", s.kioskChatDelete, s.idempotent)
	k.GET("/m/:member/catalog", s.kioskCatalog)
	k.POST("/m/:member/playlist", s.kioskPlaylist, s.idempotent)
	k.GET("/m/:member/play", s.pagePlaylistPlayer)
	k.GET("/content/:id", s.pageContent)
	k.GET("/content/:id/video", s.contentVideo)
	k.POST("/content/done", s.contentDone, s.idempotent)

	// Household JSON API.
	api := e.Group("/api/v1", append(request, s.idempotent)...) // bodies capped at MaxJSONBody by bodyLimit
	api.GET("/members", s.apiMembers)
	api.GET("/members/:member/weight", s.apiWeightList)
	api.POST("/members/:member/weight", s.apiWeightCreate)
	api.GET("/members/:member/meals", s.apiMealList)
	api.POST("/members/:member/meals", s.apiMealCreate)
	api.GET("/members/:member/workouts", s.apiWorkoutList)
	api.POST("/members/:member/workouts", s.apiWorkoutCreate)
	api.GET("/members/:member/body-scans", s.apiScanList)
	api.POST("/members/:member/body-scans", s.apiScanCreate)
	api.PATCH("/members/:member/weight/:id", s.apiWeightEdit)
	api.DELETE("/members/:member/weight/:id", s.apiEntryDelete(household.EntryWeight))
	api.PATCH("/members/:member/meals/:id", s.apiMealEdit)
	api.DELETE("/members/:member/meals/:id", s.apiEntryDelete(household.EntryMeal))
	api.PATCH("/members/:member/workouts/:id", s.apiWorkoutEdit)
	api.DELETE("/members/:member/workouts/:id", s.apiEntryDelete(household.EntryWorkout))
	api.PATCH("/members/:member/body-scans/:id", s.apiScanEdit)
	api.DELETE("/members/:member/body-scans/:id", s.apiEntryDelete(household.EntryScan))
	api.GET("/health-dashboard/:member/:date", s.apiDashboard)
	api.GET("/catalog", s.apiCatalog)
	api.POST("/members/:member/prompts/:prompt/answer", s.apiAnswer)
	e.GET("/api/openapi.json", s.apiOpenAPI, request...)

	// Admin area: the login and logout are open; everything else under
	// /admin, the admin APIs under /api and /debug authenticate first.
	admin.Routes(e, s.adminDeps(), s.adminOptions(), mw)
	s.adminAPIRoutes(e.Group("/api", mw.AdminChain()...), e.Group("/debug", mw.AdminChain()...))
}

// adminDeps are the admin area's services (package admin).
func (s *Server) adminDeps() admin.Deps {
	d := s.deps
	var members admin.Members = d.Household // the admin selects: the admin's household service, else the kiosk's
	if d.Admin.Household != nil {
		members = d.Admin.Household
	}
	deps := admin.Deps{Auth: s.auth, Members: members, Live: d.Live, Household: d.Admin.Household, Agents: d.Admin.Agents,
		Schedule: d.Admin.Schedule, Catalog: d.Admin.Catalog, Importer: d.Admin.Importer, Definitions: d.Admin.Definitions,
		Backups: d.Admin.Backups, MemberData: d.Admin.MemberData, Workflows: d.Admin.Workflows, Model: d.Admin.Model,
		Evals: d.Admin.Evals, Messages: d.Messages}
	if d.Programs != nil {
		deps.Programs = s.programs
	}
	return deps
}

// adminOptions are the admin area's per-server values.
func (s *Server) adminOptions() admin.Options {
	o := s.opt
	return admin.Options{Logger: s.log, Location: o.Location, KeepAlive: o.KeepAlive, Version: o.Version,
		UploadDir: s.deps.Admin.UploadDir, MaxImportBytes: s.deps.Admin.MaxImportBytes, APISpec: openAPIDoc,
		ScreenURL: func() admin.ScreenAddress { return admin.ScreenAddress(ScreenURL(o.ListenAddr, o.Hosts)) }}
}

// diskFullMemory is how long /healthz reports a failed write for lack of disk.
const diskFullMemory = 5 * time.Minute

func (s *Server) healthz(c echo.Context) error {
	if s.deps.Ping != nil {
		if err := s.deps.Ping(c.Request().Context()); err != nil {
			s.log.Error("healthz", "err", err)
			return c.JSON(http.StatusServiceUnavailable, map[string]string{"status": "unavailable", "error": "database unavailable"})
		}
	}
	if at := s.diskFullAt.Load(); at != 0 && time.Since(time.Unix(0, at)) < diskFullMemory {
		return c.JSON(http.StatusServiceUnavailable, map[string]string{"status": "degraded",
			"error": "the disk is full: recent writes failed and nothing was saved"})
	}
	return c.JSON(http.StatusOK, map[string]string{"status": "ok"})
}

// withAssets gives the views this server's static file URLs (content
// hashed) through the request's context.
func (s *Server) withAssets(next echo.HandlerFunc) echo.HandlerFunc {
	if s.assets == nil {
		return next
	}
	return func(c echo.Context) error {
		r := c.Request()
		c.SetRequest(r.WithContext(views.WithAssets(r.Context(), s.assets.URL)))
		return next(c)
	}
}
