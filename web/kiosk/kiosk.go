// Package kiosk is the household screen's audience: the household view,
// the members' dashboards and their live streams, the logging sheets, the
// coach chat, content pages and playlists. No login: the kiosk is on the
// household network. Its dependencies are small interfaces (here and in
// deps.go), each holding only the methods its handlers call.
package kiosk

import (
	"context"
	"encoding/json"
	"log/slog"
	"sync/atomic"
	"time"

	"hearth/internal/agent"
	"hearth/internal/health"
	"hearth/internal/household"
	"hearth/internal/messages"
	"hearth/internal/screen"
	"hearth/internal/workflow"
	"hearth/web/httpkit"
	"hearth/web/programs"
	"hearth/web/ratelimit"
)

// Deps are the services the kiosk calls. A nil optional dependency hides or
// refuses what needs it.
type Deps struct {
	Household  Household
	Dashboards Dashboards  // nil: no prompts, playlists or prepared days
	Catalog    Catalog     // nil: no catalog, content pages or playlists
	Live       Live        // nil: no live streams
	Voice      Voice       // nil: voice memos are refused
	Privacy    Privacy     // nil: the privacy toggle is refused
	Coach      DayPreparer // nil: no "prepare my day now"
	Listener   Listener    // nil: answers get no acknowledgement and no re-plan (the next run reads them)
	Alerts     Alerts      // nil: no admin badge on the household view
	Messages   Messages    // nil: no messages from the coach
	Agents     Agents      // nil: the coach cannot chat
	Workflows  Workflows   // nil: no workflow questions
	Held       Held        // nil: no actions wait for an adult (no "Home & TV" confirmations)
	Screens    Screens     // nil: every screen shows the shipped default layout
	PINs       PINs        // nil: a private member unlocks a screen with a tap
	LifePlan   LifePlan    // nil: no Life plan page
	// Unlocks are the screens' unlocked members (nil: a new, empty set).
	Unlocks *screen.Unlocks
	// PromptAhead reports whether a document prompt ranks above a waiting
	// workflow question in the coach's one prompt priority (the coach's
	// AheadOfWorkflowQuestions, handed in so the kiosk does not import the
	// coach); nil: none does.
	PromptAhead func(promptID string) bool
	// Programs are the program controls the dashboard shares with the
	// admin member page.
	Programs *programs.Controls
	// MediaDir holds local videos: local:<name> plays <MediaDir>/<name>.mp4 (.webm, .m4v, .mov).
	MediaDir string
	// Settings hold the screens' night schedule; nil: no night mode.
	Settings Settings
	// Thumbs serve Plex items' thumbnails through Hearth; nil: every
	// /plex/thumb/ answers the placeholder.
	Thumbs Thumbs
}

// Options are the kiosk's per-server values.
type Options struct {
	Logger    *slog.Logger
	Location  *time.Location // the household clock
	KioskIdle time.Duration  // a dashboard returns to the household view after this long untouched
	KeepAlive time.Duration  // how often live streams send a keep-alive (default 15 s)
	// Streams are the detached member streams (httpkit.Detach); nil keeps
	// every stream on its request goroutine.
	Streams *httpkit.Streams
	// PatchRenders counts stream patch sets encoded (tests check sharing);
	// nil: not counted.
	PatchRenders *atomic.Int64
	// ModelCalls holds back requests that call a model (chat turns,
	// transcriptions, "prepare my day"); nil: a limiter with the defaults.
	ModelCalls *ratelimit.Limiter

	night nightSource // set by Routes
}

// Household records and lists a member's entries (*household.Service).
type Household interface {
	Member(ctx context.Context, id string) (health.Member, error)
	Members(ctx context.Context) ([]health.Member, error)
	LogWeight(ctx context.Context, member string, in household.WeightInput) (health.WeightReading, error)
	LogMeal(ctx context.Context, member string, in household.MealInput) (health.Meal, error)
	LogWorkout(ctx context.Context, member string, in household.WorkoutInput) (health.Workout, error)
	LogBodyScan(ctx context.Context, member string, in household.ScanInput) (health.BodyScan, error)
	Weights(ctx context.Context, member string, limit int) ([]health.WeightReading, error)
	Meals(ctx context.Context, member string, limit int) ([]health.Meal, error)
	Workouts(ctx context.Context, member string, limit int) ([]health.Workout, error)
	BodyScans(ctx context.Context, member string, limit int) ([]health.BodyScan, error)
	// Goals are the member's fitness goals (the Life plan page names the linked ones).
	Goals(ctx context.Context, member string, activeOnly bool) ([]health.Goal, error)

	Weight(ctx context.Context, member string, id int64) (health.WeightReading, error)
	Meal(ctx context.Context, member string, id int64) (health.Meal, error)
	Workout(ctx context.Context, member string, id int64) (health.Workout, error)
	BodyScan(ctx context.Context, member string, id int64) (health.BodyScan, error)
	EditWeight(ctx context.Context, member string, id int64, p household.WeightPatch) (health.WeightReading, error)
	EditMeal(ctx context.Context, member string, id int64, p household.MealPatch) (health.Meal, error)
	EditWorkout(ctx context.Context, member string, id int64, p household.WorkoutPatch) (health.Workout, error)
	EditBodyScan(ctx context.Context, member string, id int64, p household.ScanPatch) (health.BodyScan, error)
	Delete(ctx context.Context, member string, kind household.EntryKind, id int64) (household.Trashed, error)
	Restore(ctx context.Context, member string, trashID int64) (household.Trashed, error)
}

// Alerts is the household view's admin badge (something an admin should
// look at, e.g. a failed backup; "" = nothing to report).
type Alerts interface {
	Alert(ctx context.Context) (string, error)
}

// Messages are the coach's messages to members (*messages.Service).
type Messages interface {
	List(ctx context.Context, f messages.Filter) ([]messages.Message, error)
	Dismiss(ctx context.Context, member string, id int64) error
}

// Agents is the agent orchestrator as the chat sheet talks to it
// (*agent.Orchestrator).
type Agents interface {
	Agent(id string) (agent.AgentInfo, error)
	// Resolve finds a registered agent or a defined one (the life-plan coach).
	Resolve(ctx context.Context, id string) (agent.AgentInfo, error)
	Start(ctx context.Context, req agent.Request) (agent.Run, error)
	Threads() *agent.ThreadStore
	DeleteThread(ctx context.Context, id int64) error
	ChatStream(runID int64) (*agent.ChatStream, bool)
	ActiveChats(member string) []*agent.ChatStream
	ToolLabel(agentID, tool string) string
}

// Workflows is the workflow runtime as the coach column uses it: the
// questions suspended runs ask a member, and their answers
// (*workflow.Runtime).
type Workflows interface {
	Waiting(ctx context.Context, member string) ([]workflow.Waiting, error)
	Get(ctx context.Context, id int64) (workflow.Run, error)
	Resume(ctx context.Context, id int64, path string, data json.RawMessage) (workflow.Run, error)
}
