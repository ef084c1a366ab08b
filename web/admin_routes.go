package web

import (
	"context"

	"github.com/labstack/echo/v4"

	"hearth/internal/health"
	"hearth/internal/household"
)

// HouseholdAdmin is what the admin household pages need.
type HouseholdAdmin interface {
	Members(ctx context.Context) ([]health.Member, error)
	Member(ctx context.Context, id string) (health.Member, error)
	CreateMember(ctx context.Context, in household.MemberInput) (health.Member, error)
	UpdateMember(ctx context.Context, in household.MemberInput) (health.Member, error)
	AddGoal(ctx context.Context, member string, in household.GoalInput) (health.Goal, error)
	Goals(ctx context.Context, member string, activeOnly bool) ([]health.Goal, error)
	SetGoalStatus(ctx context.Context, member string, id int64, status string) error
}

// AdminDeps are the services behind the admin area; nil ones hide their pages
// (and their APIs).
type AdminDeps struct {
	Household HouseholdAdmin
	Agents    Agents       // assignments, runs, memory pages; /api/agents, /api/runs
	Schedule  Schedules    // schedules and to-do pages; /api/agent/tasks
	Catalog   CatalogAdmin // catalog page
	Importer  Importer     // imports page
	// Definitions are the agent definition pages (*definition.Service).
	Definitions DefinitionsAdmin
	// Backups is Admin → Backups (*backup.Service).
	Backups BackupsAdmin
	// MemberData exports and erases a member's data (Admin → Household).
	MemberData MemberData
	// Workflows are the workflow pages and /api/workflows… (*workflow.Runtime).
	Workflows Workflows
	// Model is Admin → Model (*llm.ModelAdmin).
	Model ModelAdmin
	// Evals runs the coach's eval suite (Admin → Evals, *eval.Service).
	Evals EvalsAdmin
	// UploadDir holds an uploaded import file while it is read (default: the
	// system temporary directory). The file is removed afterwards.
	UploadDir string
	// MaxImportBytes caps one uploaded import file (default DefaultMaxImportBytes).
	MaxImportBytes int64
}

// adminRoutes registers everything under the authenticated /admin group.
func (s *Server) adminRoutes(g *echo.Group) {
	a := s.deps.Admin
	if a.Agents != nil {
		g.GET("", s.adminAssignments)
		g.POST("/assignments/:agent/:assignment/run", s.adminRunNow)
		g.GET("/runs", s.adminRuns)
		g.GET("/runs/:id", s.adminRun)
		g.GET("/memory", s.adminMemory)
		g.POST("/memory", s.adminMemorySet)
		g.POST("/memory/delete", s.adminMemoryDelete)
		g.POST("/memory/undo/:change", s.adminMemoryUndo)
		g.GET("/live/assignments", s.liveAssignments)
		g.GET("/live/runs", s.liveRuns)
		g.GET("/live/runs/:id", s.liveRun)
		g.GET("/live/memory/:agent/:member", s.liveMemory)
		g.GET("/chat", s.adminChat)
		g.POST("/chat", s.adminChatSend)
		g.GET("/live/chat/:thread", s.liveChat)
	} else {
		g.GET("", s.pageAdmin)
	}
	if a.Household != nil {
		g.GET("/household", s.adminHousehold)
		g.POST("/household", s.adminMemberCreate)
		g.GET("/household/:member", s.adminMember)
		g.POST("/household/:member", s.adminMemberUpdate)
		g.POST("/household/:member/goals", s.adminGoalCreate)
		g.POST("/household/:member/goals/:goal", s.adminGoalStatus)
		if s.deps.Programs != nil {
			g.POST("/household/:member/program", s.adminProgram)
		}
		if a.MemberData != nil {
			g.GET("/household/:member/export", s.adminMemberExport)
			g.GET("/household/:member/erase", s.adminMemberErasePage)
			g.POST("/household/:member/erase", s.adminMemberErase)
		}
	}
	if s.deps.Messages != nil {
		g.GET("/messages", s.adminMessages)
	}
	if a.Schedule != nil {
		g.GET("/schedules", s.adminSchedules)
		g.POST("/schedules", s.adminScheduleCreate)
		g.GET("/schedules/preview", s.adminSchedulePreview)
		g.GET("/schedules/:id", s.adminSchedule)
		g.POST("/schedules/:id", s.adminScheduleUpdate)
		g.POST("/schedules/:id/:action", s.adminScheduleAction)
		g.GET("/live/schedules", s.liveSchedules)
		g.GET("/live/schedules/:id", s.liveSchedule)
		g.GET("/todos", s.adminTodos)
		g.POST("/todos", s.adminTodoAdd)
		g.POST("/todos/:id/:action", s.adminTodoAction)
		g.GET("/live/todos", s.liveTodos)
	}
	if a.Catalog != nil {
		g.GET("/catalog", s.adminCatalog)
		g.POST("/catalog/import", s.adminCatalogImport)
		g.POST("/catalog/meta", s.adminCatalogMeta)
	}
	if a.Importer != nil {
		g.GET("/imports", s.adminImports)
		g.POST("/imports", s.adminImportUpload)
	}
	if a.Definitions != nil {
		s.definitionRoutes(g, a.Definitions)
	}
	if a.Backups != nil {
		s.backupRoutes(g)
	}
	if a.Workflows != nil {
		s.workflowRoutes(g)
	}
	if a.Model != nil {
		s.modelRoutes(g)
	}
	if a.Evals != nil {
		s.evalRoutes(g)
	}
	g.GET("/api", s.adminAPIDoc)
	g.GET("/screens", s.adminScreens)
}
