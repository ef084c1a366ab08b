package web

import (
	"context"

	"hearth/internal/agent/definition"
	"hearth/web/admin"
	"hearth/web/adminauth"
	"hearth/web/api"
	"hearth/web/kiosk"
	"hearth/web/programs"
)

// Deps are the services the audiences' handlers call. Each audience
// declares the interfaces it uses (only the methods it calls); a field two
// audiences share has the union of theirs, declared below.
type Deps struct {
	Household Household
	Ping      func(ctx context.Context) error
	Admin     AdminDeps

	// Kiosk services.
	Dashboards Dashboards
	Catalog    Catalog
	Live       Live
	Voice      kiosk.Voice        // nil: voice memos are refused
	Privacy    kiosk.Privacy      // nil: the privacy toggle is refused
	Coach      kiosk.DayPreparer  // nil: no "prepare my day now"
	Listener   kiosk.Listener     // nil: answers are not acknowledged and wait for the next run
	Alerts     kiosk.Alerts       // nil: no admin badge on the household view
	Programs   programs.Programs  // nil: no program controls
	Messages   kiosk.Messages     // nil: no messages from the coach
	Requests   Requests           // nil: request ids are ignored (no replay of repeats)
	Sessions   adminauth.Sessions // admin sessions; nil: kept in memory (lost at restart)
	// PromptAhead ranks a document prompt above a waiting workflow question
	// (coach.AheadOfWorkflowQuestions: the coach's one prompt priority);
	// nil: workflow questions come first.
	PromptAhead func(promptID string) bool
	// Thumbs serve Plex thumbnails through Hearth (*content.PlexThumbs);
	// nil: /plex/thumb/ answers a placeholder.
	Thumbs kiosk.Thumbs
	// MediaDir holds local videos: local:<name> plays <MediaDir>/<name>.mp4 (.webm, .m4v, .mov).
	MediaDir string
	// Devices are the device tokens (*devices.Service): the household
	// setting that screens and /api/v1 need one, Admin → Screens and the
	// enrolment links; nil: no device tokens (the household network is trusted).
	Devices Devices
	// Settings are the household settings: the time zone and night
	// schedule on Admin → Household, the night schedule on the kiosk
	// (*household.Service); nil: neither.
	Settings Settings
	// Screens are the screen layouts (*screen.Service): what each screen
	// shows and Admin → Screens' layouts; nil: the shipped default only.
	Screens Screens
	// PINs check members' PINs for shared screens (*household.Service);
	// nil: a private member unlocks a screen with a tap.
	PINs kiosk.PINs
	// Held are the actions Talos holds for an adult's confirmation on the
	// screen; nil: none.
	Held kiosk.Held
	// LifePlan keeps the members' life plans (*lifeplan.Service): the
	// kiosk's Life plan page, Admin → Household → Life plan and the JSON
	// API under /api/v1/members/:member/lifeplan; nil: none of them.
	LifePlan LifePlan
}

// Screens are the screen layouts as the kiosk and the admin use them.
type Screens interface {
	kiosk.Screens
	admin.Layouts
}

// AdminDeps are the services behind the admin area; nil ones hide their pages
// (and their APIs). Fields only the admin pages use have the admin's own
// interfaces; the ones the APIs or the kiosk share are unions (below).
type AdminDeps struct {
	Household admin.HouseholdAdmin
	Agents    Agents             // assignments, runs, memory pages; /api/agents, /api/runs
	Schedule  Schedules          // schedules and to-do pages; /api/agent/tasks
	Catalog   admin.CatalogAdmin // catalog page
	Plex      admin.PlexSyncer   // "Sync now" on the catalog page; nil: none
	// Sensors are the Home Assistant sensors mapped to members
	// (*sensors.Service, Admin → Integrations → Sensors); nil: none.
	Sensors  admin.SensorsAdmin
	Importer admin.Importer // imports page
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
	// Integrations is Admin → Integrations (the app's settings).
	Integrations admin.Integrations
	// Curator is Admin → Curator: agents' proposed changes to outside
	// systems (*proposals.Service); nil: not shown.
	Curator admin.Curator
	// Policies are the kiosk assistant's policy and decisions (Admin →
	// Policies, /api/policies/talos; *talos.Store); nil: neither.
	Policies Policies
	// Copilot answers the configuration copilot's panel (the app); nil: none.
	Copilot admin.Copilot
	// UploadDir holds an uploaded import file while it is read (default: the
	// system temporary directory). The file is removed afterwards.
	UploadDir string
	// MaxImportBytes caps one uploaded import file (default admin.DefaultMaxImportBytes).
	MaxImportBytes int64
}

// The services more than one audience uses: each the union of the
// interfaces its users declare, so a service that satisfies it satisfies
// every audience it is handed to.
type (
	Household interface {
		kiosk.Household
		api.Household
	}
	Dashboards interface {
		kiosk.Dashboards
		api.Dashboards
	}
	Catalog interface {
		kiosk.Catalog
		api.Catalog
	}
	Live interface {
		kiosk.Live
		api.Live
		admin.Live
	}
	Agents interface {
		admin.Agents
		api.Agents
		kiosk.Agents
	}
	Schedules interface {
		admin.Schedules
		api.Schedules
	}
	DefinitionsAdmin interface {
		admin.DefinitionsAdmin
		api.Definitions
	}
	Settings interface {
		admin.HouseholdSettings
		kiosk.Settings
	}
	Workflows interface {
		admin.Workflows
		api.Workflows
		kiosk.Workflows
	}
	Policies interface {
		admin.Policies
		api.Policies
	}
	LifePlan interface {
		kiosk.LifePlan
		admin.LifePlan
		api.LifePlan
	}
)

var _ DefinitionsAdmin = (*definition.Service)(nil)
