package coach

import (
	"context"
	"log/slog"
	"time"

	"hearth/internal/agent"
	"hearth/internal/history"
	"hearth/internal/lifeplan"
	"hearth/internal/store"
)

// Identifiers of the coach agent and its assignment.
const (
	AgentID          = "health-coach"
	DailyDashboardID = "daily-dashboard"
	// DailyDashboardSchedule is the assignment's default cron schedule.
	DailyDashboardSchedule = "0 4 * * *"
)

// Deps are the coach's dependencies. DB, Catalog, Programs and Dashboards
// are required; the rest is optional.
type Deps struct {
	// DB is the database: health records are read through it and the
	// coach's own writes (coaching notes, the write tools) go to it.
	DB *store.DB
	// Catalog is the content catalog (*content.Catalog).
	Catalog Catalog
	// Programs is the program-state service (*program.Service).
	Programs Programs
	// Dashboards is the dashboard store (*dashboard.Store).
	Dashboards Dashboards
	// Schedule adds the scheduling and to-do tools (schedule.Service.AgentTools()).
	Schedule agent.ToolFactory
	// Messages, when set, lets the coach send a member a message
	// (send_message; *messages.Service).
	Messages Messenger
	// Location is the household time zone that defines "today" (nil = UTC).
	Location *time.Location
	// Tuning, when set, supplies the prompts for every run (falling back to
	// DefaultTuning when it fails).
	Tuning TuningSource
	// Shape, when set, lets the coach's current declarative definition
	// shape the daily run's model path (its tools, context types, rules
	// with retries, sub-agents and hooks; see agent.Shaper and
	// definition.Invoker.Shape). nil: the daily run offers every tool.
	Shape ShapeFunc
	// Now is the clock for tools called outside a run (default DB.Now).
	Now func() time.Time
	// Logger receives warnings (nil discards).
	Logger *slog.Logger
	// Mutant breaks one judgement of the heuristic coach, for the eval's
	// mutation score only (see Mutant); "" is the coach as it is.
	Mutant Mutant
	// Replan, when set, asks for a re-plan of the member's day soon
	// (internal/replan): a chat statement that changes today calls it,
	// with the chat turn's run, which must commit first. nil: the plan
	// changes at the next run.
	Replan func(member string, after int64)
	// LifePlan, when set, is the coach's limited view of the member's life
	// plan (*lifeplan.Service): the life-plan goal a fitness goal serves
	// and the beliefs logged data may bear on, read for the daily run.
	LifePlan LifePlan
	// LifePlanTools, when set, are the limited life-plan tools
	// (lifeplan.LimitedTools): read, link a fitness goal, propose evidence.
	LifePlanTools agent.ToolFactory
}

// LifePlan is what the coach reads of a life plan (*lifeplan.Service).
type LifePlan interface {
	ForCoach(ctx context.Context, member string) (lifeplan.ForCoach, error)
}

// core is Deps with defaults applied; tools and the assignment share it.
type core struct {
	db     *store.DB
	rec    Records
	hist   history.SummaryReader
	cat    Catalog
	prog   Programs
	dash   Dashboards
	loc    *time.Location
	now    func() time.Time
	tuning TuningSource
	log    *slog.Logger
	msgs   Messenger
	shape  ShapeFunc
	mutant Mutant
	replan func(member string, after int64)
	life   LifePlan // nil: no life plan
	// dailyTools are the daily run's model tools (DailyToolIDs).
	dailyTools []string
}

// ShapeFunc shapes one daily run from the coach's definition.
type ShapeFunc func(ctx context.Context, x *agent.Exec, mem *agent.Memory, p agent.Prompt) (*agent.Shape, error)

func newCore(d Deps) *core {
	switch {
	case d.DB == nil:
		panic("coach: Deps.DB is required")
	case d.Catalog == nil:
		panic("coach: Deps.Catalog is required")
	case d.Programs == nil:
		panic("coach: Deps.Programs is required")
	case d.Dashboards == nil:
		panic("coach: Deps.Dashboards is required")
	}
	c := &core{db: d.DB, rec: d.DB, hist: d.DB, cat: d.Catalog, prog: d.Programs, dash: d.Dashboards,
		loc: d.Location, now: d.Now, tuning: d.Tuning, log: d.Logger, msgs: d.Messages, shape: d.Shape, mutant: d.Mutant,
		replan: d.Replan, life: d.LifePlan, dailyTools: DailyToolIDs(d)}
	if c.loc == nil {
		c.loc = time.UTC
	}
	if c.now == nil {
		c.now = func() time.Time { return d.DB.Now() }
	}
	if c.log == nil {
		c.log = slog.New(slog.DiscardHandler)
	}
	return c
}

// clock returns the scope's time, or the coach's clock outside a run.
func (c *core) clock(scope agent.Scope) time.Time {
	if !scope.Now.IsZero() {
		return scope.Now
	}
	return c.now()
}

// Toolset returns every tool factory the coach offers: its own tools, the
// working-memory tools and, when given, the scheduling tools and the
// limited life-plan tools (the agent's toolbox, and the tool registry of
// declarative definitions).
func Toolset(deps Deps) []agent.ToolFactory {
	factories := append(NewTools(deps).All(), agent.MemoryTools())
	if deps.Schedule != nil {
		factories = append(factories, deps.Schedule)
	}
	if deps.LifePlanTools != nil {
		factories = append(factories, deps.LifePlanTools)
	}
	return factories
}

// requestNote tells the model what to do with a scheduled action or a
// to-do (agent.Agent.RequestNote): the heuristic does the same (request.go).
const requestNote = "When the request asks you to tell the member something (a reminder, a check-in, a note, a question), " +
	"write that message to them in your voice (\"you\", \"your\"), about what was asked, and deliver it with send_message: " +
	"nothing reaches them otherwise. When the request calls the member \"me\" (\"check in with me about my knee\"), they " +
	"scheduled it themselves: \"me\" and \"my\" are theirs. A request for something else (review, plan, note) sends nothing."

// New returns the health-coach agent: its tools (coach tools, working-memory
// tools and, when given, the scheduling tools), the daily-dashboard
// assignment, default model settings and a no-model chat reply. Register it
// with agent.Orchestrator.Register. It panics when a required dependency is
// missing.
func New(deps Deps) agent.Agent {
	c := newCore(deps)
	r := newReplier(c)
	return agent.Agent{
		ID:           AgentID,
		Description:  "Health coach: prepares each member's daily dashboard and answers their questions.",
		SystemPrompt: Persona,
		Tools:        Toolset(deps),
		Assignments:  []agent.Assignment{newDailyDashboard(c)},
		Model:        DefaultTuning().Model,
		Reply:        r.Reply,
		Heard:        r.Heard,
		RequestNote:  requestNote,
		ToolLabels:   toolLabels,
		SurfaceTools: map[agent.Surface][]string{agent.SurfaceKiosk: KioskTools},
		Chat:         agent.Conversation{ModelTools: map[agent.Surface][]string{agent.SurfaceKiosk: KioskModelTools}},
	}
}
