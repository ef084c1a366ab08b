package app

import (
	"context"
	"path/filepath"

	"hearth/internal/agent"
	"hearth/internal/coach"
	"hearth/internal/idempotency"
	"hearth/internal/importer"
	"hearth/web"
)

// webDeps hands the built services to the web layer.
func (a *App) webDeps() web.Deps {
	d := web.Deps{
		Household: a.Household,
		Ping:      a.DB.Ping,
		Admin: web.AdminDeps{Household: a.Household, Definitions: a.Definitions,
			Agents: a.Agents, Schedule: a.Schedule, Catalog: a.Catalog,
			Importer:  importer.NewService(a.DB, a.Hub, a.cfg.Location).WithMaxBytes(a.cfg.ImportMaxBytes),
			UploadDir: filepath.Join(a.dataDir(), "imports"), MaxImportBytes: a.cfg.ImportMaxBytes,
			Backups: a.Backups, MemberData: memberData{db: a.DB, dataDir: a.dataDir(), hub: a.Hub, log: a.log}, Model: a.Model,
			Evals: a.Evals, Workflows: a.Workflows, Plex: plexAdmin{a}, Sensors: a.Sensors, Integrations: integrationsAdmin{a}, Curator: a.Proposals,
			Policies: a.Policies,
			Copilot:  a}, // the configuration copilot's panel (copilot.go)

		Dashboards:  a.Dashboards,
		Catalog:     a.Catalog,
		Live:        a.Hub,
		Voice:       a.voiceService(),
		Privacy:     a.Household,
		Coach:       dayPreparer{agents: a.Agents},
		Requests:    idempotency.New(a.DB),
		Sessions:    a.Sessions,
		Devices:     a.Devices,
		Screens:     a.Screens,
		PINs:        a.Household,
		MediaDir:    filepath.Join(a.dataDir(), "media"),
		Alerts:      a.Backups,
		Programs:    a.Programs,
		Messages:    a.Messages,
		PromptAhead: coach.AheadOfWorkflowQuestions,
		Listener:    a.listener,
		Settings:    a.Household,
	}
	if a.plex.thumbs != nil { // not a typed nil in the interface
		d.Thumbs = a.plex.thumbs
	}
	if a.TalosConfirm != nil {
		d.Held = heldActions{a}
	}
	if a.LifePlan != nil { // not a typed nil in the interface
		d.LifePlan = a.LifePlan
	}
	return d
}

// dayPreparer is the kiosk's "prepare my day now": the coach's daily
// dashboard for one member, joining a run already under way.
type dayPreparer struct{ agents *agent.Orchestrator }

func (p dayPreparer) PrepareDay(ctx context.Context, member string) (agent.Run, error) {
	return p.agents.Run(ctx, agent.Request{Agent: coach.AgentID, Assignment: coach.DailyDashboardID,
		Member: member, Trigger: agent.TriggerManual})
}
