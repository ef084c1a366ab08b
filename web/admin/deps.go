package admin

import (
	"context"
	"io"
	"time"

	"hearth/internal/agent"
	"hearth/internal/content"
	"hearth/internal/health"
	"hearth/internal/household"
	"hearth/internal/importer"
	"hearth/internal/schedule"
	"hearth/internal/talos"
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
	// SetPIN sets a member's PIN for shared screens ("" removes it).
	SetPIN(ctx context.Context, member, pin string) error
}

// Agents is the agent orchestrator as the admin pages use it
// (*agent.Orchestrator).
type Agents interface {
	Agents() []agent.AgentInfo
	Agent(id string) (agent.AgentInfo, error)
	Resolve(ctx context.Context, id string) (agent.AgentInfo, error)
	Start(ctx context.Context, req agent.Request) (agent.Run, error)
	StartEach(ctx context.Context, req agent.Request) ([]agent.Run, error)
	Threads() *agent.ThreadStore
	ActiveChats(member string) []*agent.ChatStream
	ToolLabel(agentID, tool string) string
	Runs() *agent.RunStore
	Memory() *agent.MemoryStore
	BudgetStatus(ctx context.Context) (agent.BudgetStatus, error)
	// Usage is the model use of the last days days; Price a model's
	// configured price (Admin → Model's cost figures).
	Usage(ctx context.Context, days int) (agent.UsageReport, error)
	Price(model string) (agent.Price, bool)
	// HasModel reports whether a language model is configured.
	HasModel() bool
}

// Schedules is the scheduler as the schedules and to-do pages use it
// (*schedule.Service).
type Schedules interface {
	List(ctx context.Context, f schedule.TaskFilter) ([]schedule.Task, error)
	Get(ctx context.Context, id int64) (schedule.Task, error)
	Create(ctx context.Context, in schedule.TaskInput, createdBy schedule.CreatedBy) (schedule.Task, error)
	Update(ctx context.Context, id int64, p schedule.TaskPatch) (schedule.Task, error)
	Delete(ctx context.Context, id int64) error
	Pause(ctx context.Context, id int64, note string) (schedule.Task, error)
	Resume(ctx context.Context, id int64) (schedule.Task, error)
	Approve(ctx context.Context, id int64) (schedule.Task, error)
	Keep(ctx context.Context, id int64, keep bool) (schedule.Task, error)
	Ledger(ctx context.Context, id int64, limit int) ([]schedule.Fire, error)
	RunNow(ctx context.Context, id int64) (schedule.Fire, error)
	RunSlot(ctx context.Context, id int64, slot time.Time) (schedule.Fire, error)
	NextFires(t schedule.Task, n int) ([]time.Time, error)
	Todos() *schedule.Todos
	TaskRequests(ctx context.Context, f schedule.RequestFilter) ([]schedule.TaskRequest, error)
}

// CatalogAdmin is the content catalog as the admin catalog page uses it
// (*content.Catalog).
type CatalogAdmin interface {
	List(ctx context.Context, f content.Filter) ([]content.Item, error)
	Count(ctx context.Context) (int, error)
	Programs(ctx context.Context) ([]content.ProgramInfo, error)
	ImportFile(ctx context.Context, r io.Reader) (content.Summary, error)
	Get(ctx context.Context, id string) (content.Item, error)
	SetMeta(ctx context.Context, id string, e content.MetaEdit) (content.Item, error)
	PlexCatalog
}

// PlexCatalog is what Admin → Catalog shows of Plex (*content.Catalog).
type PlexCatalog interface {
	LastPlexSync(ctx context.Context) (content.PlexSync, bool, error)
}

// PlexSyncer syncs the configured Plex section when an admin asks.
type PlexSyncer interface {
	// PlexSection is the section synced; "" when Plex is not configured to sync.
	PlexSection(ctx context.Context) string
	SyncPlexNow(ctx context.Context) (content.PlexSync, error)
}

// Importer imports Apple Health exports and CSV files for a member
// (internal/importer over the database).
type Importer interface {
	Import(ctx context.Context, opts importer.Options, name string, r io.ReaderAt, size int64) (importer.Summary, error)
	Recent(ctx context.Context, member string, limit int) ([]importer.Run, error)
}

// HouseholdSettings are the household-wide settings on Admin → Household:
// the time zone and the screens' night schedule (*household.Service).
type HouseholdSettings interface {
	Settings(ctx context.Context) (household.Settings, error)
	SetTimeZone(ctx context.Context, name string) (household.Settings, error)
	SetNight(ctx context.Context, mode, from, to string) (household.Settings, error)
}

// Policies are the kiosk assistant's policy and its decision log, for
// Admin → Policies (*talos.Store).
type Policies interface {
	Policy(ctx context.Context) (talos.Policy, error)
	SavePolicy(ctx context.Context, p talos.Policy, tools []string, by string) error
	Decisions(ctx context.Context, f talos.Filter) ([]talos.Record, error)
}
