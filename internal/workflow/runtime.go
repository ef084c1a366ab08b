package workflow

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"hearth/internal/agent"
	"hearth/internal/apperr"
	"hearth/internal/live"
	"hearth/internal/store"
)

// Engine is the agent engine as bound workflows use it
// (*agent.Orchestrator): each attempt of a run is one engine run, created
// with StartExecute (its id known at once, for StartDurable to return) and
// followed with Wait.
type Engine interface {
	StartExecute(ctx context.Context, req agent.TaskRequest, drive agent.Driver) (agent.Run, error)
	Wait(ctx context.Context, id int64) (agent.Run, error)
}

// Options tune a runtime; zero values take the documented defaults.
type Options struct {
	// Engine runs the attempts of workflows bound to an agent (required
	// to register one).
	Engine Engine
	// Publisher receives the runs' events (nil publishes nothing).
	Publisher live.Publisher
	Logger    *slog.Logger
	// Now is the clock (default db.Now).
	Now func() time.Time
}

// Runtime registers workflows and executes their runs durably: every
// step's result is stored as it completes, and a run left running by a
// crash continues from its last completed step at the next start
// (Recover).
type Runtime struct {
	db   *store.DB
	runs *runStore
	eng  Engine
	pub  live.Publisher
	log  *slog.Logger
	now  func() time.Time

	ctx    context.Context // walks run on this, not on callers' contexts
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu     sync.Mutex
	closed bool
	flows  map[string]*Workflow
	order  []string
	active map[int64]*active

	// asks holds the ids of the workflows that can ask their member
	// (publish reads it with or without mu held).
	asksMu sync.RWMutex
	asks   map[string]bool
}

// active is a run being walked in this process.
type active struct {
	paused atomic.Bool
	done   chan struct{}

	// attempt is closed once the walk's engine run was created (eng) or
	// could not be (engErr): StartDurable hands that run to the caller.
	attempt chan struct{}
	once    sync.Once
	eng     agent.Run
	engErr  error
}

// errNoAttempt is what a walk that made no engine run reports to
// StartDurable (it ended before, or its workflow is not bound).
var errNoAttempt = errors.New("workflow: the run made no engine run")

// started records the attempt's engine run (the first call wins).
func (a *active) started(r agent.Run, err error) {
	a.once.Do(func() {
		a.eng, a.engErr = r, err
		close(a.attempt)
	})
}

// NewRuntime returns a runtime over db.
func NewRuntime(db *store.DB, opts Options) *Runtime {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Now == nil {
		opts.Now = db.Now
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Runtime{db: db, runs: &runStore{db: db, now: opts.Now}, eng: opts.Engine, pub: opts.Publisher,
		log: opts.Logger, now: opts.Now, ctx: ctx, cancel: cancel,
		flows: map[string]*Workflow{}, active: map[int64]*active{}, asks: map[string]bool{}}
}

// Register adds a committed workflow; ids are unique.
func (rt *Runtime) Register(w *Workflow) error {
	if w == nil || w.root == nil {
		return errors.New("workflow: register: not a committed workflow")
	}
	if w.Agent != "" && rt.eng == nil {
		return fmt.Errorf("workflow: %s runs on the agent engine, and the runtime has none", w.ID)
	}
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if _, dup := rt.flows[w.ID]; dup {
		return fmt.Errorf("workflow: %q is already registered", w.ID)
	}
	rt.flows[w.ID] = w
	rt.order = append(rt.order, w.ID)
	rt.asksMu.Lock()
	rt.asks[w.ID] = w.asks
	rt.asksMu.Unlock()
	return nil
}

// Workflow returns a registered workflow; NotFound if none.
func (rt *Runtime) Workflow(id string) (*Workflow, error) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	w, ok := rt.flows[id]
	if !ok {
		return nil, apperr.NotFoundf("unknown workflow %q", id)
	}
	return w, nil
}

// Workflows describes the registered workflows in registration order.
func (rt *Runtime) Workflows() []Info {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	out := make([]Info, 0, len(rt.order))
	for _, id := range rt.order {
		out = append(out, rt.flows[id].Info())
	}
	return out
}

// StartRequest asks for a run of Workflow for Member with Input (nil = {}).
type StartRequest struct {
	Workflow string
	Member   string
	Input    json.RawMessage
	// Trigger defaults to TriggerAPI.
	Trigger Trigger
	// Origin names what started the run beyond its trigger (Run.Origin).
	Origin string
}

// Start validates the input, records the run and starts it in the
// background, returning it at once (status running). An unknown workflow
// or member is NotFound, input that does not match the schema Invalid.
func (rt *Runtime) Start(ctx context.Context, req StartRequest) (Run, error) {
	r, _, err := rt.start(ctx, req)
	return r, err
}

// start is Start, also returning the walk it launched; on the Conflict of
// a Single workflow already running for the member, the walk of that run.
func (rt *Runtime) start(ctx context.Context, req StartRequest) (Run, *active, error) {
	w, err := rt.Workflow(req.Workflow)
	if err != nil {
		return Run{}, nil, err
	}
	if req.Member == "" {
		return Run{}, nil, apperr.FieldErrors(map[string]string{"member": "is required"})
	}
	if req.Trigger == "" {
		req.Trigger = TriggerAPI
	}
	if !req.Trigger.Valid() {
		return Run{}, nil, apperr.Invalidf("unknown trigger %q", req.Trigger)
	}
	in := req.Input
	if len(in) == 0 {
		in = json.RawMessage(`{}`)
	}
	var compact json.RawMessage
	if compact, err = marshal(in); err != nil {
		return Run{}, nil, apperr.Invalidf("the input is not JSON")
	}
	if errs := validate(w.input, compact); len(errs) > 0 {
		return Run{}, nil, apperr.Invalidf("the input does not match the workflow's schema: %s", agent.SummarizeErrors(errs))
	}
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.closed {
		return Run{}, nil, apperr.New(apperr.Conflict, "the workflow runtime is shutting down")
	}
	r := Run{Workflow: w.ID, Version: w.version, Member: req.Member, Trigger: req.Trigger, Origin: req.Origin, Input: compact}
	var superseded []int64
	var busy *active
	err = rt.db.Tx(ctx, func(tx *store.Tx) error {
		busy = nil
		if w.Single {
			ids, err := rt.runs.unfinished(ctx, tx, w.ID, req.Member)
			if err != nil {
				return err
			}
			for _, id := range ids {
				if busy = rt.active[id]; busy != nil {
					return apperr.New(apperr.Conflict, "a %s run for %s is already running (run %d)", w.ID, req.Member, id)
				}
			}
			for _, id := range ids {
				if _, err := rt.runs.transition(ctx, tx, id, []Status{StatusSuspended, StatusPaused, StatusRunning},
					StatusFailed, nil, "superseded by a newer run"); err != nil {
					return err
				}
				superseded = append(superseded, id)
			}
		}
		return rt.runs.create(ctx, tx, &r)
	})
	if err != nil {
		return Run{}, busy, err
	}
	for _, id := range superseded {
		rt.publish(Run{ID: id, Workflow: w.ID, Member: req.Member}, EventRunStatus, "", string(StatusFailed), "superseded by a newer run")
	}
	r.Steps, r.AgentRuns = []StepRecord{}, []int64{}
	rt.publish(r, EventRunStarted, "", string(StatusRunning), "")
	return r, rt.launchLocked(r.ID), nil
}

// Get returns a run with its steps; NotFound if there is none.
func (rt *Runtime) Get(ctx context.Context, id int64) (Run, error) {
	return rt.runs.get(ctx, rt.db.Read, id)
}

// List returns runs (without their steps) matching f, newest first.
func (rt *Runtime) List(ctx context.Context, f Filter) ([]Run, error) { return rt.runs.list(ctx, f) }

// Wait blocks until run id is no longer being walked in this process (it
// finished, suspended, paused or failed) or ctx ends, and returns it.
func (rt *Runtime) Wait(ctx context.Context, id int64) (Run, error) {
	rt.mu.Lock()
	a := rt.active[id]
	rt.mu.Unlock()
	if a != nil {
		select {
		case <-a.done:
		case <-ctx.Done():
			return Run{}, ctx.Err()
		}
	}
	return rt.Get(ctx, id)
}

// Resume answers the suspended step at path of run id with data, checked
// against the step's Resume schema, and continues the run in the
// background: that step runs again with the answer, then its successors.
// Conflict when the run is not suspended or the step is not waiting (a
// second answer to the same question), NotFound for an unknown run or
// step, Invalid when data does not match.
func (rt *Runtime) Resume(ctx context.Context, id int64, path string, data json.RawMessage) (Run, error) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.closed {
		return Run{}, apperr.New(apperr.Conflict, "the workflow runtime is shutting down")
	}
	err := rt.db.Tx(ctx, func(tx *store.Tx) error {
		r, err := rt.runs.get(ctx, tx, id)
		if err != nil {
			return err
		}
		if r.Status != StatusSuspended {
			return apperr.New(apperr.Conflict, "workflow run %d is not suspended (it is %s)", id, r.Status)
		}
		rec, ok := r.Step(path)
		if !ok {
			return apperr.NotFoundf("workflow run %d has no step %q", id, path)
		}
		if rec.Status != StepSuspended || len(rec.Resumed) > 0 {
			return apperr.New(apperr.Conflict, "step %q of workflow run %d is not waiting for an answer", path, id)
		}
		w, ok := rt.flows[r.Workflow]
		if !ok {
			return apperr.New(apperr.Conflict, "workflow %q is not registered", r.Workflow)
		}
		s, ok := w.steps[rec.Step]
		if !ok {
			return apperr.New(apperr.Conflict, "workflow %s has no step %q any more", w.ID, rec.Step)
		}
		b, err := marshal(data)
		if err != nil || len(data) == 0 {
			return apperr.Invalidf("the answer is not JSON")
		}
		if errs := validate(s.resume, b); len(errs) > 0 {
			return apperr.Invalidf("the answer does not match step %s's schema: %s", path, agent.SummarizeErrors(errs))
		}
		rec.Resumed = b
		if err := rt.runs.saveStep(ctx, tx, id, &rec); err != nil {
			return err
		}
		moved, err := rt.runs.transition(ctx, tx, id, []Status{StatusSuspended}, StatusRunning, nil, "")
		if err != nil {
			return err
		}
		if !moved {
			return apperr.New(apperr.Conflict, "workflow run %d is not suspended", id)
		}
		return nil
	})
	if err != nil {
		return Run{}, err
	}
	r, err := rt.runs.get(ctx, rt.db.Write, id)
	if err != nil {
		return Run{}, err
	}
	rt.publish(r, EventRunStatus, path, string(StatusRunning), "")
	rt.launchLocked(id)
	return r, nil
}

// Restart continues a failed or paused run: completed steps keep their
// results and the failed (or next) step runs again. Conflict for a run in
// any other status.
func (rt *Runtime) Restart(ctx context.Context, id int64) (Run, error) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.closed {
		return Run{}, apperr.New(apperr.Conflict, "the workflow runtime is shutting down")
	}
	r, err := rt.runs.get(ctx, rt.db.Write, id)
	if err != nil {
		return Run{}, err
	}
	if _, ok := rt.flows[r.Workflow]; !ok {
		return Run{}, apperr.New(apperr.Conflict, "workflow %q is not registered", r.Workflow)
	}
	moved, err := rt.runs.transition(ctx, rt.db.Write, id, []Status{StatusFailed, StatusPaused}, StatusRunning, nil, "")
	if err != nil {
		return Run{}, err
	}
	if !moved {
		return Run{}, apperr.New(apperr.Conflict, "workflow run %d is %s; only a failed or paused run restarts", id, r.Status)
	}
	r.Status, r.Error, r.FinishedAt = StatusRunning, "", nil
	rt.publish(r, EventRunStatus, "", string(StatusRunning), "")
	rt.launchLocked(id)
	return r, nil
}

// Pause stops a running run before its next step (the step in progress
// finishes) or takes a suspended run off the waiting list; Restart
// continues it. Conflict for a run in any other status.
func (rt *Runtime) Pause(ctx context.Context, id int64) (Run, error) {
	rt.mu.Lock()
	a := rt.active[id]
	rt.mu.Unlock()
	r, err := rt.runs.get(ctx, rt.db.Read, id)
	if err != nil {
		return Run{}, err
	}
	switch {
	case r.Status == StatusRunning && a != nil:
		a.paused.Store(true)
		return rt.Wait(ctx, id)
	case r.Status == StatusSuspended:
		moved, err := rt.runs.transition(ctx, rt.db.Write, id, []Status{StatusSuspended}, StatusPaused, nil, "")
		if err != nil {
			return Run{}, err
		}
		if moved {
			r.Status = StatusPaused
			rt.publish(r, EventRunStatus, "", string(StatusPaused), "")
			return rt.Get(ctx, id)
		}
	}
	return Run{}, apperr.New(apperr.Conflict, "workflow run %d is %s; only a running or suspended run pauses", id, r.Status)
}

// Recover continues every run a previous process left running (killed or
// stopped mid-run): each goes on from its last completed step. Call it
// once at start, after registering the workflows and after the agent
// engine marked the interrupted engine runs.
func (rt *Runtime) Recover(ctx context.Context) (int, error) {
	ids, err := rt.runs.ids(ctx, StatusRunning)
	if err != nil {
		return 0, err
	}
	rt.mu.Lock()
	defer rt.mu.Unlock()
	n := 0
	for _, id := range ids {
		if rt.active[id] == nil {
			rt.launchLocked(id)
			n++
		}
	}
	if n > 0 {
		rt.log.Warn("workflow: continuing runs the last shutdown left running", "count", n)
	}
	return n, nil
}

// Close stops starting work, cancels the walks in flight (their runs stay
// running and continue at the next start) and waits for them until ctx
// ends.
func (rt *Runtime) Close(ctx context.Context) error {
	rt.mu.Lock()
	rt.closed = true
	rt.mu.Unlock()
	rt.cancel()
	done := make(chan struct{})
	go func() { rt.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("workflow: close: %w", ctx.Err())
	}
}
