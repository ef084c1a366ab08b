package web

import (
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
