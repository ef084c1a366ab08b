package web

import (
	"github.com/labstack/echo/v4"

	"hearth/internal/debugvars"
	"hearth/web/admin"
)

// AdminDeps are the services behind the admin area; nil ones hide their pages
// (and their APIs). Fields only the admin pages use have the admin's own
// interfaces; the ones the APIs share are declared in deps_admin.go.
type AdminDeps struct {
	Household HouseholdAdmin
	Agents    Agents             // assignments, runs, memory pages; /api/agents, /api/runs
	Schedule  Schedules          // schedules and to-do pages; /api/agent/tasks
	Catalog   admin.CatalogAdmin // catalog page
	Importer  admin.Importer     // imports page
	// Definitions are the agent definition pages (*definition.Service).
	Definitions DefinitionsAdmin
	// Backups is Admin → Backups (*backup.Service).
	Backups admin.BackupsAdmin
	// MemberData exports and erases a member's data (Admin → Household).
	MemberData admin.MemberData
	// Workflows are the workflow pages and /api/workflows… (*workflow.Runtime).
	Workflows Workflows
	// Model is Admin → Model (*llm.ModelAdmin).
	Model admin.ModelAdmin
	// Evals runs the coach's eval suite (Admin → Evals, *eval.Service).
	Evals admin.EvalsAdmin
	// UploadDir holds an uploaded import file while it is read (default: the
	// system temporary directory). The file is removed afterwards.
	UploadDir string
	// MaxImportBytes caps one uploaded import file (default admin.DefaultMaxImportBytes).
	MaxImportBytes int64
}

// adminAPIRoutes registers the admin JSON APIs (agents, runs, scheduled
// tasks) on the admin's /api group: a session, the bearer token, or a
// loopback client when neither a password nor a token is configured.
// Unknown paths under /api are 401 without the admin, 404 with.
func (s *Server) adminAPIRoutes(e, debug *echo.Group) {
	idem := s.idempotent
	// Runtime figures (goroutines, heap, RSS, open files) for operators and
	// cmd/hearth-load: admin only, and debugvars itself answers loopback only.
	debug.GET("/vars", echo.WrapHandler(debugvars.Handler()))
	if s.deps.Admin.Agents != nil {
		e.GET("/agents", s.apiAgents)
		e.GET("/agents/:agent/assignments", s.apiAssignments)
		e.POST("/agents/:agent/run", s.apiAgentRun, idem)
		e.POST("/agents/:agent/run-background", s.apiAgentRunBackground, idem)
		e.POST("/agents/:agent/assignments/:assignment/run", s.apiAssignmentRun, idem)
		e.GET("/runs", s.apiRuns)
		e.GET("/runs/:id", s.apiRun)
		s.threadAPIRoutes(e)
	}
	if s.deps.Admin.Workflows != nil {
		s.workflowAPIRoutes(e)
	}
	if s.deps.Admin.Schedule != nil {
		e.GET("/agent/tasks", s.apiTasks)
		e.POST("/agent/tasks", s.apiTaskCreate, idem)
		e.GET("/agent/tasks/:id", s.apiTask)
		e.PUT("/agent/tasks/:id", s.apiTaskUpdate)
		e.DELETE("/agent/tasks/:id", s.apiTaskDelete)
	}
}
