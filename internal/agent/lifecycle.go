package agent

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"time"

	"hearth/internal/live"
)

// MarkInterrupted turns runs a previous process left queued or running into
// interrupted. Call it once at start, before the first run.
func (o *Orchestrator) MarkInterrupted(ctx context.Context) (int64, error) {
	n, err := o.runs.MarkInterrupted(ctx)
	if err == nil && n > 0 {
		o.log.Warn("agent: runs interrupted by the previous shutdown", "count", n)
	}
	return n, err
}

// Wait blocks until run id has finished (or ctx ends) and returns it.
func (o *Orchestrator) Wait(ctx context.Context, id int64) (Run, error) {
	o.mu.Lock()
	inf := o.byID[id]
	o.mu.Unlock()
	if inf == nil {
		return o.runs.Get(ctx, id)
	}
	select {
	case <-inf.done:
		return inf.run, nil
	case <-ctx.Done():
		return Run{}, ctx.Err()
	}
}

// wait is Wait for a run this process launched, returning also the error
// its driver returned (with its apperr code, for the caller to map).
func (o *Orchestrator) wait(ctx context.Context, inf *inflight) (Run, error, error) {
	select {
	case <-inf.done:
		return inf.run, inf.err, nil
	case <-ctx.Done():
		return Run{}, nil, ctx.Err()
	}
}

// Close stops accepting runs, cancels those in flight (they end as
// interrupted) and waits for them until ctx ends.
func (o *Orchestrator) Close(ctx context.Context) error {
	o.mu.Lock()
	o.closed = true
	o.mu.Unlock()
	o.cancel()
	done := make(chan struct{})
	go func() { o.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("agent: close: %w", ctx.Err())
	}
}

// launchLocked registers r as in flight and executes it in the background.
// Callers hold o.mu.
func (o *Orchestrator) launchLocked(r Run, key runKey, exec func(ctx context.Context, x *Exec) error) *inflight {
	inf := &inflight{id: r.ID, key: key, done: make(chan struct{})}
	if key.assignment != "" {
		o.active[key] = inf
	}
	o.byID[r.ID] = inf
	o.wg.Add(1)
	go func() {
		defer o.wg.Done()
		final, err := o.execute(r, exec)
		o.mu.Lock()
		if o.active[key] == inf {
			delete(o.active, key)
		}
		delete(o.byID, r.ID)
		inf.run, inf.err = final, err
		o.mu.Unlock()
		close(inf.done)
	}()
	return inf
}

// execute runs exec on the orchestrator's context and records the outcome;
// it returns the final run and exec's error. exec applies
// Options.RunTimeout once it may start (see timed).
func (o *Orchestrator) execute(start Run, exec func(ctx context.Context, x *Exec) error) (Run, error) {
	ctx := o.ctx
	x := o.newExec(&start)
	err := exec(ctx, x)
	r := x.snapshot()
	if err != nil && x.stage.Len() > 0 {
		r.Effects = append(r.Effects, x.stage.discard("the run did not succeed")...)
	}
	now := o.now().UTC()
	r.FinishedAt = &now
	r.Phase = ""
	switch {
	case err != nil && o.ctx.Err() != nil:
		r.Status, r.Error = StatusInterrupted, "interrupted: "+err.Error()
	case err != nil:
		r.Status, r.Error = StatusFailed, err.Error()
	case !r.Status.Terminal():
		r.Status = StatusSucceeded
	}
	sctx, scancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer scancel()
	if serr := o.runs.save(sctx, o.db.Write, &r); serr != nil {
		o.log.Error("agent: record run outcome", "run", r.ID, "err", serr)
	}
	lvl := slog.LevelInfo
	if r.Status == StatusFailed || r.Status == StatusInterrupted {
		lvl = slog.LevelWarn
	}
	o.log.Log(ctx, lvl, "agent: run finished", "run", r.ID, "agent", r.Agent, "assignment", r.Assignment,
		"member", r.Member, "status", r.Status, "model", r.Model, "tokens_in", r.TokensIn, "tokens_out", r.TokensOut,
		"fallback", r.FallbackReason, "err", r.Error)
	o.publish(&r)
	return r, err
}

func (o *Orchestrator) publish(r *Run) {
	if o.pub == nil {
		return
	}
	ev := r.event()
	o.pub.Publish(live.TopicAdmin, live.KindRun, ev)
	o.pub.Publish(live.MemberTopic(r.Member), live.KindRun, ev)
}

// timed runs fn under Options.RunTimeout.
func (o *Orchestrator) timed(ctx context.Context, fn func(ctx context.Context) error) error {
	ctx, cancel := context.WithTimeout(ctx, o.opts.RunTimeout)
	defer cancel()
	return fn(ctx)
}

// acquire takes a slot from sem unless ctx ends first.
func acquire(ctx context.Context, sem chan struct{}) error {
	select {
	case sem <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// sortedMembers returns the member ids to fan out to.
func (o *Orchestrator) sortedMembers(ctx context.Context) ([]string, error) {
	if o.members == nil {
		return nil, errors.New("agent: no member source configured")
	}
	ids, err := o.members.MemberIDs(ctx)
	if err != nil {
		return nil, fmt.Errorf("agent: list members: %w", err)
	}
	ids = slices.Clone(ids)
	slices.Sort(ids)
	return slices.Compact(ids), nil
}
