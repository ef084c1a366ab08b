// Package schedule runs scheduled tasks: SQLite (scheduled_tasks) is the
// source of truth and gocron v2 fires them in-process in the household time
// zone. It owns the semantics gocron does not give: persistence, catch-up
// after downtime, "never twice" (an in-process guard plus the task_fires
// ledger keyed by task and slot), overlap and catch-up policies, the
// heartbeat that works through the coach's to-do list, and the agent tools
// that let the coach schedule follow-ups within guardrails.
//
// Each registered task is one gocron one-time job armed at the task's
// next_run_at; when it fires, the next slot is computed from the task's own
// schedule, stored, and armed before the run starts, so the stored
// next_run_at, the admin preview (NextFires) and what gocron fires always
// agree, and a slow run cannot delay the next fire (the overlap policy
// decides what that fire does).
//
// Every task state change is one write transaction; the service's mutex
// guards only in-memory state (runs in progress, gocron jobs) and is never
// held while waiting for the database, so an agent run's commit, which
// holds the writer connection, can apply the coach's staged tasks here.
// gocron is made to match a task after its transaction commits.
package schedule

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-co-op/gocron/v2"
	"github.com/google/uuid"
	"github.com/jonboulle/clockwork"

	"hearth/internal/live"
	"hearth/internal/store"
)

// Runner starts agent runs; it is the edge of this package (the app adapts
// the agent orchestrator to it). Both Run methods block until the run ends
// and return its id (0 when no run row was made) and its failure. memberID ""
// means all members for an assignment. trigger is one of the Trigger*
// constants. origin names the task or to-do behind the run ("task:12",
// "todo:7"); the runner records it on the run (agent.Run.Origin), where the
// scheduling tools read it (a run started by a coach-created task or to-do
// cannot schedule another without approval). Wrap ErrOverBudget in the error when the run was refused for
// budget so the ledger says skipped_budget instead of failed.
type Runner interface {
	RunAssignment(ctx context.Context, agentID, assignmentID, memberID, trigger, origin string) (runID int64, err error)
	RunFreeform(ctx context.Context, agentID, memberID, prompt, trigger, origin string) (runID int64, err error)
	// Idle reports whether the agent has no run in progress (for the heartbeat).
	Idle(agentID string) bool
}

// ErrOverBudget marks a Runner error for a run refused by the model budget.
var ErrOverBudget = errors.New("over budget")

// Publish topic and kinds.
const (
	topicAdmin = live.TopicAdmin
	kindTask   = live.KindTask
	kindTodo   = live.KindTodo
)

// Options tune the service; zero values take the documented defaults.
type Options struct {
	Location *time.Location  // household zone; default time.Local
	Clock    clockwork.Clock // default the real clock; tests pass a fake
	// CatchUpWindow: a task whose latest missed slot is at most this old at
	// Start runs once (policy "once"). Zero = 12h; negative = never catch up.
	CatchUpWindow time.Duration
	MaxAgentTasks int           // live coach-created tasks per member; default 20
	AgentTaskTTL  time.Duration // coach-created tasks expire after this unless kept; default 30 days
	// DailyAgentTasks caps the tasks of every kind the coach may create for
	// one member per calendar day (household zone); default 10.
	DailyAgentTasks int
	// MinOnceLead is how far ahead a coach-created once task must be;
	// default 15 minutes.
	MinOnceLead      time.Duration
	HeartbeatMinutes int           // interval of the default heartbeat; default 5
	MaxTodoAttempts  int           // heartbeat stops retrying a failing to-do after this; default 3
	LedgerRetention  time.Duration // finished ledger rows older than this are pruned; default 90 days
	SweepEvery       time.Duration // expiry and pruning sweep; default 1h
	StopTimeout      time.Duration // how long Stop lets gocron wait for runs; default 10s
	// The default task made by EnsureDefault.
	DefaultAgent      string // default "health-coach"
	DefaultAssignment string // default "daily-dashboard"
	DefaultCron       string // default "0 4 * * *"
	// RunNote, when set, says what a run's record adds to its outcome "ran"
	// ("fell back to the built-in coach: no model configured"; "" for
	// nothing); the task and its ledger row show it.
	RunNote func(ctx context.Context, runID int64) string
	// CheckTarget, when set, rejects unknown agents or assignments on Create
	// and Update (assignmentID "" = a freeform action or heartbeat).
	CheckTarget func(agentID, assignmentID string) error
}

func (o Options) withDefaults() Options {
	if o.Location == nil {
		o.Location = time.Local
	}
	if o.Clock == nil {
		o.Clock = clockwork.NewRealClock()
	}
	if o.CatchUpWindow == 0 {
		o.CatchUpWindow = 12 * time.Hour
	}
	if o.MaxAgentTasks <= 0 {
		o.MaxAgentTasks = 20
	}
	if o.DailyAgentTasks <= 0 {
		o.DailyAgentTasks = 10
	}
	if o.MinOnceLead <= 0 {
		o.MinOnceLead = 15 * time.Minute
	}
	if o.AgentTaskTTL <= 0 {
		o.AgentTaskTTL = 30 * 24 * time.Hour
	}
	if o.HeartbeatMinutes <= 0 {
		o.HeartbeatMinutes = 5
	}
	if o.MaxTodoAttempts <= 0 {
		o.MaxTodoAttempts = 3
	}
	if o.LedgerRetention <= 0 {
		o.LedgerRetention = 90 * 24 * time.Hour
	}
	if o.SweepEvery <= 0 {
		o.SweepEvery = time.Hour
	}
	if o.StopTimeout <= 0 {
		o.StopTimeout = 10 * time.Second
	}
	if o.DefaultAgent == "" {
		o.DefaultAgent = "health-coach"
	}
	if o.DefaultAssignment == "" {
		o.DefaultAssignment = "daily-dashboard"
	}
	if o.DefaultCron == "" {
		o.DefaultCron = "0 4 * * *"
	}
	return o
}

// Service owns scheduled tasks, their ledger, the to-do list and the engine.
type Service struct {
	db     *store.DB
	runner Runner
	pub    live.Publisher
	log    *slog.Logger
	opt    Options
	loc    *time.Location
	clock  clockwork.Clock
	todos  *Todos

	// Task state transitions are serialised by the database: every one is
	// a write transaction, and there is one writer connection. mu guards
	// only the in-memory state below and the calls into gocron; it is held
	// briefly, never while waiting for the database or a Runner. A
	// transaction may take it (lock order: the writer connection, then mu),
	// so code holding mu must never start a transaction: an agent run's
	// commit, which holds the writer, applies the coach's staged tasks here.
	mu      sync.Mutex
	sched   gocron.Scheduler
	jobs    map[int64]uuid.UUID // task id → its gocron job
	running map[int64]*runState // tasks with a run in progress in this process
	synced  map[int64]int64     // task id → sequence of the last state gocron was made to match
	started bool
	stopped bool
	runCtx  context.Context
	cancel  context.CancelFunc
	wg      sync.WaitGroup

	// seq numbers task writes in commit order (they are serialised by the
	// writer connection), so a late after-commit sync cannot undo a newer one.
	seq atomic.Int64
}

// runState is the in-process guard of one task's run.
type runState struct {
	queued *queuedFire // at most one fire waiting for the current run (overlap policy queue)
}

type queuedFire struct {
	fireID int64
	slot   time.Time
}

// New builds the service; nothing fires until Start. pub and logger may be nil.
func New(db *store.DB, runner Runner, pub live.Publisher, logger *slog.Logger, opt Options) (*Service, error) {
	if db == nil || runner == nil {
		return nil, errors.New("schedule: New needs a database and a runner")
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	if pub == nil {
		pub = nopPublisher{}
	}
	opt = opt.withDefaults()
	if _, err := ParseSchedule(KindRecurring, opt.DefaultCron, opt.Location); err != nil {
		return nil, fmt.Errorf("schedule: default cron: %w", err)
	}
	s := &Service{
		db: db, runner: runner, pub: pub, log: logger, opt: opt, loc: opt.Location, clock: opt.Clock,
		jobs: map[int64]uuid.UUID{}, running: map[int64]*runState{}, synced: map[int64]int64{},
	}
	s.todos = &Todos{db: db, loc: s.loc, now: s.now, pub: pub}
	return s, nil
}

type nopPublisher struct{}

func (nopPublisher) Publish(string, live.Kind, any) {}

// Todos returns the to-do list service.
func (s *Service) Todos() *Todos { return s.todos }

// Location returns the household zone the service schedules in.
func (s *Service) Location() *time.Location { return s.loc }

func (s *Service) now() time.Time { return s.clock.Now().In(s.loc) }

func (s *Service) publish(id int64, change string) {
	s.pub.Publish(topicAdmin, kindTask, TaskEvent{TaskID: id, Change: change})
}

// syncAfter makes gocron match t once tx commits, and publishes change
// (unless ""). A write committed later wins even if its hook runs first.
func (s *Service) syncAfter(tx *store.Tx, t Task, change string) {
	seq := s.seq.Add(1) // inside the transaction: commit order
	tx.AfterCommit(func() {
		s.mu.Lock()
		if seq > s.synced[t.ID] {
			s.synced[t.ID] = seq
			s.syncLocked(t)
		}
		s.mu.Unlock()
		if change != "" {
			s.publish(t.ID, change)
		}
	})
}

// locked runs fn under mu (inside a transaction: writer, then mu).
func (s *Service) locked(fn func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fn()
}

// Start recovers from a crash (running fires become interrupted), expires
// old coach tasks, registers every active task with gocron, runs catch-up
// for slots missed while down, and starts the engine. Catch-up runs start in
// the background; Start does not wait for them. A Service starts once.
func (s *Service) Start(ctx context.Context) error {
	s.mu.Lock()
	if s.started {
		s.mu.Unlock()
		return errors.New("schedule: already started")
	}
	sched, err := gocron.NewScheduler(gocron.WithLocation(s.loc), gocron.WithClock(s.clock),
		gocron.WithLogger(s.log.With("component", "gocron")), gocron.WithStopTimeout(s.opt.StopTimeout))
	if err != nil {
		s.mu.Unlock()
		return fmt.Errorf("schedule: new scheduler: %w", err)
	}
	s.sched, s.started = sched, true
	s.runCtx, s.cancel = context.WithCancel(context.WithoutCancel(ctx))
	s.mu.Unlock()
	fail := func(err error) error {
		s.mu.Lock()
		s.stopped = true
		s.sched = nil
		s.mu.Unlock()
		s.cancel()
		_ = sched.Shutdown()
		return err
	}
	if err := s.recover(ctx); err != nil {
		return fail(err)
	}
	if err := s.sweep(ctx); err != nil {
		return fail(err)
	}
	tasks, err := listTasks(ctx, s.db.Read, TaskFilter{}, s.loc)
	if err != nil {
		return fail(err)
	}
	for _, t := range tasks {
		if !t.Status.schedulable() {
			continue
		}
		if err := s.load(ctx, t); err != nil {
			return fail(err)
		}
	}
	if _, err := sched.NewJob(gocron.DurationJob(s.opt.SweepEvery), gocron.NewTask(s.sweepJob),
		gocron.WithName("schedule-sweep"), gocron.WithTags("system")); err != nil {
		return fail(fmt.Errorf("schedule: sweep job: %w", err))
	}
	sched.Start()
	s.mu.Lock()
	n := len(s.jobs)
	s.mu.Unlock()
	s.log.Info("schedule: started", "tasks", n, "zone", s.loc.String())
	return nil
}

// Stop stops firing, cancels runs in progress (they are recorded as
// interrupted) and waits for them until ctx ends.
func (s *Service) Stop(ctx context.Context) error {
	s.mu.Lock()
	if !s.started || s.stopped {
		s.mu.Unlock()
		return nil
	}
	s.stopped = true
	sched := s.sched
	s.sched = nil
	s.jobs = map[int64]uuid.UUID{}
	s.mu.Unlock()

	s.cancel()
	err := sched.ShutdownWithContext(ctx)
	done := make(chan struct{})
	go func() { s.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
		return fmt.Errorf("schedule: stop: %w", ctx.Err())
	}
	if err != nil {
		return fmt.Errorf("schedule: stop: %w", err)
	}
	return nil
}

// Scheduled reports the time gocron will next fire the task, and whether
// the task is registered at all (paused, completed, pending tasks are not).
func (s *Service) Scheduled(taskID int64) (time.Time, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	jid, ok := s.jobs[taskID]
	if !ok || s.sched == nil {
		return time.Time{}, false
	}
	for _, j := range s.sched.Jobs() {
		if j.ID() == jid {
			next, err := j.NextRun()
			if err != nil {
				return time.Time{}, false
			}
			return next.In(s.loc), true
		}
	}
	return time.Time{}, false
}

// spawnLocked runs fn in a goroutine Stop waits for; callers hold mu and
// have checked the service is running.
func (s *Service) spawnLocked(fn func()) {
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		fn()
	}()
}

// runningLocked reports whether the engine accepts work.
func (s *Service) runningLocked() bool { return s.started && !s.stopped }
