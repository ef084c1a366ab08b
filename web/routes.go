package web

import (
	"context"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"hearth/internal/household"
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
	Voice      Voice       // nil: voice memos are refused
	Privacy    Privacy     // nil: the privacy toggle is refused
	Coach      DayPreparer // nil: no "prepare my day now"
	Alerts     Alerts      // nil: no admin badge on the household view
	Programs   Programs    // nil: no program controls
	Messages   Messages    // nil: no messages from the coach
	Requests   Requests    // nil: request ids are ignored (no replay of repeats)
	Sessions   Sessions    // admin sessions; nil: kept in memory (lost at restart)
	// MediaDir holds local videos: local:<name> plays <MediaDir>/<name>.mp4 (.webm, .m4v, .mov).
	MediaDir string
}

// routes is the whole route table.
func (s *Server) routes(e *echo.Echo) {
	e.GET("/healthz", s.healthz)
	if s.assets != nil {
		e.GET("/static/*", s.assets.serve)
		e.HEAD("/static/*", s.assets.serve)
	}

	// Kiosk pages: household network, no login.
	e.GET("/", s.pageHousehold)
	e.GET("/live/household", s.streamHousehold)
	e.GET("/m/:member", s.pageMember)
	e.GET("/live/m/:member", s.streamMember)
	// Creating requests carry a client request id: a repeat (the Datastar
	// client re-sends after a network error) gets the first answer again.
	e.POST("/m/:member/weight", s.formWeight, s.idempotent)
	e.POST("/m/:member/meal", s.formMeal, s.idempotent)
	e.POST("/m/:member/workout", s.formWorkout, s.idempotent)
	e.POST("/m/:member/scan", s.formScan, s.idempotent)
	e.GET("/m/:member/entry/:kind/:id", s.kioskEntry)
	e.POST("/m/:member/entry/:kind/:id", s.kioskEntryEdit, s.idempotent)
	e.POST("/m/:member/entry/:kind/:id/delete", s.kioskEntryDelete, s.idempotent)
	e.POST("/m/:member/undo/:trash", s.kioskUndo, s.idempotent)
	e.POST("/m/:member/answer", s.kioskAnswer, s.idempotent)
	e.POST("/m/:member/workflow/:run/answer", s.kioskWorkflowAnswer, s.idempotent)
	e.POST("/m/:member/voice", s.kioskVoice, s.idempotent)
	e.POST("/m/:member/privacy", s.kioskPrivacy)
	e.POST("/m/:member/prepare", s.kioskPrepare, s.idempotent)
	e.POST("/m/:member/program", s.kioskProgram, s.idempotent)
	e.POST("/m/:member/messages/:id/dismiss", s.kioskDismissMessage, s.idempotent)
	e.GET("/m/:member/chat", s.kioskChat)
	e.GET("/m/:member/chat/:thread", s.kioskChat)
	e.POST("/m/:member/chat", s.kioskChatSend, s.idempotent)
	e.POST("/m/:member/chat/voice", s.kioskChatVoice, s.idempotent)
	e.POST("/m/:member/chat/:thread/delete", s.kioskChatDelete, s.idempotent)
	e.GET("/m/:member/catalog", s.kioskCatalog)
	e.POST("/m/:member/playlist", s.kioskPlaylist, s.idempotent)
	e.GET("/m/:member/play", s.pagePlaylistPlayer)
	e.GET("/content/:id", s.pageContent)
	e.GET("/content/:id/video", s.contentVideo)
	e.POST("/content/done", s.contentDone, s.idempotent)

	// Household JSON API.
	api := e.Group("/api/v1", s.idempotent) // bodies capped at httpkit.MaxJSONBody by bodyLimit
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
	e.GET("/api/openapi.json", s.apiOpenAPI)

	// Admin area.
	e.GET("/admin/login", s.pageLogin)
	e.POST("/admin/login", s.login)
	e.POST("/admin/logout", s.logout)
	s.adminRoutes(e.Group("/admin", s.idempotent)) // authenticated by adminGate
	s.adminAPIRoutes(e)
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
