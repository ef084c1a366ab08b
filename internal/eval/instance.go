package eval

import (
	"context"
	"sync"
	"time"

	"hearth/internal/agent"
	"hearth/internal/agent/definition"
	"hearth/internal/coach"
	"hearth/internal/content"
	"hearth/internal/dashboard"
	"hearth/internal/program"
	"hearth/internal/store"
)

// Instance is one Hearth built for one scenario, over its own database,
// wired as the server wires itself (internal/app builds it): the
// scenario is seeded through these services and the coach runs through
// Agents, the production daily-dashboard path.
type Instance struct {
	DB          *store.DB
	Catalog     *content.Catalog
	Programs    *program.Service
	Dashboards  *dashboard.Store
	Agents      *agent.Orchestrator
	Definitions *definition.Repo
	// Runtime names what the coach reasons with: RuntimeHeuristic, or the
	// model's name.
	Runtime string
	// Close releases the instance (its database stays in its directory).
	Close func() error
}

// InstanceSpec is what a Factory builds an Instance for.
type InstanceSpec struct {
	// Dir is an empty directory for the instance's data.
	Dir      string
	Location *time.Location
	// Now is the instance's clock; the eval moves it through the scenario.
	Now func() time.Time
	// BudgetTokens is the day's model token budget (0 = unlimited).
	BudgetTokens int64
	// Mutant, when set, breaks one judgement of the heuristic coach
	// (RunMutants).
	Mutant coach.Mutant
}

// Factory builds a fresh Instance (internal/app.EvalFactory).
type Factory func(ctx context.Context, spec InstanceSpec) (*Instance, error)

// Clock is a settable clock shared by an instance's services.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Set moves the clock to t.
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	c.t = t
	c.mu.Unlock()
}
