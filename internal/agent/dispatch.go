package agent

import (
	"context"
	"encoding/json"

	"hearth/internal/apperr"
	"hearth/internal/store"
)

// ErrClosed refuses a run once the orchestrator is closing.
var ErrClosed = apperr.New(apperr.Conflict, "the agent orchestrator is shutting down")

// startAssignment queues an assignment run and returns it at once (status
// queued). If a run of the same (agent, assignment, member) is already
// queued or running, that run is returned instead of starting another.
func (o *Orchestrator) startAssignment(ctx context.Context, req Request) (Run, *inflight, error) {
	reg, ca, err := o.assignment(req.Agent, req.Assignment)
	if err != nil {
		return Run{}, nil, err
	}
	if req.Member == "" {
		return Run{}, nil, apperr.Invalidf("a member is required")
	}
	if req.Trigger == "" {
		req.Trigger = TriggerAPI
	}
	if !req.Trigger.Valid() {
		return Run{}, nil, apperr.Invalidf("unknown trigger %q", req.Trigger)
	}
	key := runKey{req.Agent, req.Assignment, req.Member}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return Run{}, nil, ErrClosed
	}
	if inf, ok := o.active[key]; ok {
		r, err := o.runs.Get(ctx, inf.id)
		return r, inf, err
	}
	r := Run{Agent: req.Agent, Assignment: req.Assignment, Member: req.Member, Trigger: req.Trigger, Origin: req.Origin}
	if err := o.runs.create(ctx, o.db.Write, &r); err != nil {
		if store.IsUnique(err) { // another process holds the slot
			if cur, gerr := o.runs.activeRun(ctx, req.Agent, req.Assignment, req.Member); gerr == nil {
				return cur, nil, nil
			}
		}
		return Run{}, nil, err
	}
	o.publish(&r)
	inf := o.launchLocked(r, key, func(ctx context.Context, x *Exec) error {
		x.builtIn = req.BuiltIn
		if err := acquire(ctx, o.runSlots); err != nil {
			return err
		}
		defer func() { <-o.runSlots }()
		return o.timed(ctx, func(ctx context.Context) error { return o.runAssignment(ctx, reg, ca, x) })
	})
	return r, inf, nil
}

// TaskRequest asks for a run whose steps are driven by the caller's code
// (a declarative definition, a workflow step) rather than a registered
// assignment; Agent need not be registered.
type TaskRequest struct {
	Agent string
	// Assignment names what the run does ("invoke" for a definition).
	Assignment string
	Member     string
	// Trigger defaults to TriggerAPI.
	Trigger Trigger
	// WorkflowRun links the run to the workflow run it is an attempt of
	// (0 = none).
	WorkflowRun int64
	// Origin names what started the run beyond its trigger (see Run.Origin).
	Origin string
}

// Driver runs a task's steps on x and returns the run's output; the engine
// then commits it with the writes the model's tools staged.
type Driver func(ctx context.Context, x *Exec) (json.RawMessage, error)

// Execute records a run for req, runs drive on the engine (a run slot, the
// run timeout, the orchestrator's context) and waits for it. On success
// the output, every staged write and the loaded memories commit together
// (unless drive committed itself with Exec.Commit); on failure nothing the
// model staged is applied. A non-empty Assignment takes the (agent,
// assignment, member) slot like an assignment run: while another run holds
// it, Execute is a Conflict. It returns the finished
// run and drive's error (apperr codes intact). If ctx ends first, the
// error is ctx's and the run carries on.
func (o *Orchestrator) Execute(ctx context.Context, req TaskRequest, drive Driver) (Run, error) {
	r, inf, err := o.startExecute(ctx, req, drive)
	if err != nil {
		return Run{}, err
	}
	run, runErr, err := o.wait(ctx, inf)
	if err != nil {
		return Run{ID: r.ID}, err
	}
	return run, runErr
}

// StartExecute is Execute without waiting: it returns the queued run at
// once (Wait follows it); drive's error ends up in the run's error.
func (o *Orchestrator) StartExecute(ctx context.Context, req TaskRequest, drive Driver) (Run, error) {
	r, _, err := o.startExecute(ctx, req, drive)
	return r, err
}

func (o *Orchestrator) startExecute(ctx context.Context, req TaskRequest, drive Driver) (Run, *inflight, error) {
	if !agentID.MatchString(req.Agent) {
		return Run{}, nil, apperr.Invalidf("agent id %q must match %s", req.Agent, agentID)
	}
	if req.Member == "" {
		return Run{}, nil, apperr.Invalidf("a member is required")
	}
	if req.Trigger == "" {
		req.Trigger = TriggerAPI
	}
	if !req.Trigger.Valid() {
		return Run{}, nil, apperr.Invalidf("unknown trigger %q", req.Trigger)
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return Run{}, nil, ErrClosed
	}
	r := Run{Agent: req.Agent, Assignment: req.Assignment, Member: req.Member, Trigger: req.Trigger, Origin: req.Origin}
	if req.WorkflowRun != 0 {
		r.WorkflowRunID = &req.WorkflowRun
	}
	// Not in the (agent, assignment, member) slot: several invokes may run at once.
	if err := o.runs.create(ctx, o.db.Write, &r); err != nil {
		if store.IsUnique(err) {
			return Run{}, nil, apperr.New(apperr.Conflict, "a %s/%s run for %s is already in progress", req.Agent, req.Assignment, req.Member)
		}
		return Run{}, nil, err
	}
	o.publish(&r)
	inf := o.launchLocked(r, runKey{}, func(ctx context.Context, x *Exec) error {
		if err := acquire(ctx, o.runSlots); err != nil {
			return err
		}
		defer func() { <-o.runSlots }()
		return o.timed(ctx, func(ctx context.Context) error {
			if err := o.startRunning(ctx, x); err != nil {
				return err
			}
			out, err := drive(ctx, x)
			if err != nil {
				return err
			}
			x.mu.Lock()
			done := x.committed
			x.mu.Unlock()
			if done { // the driver committed (Exec.Commit)
				return nil
			}
			x.update(func(r *Run) { r.Output = out })
			return x.commit(ctx, true, nil, nil)
		})
	})
	return r, inf, nil
}
