package agent

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"hearth/internal/apperr"
	"hearth/internal/store"
)

// AssignmentRequest asks for one assignment run for one member.
type AssignmentRequest struct {
	Agent      string
	Assignment string
	Member     string
	// Trigger defaults to TriggerAPI.
	Trigger Trigger
}

var errClosed = apperr.New(apperr.Conflict, "the agent orchestrator is shutting down")

// StartAssignment queues a run and returns it at once (status queued). If a
// run of the same (agent, assignment, member) is already queued or running,
// that run is returned instead of starting another. Unknown agent,
// assignment or member is NotFound.
func (o *Orchestrator) StartAssignment(ctx context.Context, req AssignmentRequest) (Run, error) {
	run, _, err := o.startAssignment(ctx, req)
	return run, err
}

// RunAssignment starts (or joins) the run and waits for it to finish. If
// ctx ends first the error is ctx's and the run carries on.
func (o *Orchestrator) RunAssignment(ctx context.Context, req AssignmentRequest) (Run, error) {
	run, _, err := o.startAssignment(ctx, req)
	if err != nil {
		return Run{}, err
	}
	return o.Wait(ctx, run.ID)
}

// StartAssignmentForAll queues the assignment for every member (joining
// runs already active) and returns the runs in member order.
func (o *Orchestrator) StartAssignmentForAll(ctx context.Context, agentID, assignmentID string, trigger Trigger) ([]Run, error) {
	if _, _, err := o.assignment(agentID, assignmentID); err != nil {
		return nil, err
	}
	ids, err := o.sortedMembers(ctx)
	if err != nil {
		return nil, err
	}
	runs := make([]Run, 0, len(ids))
	for _, id := range ids {
		r, err := o.StartAssignment(ctx, AssignmentRequest{Agent: agentID, Assignment: assignmentID, Member: id, Trigger: trigger})
		if err != nil {
			return runs, fmt.Errorf("agent: start %s/%s for %s: %w", agentID, assignmentID, id, err)
		}
		runs = append(runs, r)
	}
	return runs, nil
}

// RunAssignmentForAll runs the assignment for every member and waits for
// all of them. At most Options.MaxConcurrentRuns execute at once.
func (o *Orchestrator) RunAssignmentForAll(ctx context.Context, agentID, assignmentID string, trigger Trigger) ([]Run, error) {
	started, err := o.StartAssignmentForAll(ctx, agentID, assignmentID, trigger)
	if err != nil {
		return started, err
	}
	out := make([]Run, len(started))
	errs := make([]error, len(started))
	var wg sync.WaitGroup
	for i, r := range started {
		wg.Go(func() { out[i], errs[i] = o.Wait(ctx, r.ID) })
	}
	wg.Wait()
	return out, errors.Join(errs...)
}

func (o *Orchestrator) startAssignment(ctx context.Context, req AssignmentRequest) (Run, *inflight, error) {
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
		return Run{}, nil, errClosed
	}
	if inf, ok := o.active[key]; ok {
		r, err := o.runs.Get(ctx, inf.id)
		return r, inf, err
	}
	r := Run{Agent: req.Agent, Assignment: req.Assignment, Member: req.Member, Trigger: req.Trigger}
	if err := o.runs.create(ctx, o.db.Write, &r); err != nil {
		if store.IsUnique(err) { // another process holds the slot
			if cur, gerr := o.runs.activeRun(ctx, req.Agent, req.Assignment, req.Member); gerr == nil {
				return cur, nil, nil
			}
		}
		return Run{}, nil, err
	}
	o.publish(&r)
	inf := o.launchLocked(r, key, func(ctx context.Context, r *Run) error {
		if err := acquire(ctx, o.runSlots); err != nil {
			return err
		}
		defer func() { <-o.runSlots }()
		return o.timed(ctx, func(ctx context.Context) error { return o.runAssignment(ctx, reg, ca, r) })
	})
	return r, inf, nil
}
