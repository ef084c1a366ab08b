// Package api is Hearth's JSON APIs: the household API under /api/v1 (the
// household network, no login), the admin APIs under /api (agents, runs,
// threads, workflows, scheduled tasks) and /debug/vars, and the OpenAPI
// description that documents them (/api/openapi.json, Spec).
//
// It imports no template: every answer is JSON (two routes stream JSON
// events, httpkit.StartJSONEvents).
package api

import (
	"context"
	"encoding/json"
	"time"

	"hearth/internal/agent"
	"hearth/internal/agent/definition"
	"hearth/internal/content"
	"hearth/internal/dashboard"
	"hearth/internal/health"
	"hearth/internal/household"
	"hearth/internal/live"
	"hearth/internal/schedule"
	"hearth/internal/workflow"
)

// Deps are the services the APIs call. A nil optional one hides its
// routes (or, for Dashboards and Catalog, answers as if empty).
type Deps struct {
	Household  Household  // the household API's entries and members
	Dashboards Dashboards // nil: no stored dashboards or prompts (404)
	Catalog    Catalog    // nil: the catalog is empty
	Live       Live       // change notifications (workflow run events)

	// The admin APIs.
	Agents      Agents      // nil: no /api/agents, /api/runs, /api/threads
	Definitions Definitions // nil: no agents made in admin
	Schedule    Schedules   // nil: no /api/agent/tasks
	Workflows   Workflows   // nil: no /api/workflows, /api/workflow-runs
	// AdminMembers checks member ids the admin APIs are given (the admin's
	// household service); nil: the household's Member instead, and run
	// filters do not check them.
	AdminMembers MemberLookup
	// Policies are the kiosk assistant's policy and decisions; nil: no
	// /api/policies/talos.
	Policies Policies

	// LifePlan is the members' life plans (lifeplan.go); nil: no
	// /api/v1/members/:member/lifeplan. Admin and Unlocks decide who opens
	// one: the admin, or a screen the member unlocked with their PIN.
	LifePlan LifePlan
	Admin    AdminCheck
	Unlocks  ScreenUnlocks
}

// Options are the per-server values the APIs use.
type Options struct {
	// KeepAlive is how often a JSON event stream sends a comment.
	KeepAlive time.Duration
}

// MemberLookup looks a member up (NotFound for an id not of the household).
type MemberLookup interface {
	Member(ctx context.Context, id string) (health.Member, error)
}

// Household is what the household API needs to record, list, correct
// and delete entries (*household.Service).
type Household interface {
	MemberLookup
	Members(ctx context.Context) ([]health.Member, error)
	LogWeight(ctx context.Context, member string, in household.WeightInput) (health.WeightReading, error)
	LogMeal(ctx context.Context, member string, in household.MealInput) (health.Meal, error)
	LogWorkout(ctx context.Context, member string, in household.WorkoutInput) (health.Workout, error)
	LogBodyScan(ctx context.Context, member string, in household.ScanInput) (health.BodyScan, error)
	Weights(ctx context.Context, member string, limit int) ([]health.WeightReading, error)
	Meals(ctx context.Context, member string, limit int) ([]health.Meal, error)
	Workouts(ctx context.Context, member string, limit int) ([]health.Workout, error)
	BodyScans(ctx context.Context, member string, limit int) ([]health.BodyScan, error)
	EditWeight(ctx context.Context, member string, id int64, p household.WeightPatch) (health.WeightReading, error)
	EditMeal(ctx context.Context, member string, id int64, p household.MealPatch) (health.Meal, error)
	EditWorkout(ctx context.Context, member string, id int64, p household.WorkoutPatch) (health.Workout, error)
	EditBodyScan(ctx context.Context, member string, id int64, p household.ScanPatch) (health.BodyScan, error)
	Delete(ctx context.Context, member string, kind household.EntryKind, id int64) (household.Trashed, error)
}

// Dashboards are the stored daily documents and the answers to their prompts.
type Dashboards interface {
	Day(t time.Time) string
	Get(ctx context.Context, member, day string) (dashboard.Stored, error)
	RecordAnswer(ctx context.Context, member, promptID, answer, kind string, voiceMemoID int64) (dashboard.Answer, error)
}

// Catalog lists the content catalog.
type Catalog interface {
	List(ctx context.Context, f content.Filter) ([]content.Item, error)
}

// Live hands out subscriptions to change notifications (internal/live.Hub).
type Live interface {
	Subscribe(topics ...string) *live.Sub
}

// Agents is the agent orchestrator as the agents, runs and threads APIs
// use it (*agent.Orchestrator).
type Agents interface {
	Agents() []agent.AgentInfo
	Agent(id string) (agent.AgentInfo, error)
	Resolve(ctx context.Context, id string) (agent.AgentInfo, error)
	Start(ctx context.Context, req agent.Request) (agent.Run, error)
	Run(ctx context.Context, req agent.Request) (agent.Run, error)
	StartEach(ctx context.Context, req agent.Request) ([]agent.Run, error)
	RunEach(ctx context.Context, req agent.Request) ([]agent.Run, error)
	Threads() *agent.ThreadStore
	CreateThread(ctx context.Context, agentID, member, title string) (agent.Thread, error)
	DeleteThread(ctx context.Context, id int64) error
	ChatStream(runID int64) (*agent.ChatStream, bool)
	Wait(ctx context.Context, id int64) (agent.Run, error)
	Runs() *agent.RunStore
}

// Definitions are the agent definitions, as far as the API runs agents
// made in admin (*definition.Service).
type Definitions interface {
	List(ctx context.Context) ([]definition.Summary, error)
	Active(ctx context.Context, agentID string) (definition.Version, error)
	Registry() definition.Registry
}

// Schedules is the scheduler as the task API uses it (*schedule.Service).
type Schedules interface {
	List(ctx context.Context, f schedule.TaskFilter) ([]schedule.Task, error)
	Get(ctx context.Context, id int64) (schedule.Task, error)
	Create(ctx context.Context, in schedule.TaskInput, createdBy schedule.CreatedBy) (schedule.Task, error)
	Update(ctx context.Context, id int64, p schedule.TaskPatch) (schedule.Task, error)
	Delete(ctx context.Context, id int64) error
}

// Workflows is the workflow runtime as the workflow API uses it
// (*workflow.Runtime).
type Workflows interface {
	Workflows() []workflow.Info
	Workflow(id string) (*workflow.Workflow, error)
	Start(ctx context.Context, req workflow.StartRequest) (workflow.Run, error)
	Get(ctx context.Context, id int64) (workflow.Run, error)
	List(ctx context.Context, f workflow.Filter) ([]workflow.Run, error)
	Resume(ctx context.Context, id int64, path string, data json.RawMessage) (workflow.Run, error)
	Restart(ctx context.Context, id int64) (workflow.Run, error)
	Pause(ctx context.Context, id int64) (workflow.Run, error)
}

// memberCheck is NotFound unless member is one of the household: the
// admin's household service when there is one, else the household's.
type memberCheck struct{ admin, household MemberLookup }

func (m memberCheck) exists(ctx context.Context, member string) error {
	var err error
	switch {
	case m.admin != nil:
		_, err = m.admin.Member(ctx, member)
	case m.household != nil:
		_, err = m.household.Member(ctx, member)
	}
	return err
}
