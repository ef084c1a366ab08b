package web

import (
	"context"

	"hearth/internal/agent"
	"hearth/internal/agent/definition"
	"hearth/web/admin"
)

// The services the admin pages share with the other audiences: each is
// the admin's interface plus what the APIs and the kiosk call besides.

// HouseholdAdmin is the household as the admin pages and the APIs
// (member checks) use it.
type HouseholdAdmin interface {
	admin.HouseholdAdmin
}

// Agents is the agent orchestrator as the admin area, the agents/runs and
// threads APIs and the kiosk chat use it (*agent.Orchestrator).
type Agents interface {
	admin.Agents
	RunAssignment(ctx context.Context, req agent.AssignmentRequest) (agent.Run, error)
	RunAssignmentForAll(ctx context.Context, agentID, assignmentID string, trigger agent.Trigger) ([]agent.Run, error)
	Freeform(ctx context.Context, req agent.FreeformRequest) (agent.Run, error)
	CreateThread(ctx context.Context, agentID, member, title string) (agent.Thread, error)
	DeleteThread(ctx context.Context, id int64) error
	ChatStream(runID int64) (*agent.ChatStream, bool)
	Wait(ctx context.Context, id int64) (agent.Run, error)
}

// Schedules is the scheduler as the admin area and the task API use it
// (*schedule.Service).
type Schedules interface {
	admin.Schedules
}

// DefinitionsAdmin are the agent definitions as the admin pages and the
// agents API (admin-made agents, answers) use them (*definition.Service).
type DefinitionsAdmin interface {
	admin.DefinitionsAdmin
	Answer(ctx context.Context, agentID string, p definition.Params) (definition.Result, error)
}

var _ DefinitionsAdmin = (*definition.Service)(nil)

// Alerts is what the kiosk's admin badge shows ("" = nothing to report).
// (The kiosk's; it was declared beside the backups page.)
type Alerts interface {
	Alert(ctx context.Context) (string, error)
}
