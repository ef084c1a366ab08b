package coach

import (
	"context"
	"time"

	"hearth/internal/content"
	"hearth/internal/dashboard"
	"hearth/internal/health"
	"hearth/internal/program"
	"hearth/internal/store"
)

// Records is what the coach reads of the household's health records
// (*store.DB satisfies it).
type Records interface {
	Member(ctx context.Context, id string) (health.Member, error)
	Weights(ctx context.Context, member string, rg store.Range) ([]health.WeightReading, error)
	Meals(ctx context.Context, member string, rg store.Range) ([]health.Meal, error)
	Workouts(ctx context.Context, member string, rg store.Range) ([]health.Workout, error)
	BodyScans(ctx context.Context, member string, rg store.Range) ([]health.BodyScan, error)
	Goals(ctx context.Context, member string, activeOnly bool) ([]health.Goal, error)
}

// Catalog is what the coach needs from the content catalog (*content.Catalog).
type Catalog interface {
	List(ctx context.Context, f content.Filter) ([]content.Item, error)
	Lookup(ctx context.Context, ids []string) (map[string]content.Item, error)
	Programs(ctx context.Context) ([]content.ProgramInfo, error)
	Program(ctx context.Context, id string) (content.Program, error)
}

// Programs is the program-state service (*program.Service): the coach
// reads the state, and its tool builds operations that are checked at
// once and applied in the run's commit transaction.
type Programs interface {
	Current(ctx context.Context, member string) (program.State, error)
	Today(ctx context.Context, member string, now time.Time, loc *time.Location) (program.Today, error)
	DeclareOp(ctx context.Context, member, programID, startDate, pattern string) (program.Op, error)
	AdvanceOp(member string) program.Op
	SubstituteOp(ctx context.Context, member string, day int, original, actual, reason string) (program.Op, error)
	PauseOp(member, note string) program.Op
	ResumeOp(member string) program.Op
	CompleteOp(member string) program.Op
	SetPatternOp(member, pattern string) (program.Op, error)
	Check(ctx context.Context, op program.Op) error
	DoTx(ctx context.Context, tx *store.Tx, op program.Op) error
}

// Dashboards is what the coach reads of the dashboard store and how it
// notifies screens (*dashboard.Store).
type Dashboards interface {
	Latest(ctx context.Context, member, day string) (dashboard.Stored, error)
	RecentAnswers(ctx context.Context, member string, since time.Time) ([]dashboard.Answer, error)
	UnprocessedAnswers(ctx context.Context, member string) ([]dashboard.Answer, error)
	VoiceMemos(ctx context.Context, member string, since time.Time) ([]dashboard.VoiceMemo, error)
	ConsumedSince(ctx context.Context, member string, t time.Time) (map[string]time.Time, error)
	// PutTx stores today's document in the run's transaction and tells the
	// member's screens once it commits.
	PutTx(ctx context.Context, tx *store.Tx, now time.Time, member, day string, runID int64, doc dashboard.Document, sources string) error
	// QuoteTx records the figures the document's briefing quotes, so the
	// screens can bring them up to date.
	QuoteTx(ctx context.Context, tx *store.Tx, member, day string, quotes []dashboard.Quote) error
}

var (
	_ Records    = (*store.DB)(nil)
	_ Catalog    = (*content.Catalog)(nil)
	_ Programs   = (*program.Service)(nil)
	_ Dashboards = (*dashboard.Store)(nil)
)
