package agent

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"hearth/internal/apperr"
	"hearth/internal/live"
	"hearth/internal/store"
)

// Members lists the member ids an assignment fans out to.
type Members interface {
	MemberIDs(ctx context.Context) ([]string, error)
}

// Runtimes are the runtimes an orchestrator reasons with.
type Runtimes struct {
	// Model is the language model; nil when none is configured, in which
	// case every run uses Heuristic as its normal runtime.
	Model Runtime
	// Heuristic is the deterministic planner runtime (llm.Heuristic): the
	// default without a model and the fallback when the model fails or the
	// budget is spent. Required.
	Heuristic Runtime
}

// Options tune an orchestrator; zero values take the documented defaults.
type Options struct {
	Prices Prices
	Budget Budget
	// RunBudget is the household default per-run token budget; an
	// agent's or assignment's ModelSettings.Budget overrides it per field.
	RunBudget RunBudget
	// Location sets the day boundary for the budget (default UTC).
	Location *time.Location
	// MaxConcurrentRuns caps assignment and driven runs (Execute)
	// executing at once (default 2); further runs wait as queued. Chat runs
	// are not counted.
	MaxConcurrentRuns int
	// MaxConcurrentModelCalls caps model requests in flight across every
	// run (default 2; HEARTH_MODEL_CONCURRENCY).
	MaxConcurrentModelCalls int
	// ModelSlots, when set, are model-call slots shared with other
	// orchestrators (an eval's scenario instances share one set, or the
	// server's): its capacity is the limit, and MaxConcurrentModelCalls is
	// not used.
	ModelSlots chan struct{}
	// RunTimeout bounds one run from the moment it starts executing (time
	// spent queued for a worker is not counted; default 10 minutes).
	RunTimeout time.Duration
	// HistoryMessages is how many earlier chat messages are sent (default 20).
	HistoryMessages int
	// Now is the clock (default db.Now).
	Now func() time.Time
}

// Orchestrator registers agents and executes their runs.
type Orchestrator struct {
	db      *store.DB
	rt      Runtimes
	members Members
	pub     live.Publisher
	log     *slog.Logger
	opts    Options
	now     func() time.Time

	runs    *RunStore
	memory  *MemoryStore
	threads *ThreadStore

	runSlots  chan struct{}
	modelSlot chan struct{}

	ctx    context.Context // runs execute on this, not on callers' contexts
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu          sync.Mutex
	closed      bool
	defs        Definitions // agents made in admin
	durable     map[[2]string]Durable
	agents      map[string]*registered
	order       []string
	active      map[runKey]*inflight
	byID        map[int64]*inflight
	threadLocks map[int64]*threadLock
	chats       map[int64]*ChatStream
}

type runKey struct{ agent, assignment, member string }

type inflight struct {
	id   int64
	key  runKey
	done chan struct{}
	run  Run   // final state, set before done closes
	err  error // what the run's driver returned
}

// NewOrchestrator builds an orchestrator over db. rt.Heuristic is required;
// pub and logger may be nil.
func NewOrchestrator(db *store.DB, rt Runtimes, members Members, pub live.Publisher, logger *slog.Logger, opts Options) (*Orchestrator, error) {
	if db == nil {
		return nil, errors.New("agent: orchestrator needs a database")
	}
	if rt.Heuristic == nil {
		return nil, errors.New("agent: orchestrator needs a heuristic runtime")
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	if opts.Now == nil {
		opts.Now = db.Now
	}
	if opts.Location == nil {
		opts.Location = time.UTC
	}
	if opts.MaxConcurrentRuns <= 0 {
		opts.MaxConcurrentRuns = 2
	}
	if opts.MaxConcurrentModelCalls <= 0 {
		opts.MaxConcurrentModelCalls = 2
	}
	if opts.ModelSlots == nil {
		opts.ModelSlots = make(chan struct{}, opts.MaxConcurrentModelCalls)
	}
	if opts.RunTimeout <= 0 {
		opts.RunTimeout = 10 * time.Minute
	}
	if opts.HistoryMessages <= 0 {
		opts.HistoryMessages = 20
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Orchestrator{
		db: db, rt: rt, members: members, pub: pub, log: logger, opts: opts, now: opts.Now,
		runs:        NewRunStore(db, opts.Now),
		memory:      NewMemoryStore(db, opts.Now),
		threads:     NewThreadStore(db, opts.Now),
		runSlots:    make(chan struct{}, opts.MaxConcurrentRuns),
		modelSlot:   opts.ModelSlots,
		ctx:         ctx,
		cancel:      cancel,
		agents:      map[string]*registered{},
		active:      map[runKey]*inflight{},
		byID:        map[int64]*inflight{},
		threadLocks: map[int64]*threadLock{},
		chats:       map[int64]*ChatStream{},
		durable:     map[[2]string]Durable{},
	}, nil
}

// Register adds an agent; its id, tool names and assignment ids must be
// unique and its schemas must compile.
func (o *Orchestrator) Register(a Agent) error {
	reg, err := compileAgent(a)
	if err != nil {
		return err
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if _, dup := o.agents[a.ID]; dup {
		return fmt.Errorf("agent: agent %q already registered", a.ID)
	}
	o.agents[a.ID] = reg
	o.order = append(o.order, a.ID)
	return nil
}

// Agents lists the registered agents in registration order.
func (o *Orchestrator) Agents() []AgentInfo {
	o.mu.Lock()
	defer o.mu.Unlock()
	out := make([]AgentInfo, 0, len(o.order))
	for _, id := range o.order {
		out = append(out, o.agents[id].info())
	}
	return out
}

// Agent describes one agent; NotFound if it is not registered.
func (o *Orchestrator) Agent(id string) (AgentInfo, error) {
	reg, err := o.agent(id)
	if err != nil {
		return AgentInfo{}, err
	}
	return reg.info(), nil
}

// Toolbox returns an agent's toolbox (for admin pages and tests).
func (o *Orchestrator) Toolbox(agentID string) (*Toolbox, error) {
	reg, err := o.agent(agentID)
	if err != nil {
		return nil, err
	}
	return reg.tools, nil
}

func (o *Orchestrator) agent(id string) (*registered, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	reg, ok := o.agents[id]
	if !ok {
		return nil, apperr.NotFoundf("unknown agent %q", id)
	}
	return reg, nil
}

func (o *Orchestrator) assignment(agentID, assignmentID string) (*registered, *compiledAssignment, error) {
	reg, err := o.agent(agentID)
	if err != nil {
		return nil, nil, err
	}
	ca, ok := reg.assignments[assignmentID]
	if !ok {
		return nil, nil, apperr.NotFoundf("agent %q has no assignment %q", agentID, assignmentID)
	}
	return reg, ca, nil
}

// Runs returns the run store (Get, List).
func (o *Orchestrator) Runs() *RunStore { return o.runs }

// Memory returns the working-memory store (admin view, history, undo).
func (o *Orchestrator) Memory() *MemoryStore { return o.memory }

// Threads returns the chat thread store.
func (o *Orchestrator) Threads() *ThreadStore { return o.threads }

// ModelSlots are the model-call slots this orchestrator's runs take (to
// share the limit with another orchestrator, see Options.ModelSlots).
func (o *Orchestrator) ModelSlots() chan struct{} { return o.modelSlot }

// ModelSlot takes one place under the global model-call limit
// (HEARTH_MODEL_CONCURRENCY) for model work outside a run, such as a
// connection check; release gives it back.
func (o *Orchestrator) ModelSlot(ctx context.Context) (release func(), err error) {
	if err := acquire(ctx, o.modelSlot); err != nil {
		return nil, err
	}
	return func() { <-o.modelSlot }, nil
}

// HasModel reports whether a language model is configured (without one
// every run uses the heuristic runtime).
func (o *Orchestrator) HasModel() bool { return o.rt.Model != nil }
