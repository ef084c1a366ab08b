package workflow

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"hearth/internal/agent"
	"hearth/internal/live"
)

// launchLocked walks run id in the background and returns the walk (nil
// when it is walked already or the runtime is closed); callers hold rt.mu.
func (rt *Runtime) launchLocked(id int64) *active {
	if rt.active[id] != nil || rt.closed {
		return nil
	}
	a := &active{done: make(chan struct{}), attempt: make(chan struct{})}
	rt.active[id] = a
	rt.wg.Add(1)
	go func() {
		defer rt.wg.Done()
		defer func() {
			a.started(agent.Run{}, errNoAttempt)
			rt.mu.Lock()
			delete(rt.active, id)
			rt.mu.Unlock()
			close(a.done)
		}()
		rt.execute(id, a)
	}()
	return a
}

// execute runs one attempt of run id and records how it ended.
func (rt *Runtime) execute(id int64, a *active) {
	ctx := rt.ctx
	r, err := rt.runs.get(ctx, rt.db.Read, id)
	if err != nil {
		rt.log.Error("workflow: load run", "run", id, "err", err)
		return
	}
	rt.mu.Lock()
	w := rt.flows[r.Workflow]
	rt.mu.Unlock()
	if w == nil {
		rt.end(r, failed(fmt.Errorf("workflow %q is not registered", r.Workflow)))
		return
	}
	wk := newWalker(rt, w, r, a)
	if w.Agent == "" {
		rt.end(r, wk.walk(ctx))
		return
	}
	if o, recorded := rt.attempt(ctx, w, r, wk, a); !recorded {
		rt.end(r, o)
	}
}

// attempt walks r as one engine run (StartExecute, then Wait) and returns
// how the walk ended, as the engine's outcome amends it. When the driver
// could tell the outcome before handing the run back to the engine (a
// failed or paused walk, the engine's time run out, the steps done and
// committed), it recorded it then (recorded): a caller that waits for the
// engine run finds the workflow run ended too.
func (rt *Runtime) attempt(ctx context.Context, w *Workflow, r Run, wk *walker, a *active) (o outcome, recorded bool) {
	walked := make(chan struct{}) // closed once the driver returned: o and recorded are set
	drive := func(ectx context.Context, x *agent.Exec) (json.RawMessage, error) {
		defer close(walked)
		// The engine runs this on its own context; Close stops it too.
		ctx, stop := context.WithCancel(ectx)
		defer stop()
		defer context.AfterFunc(rt.ctx, stop)()
		wk.exec = x
		o = wk.walk(ctx)
		if settled, ok := rt.settled(ectx, x, o); ok {
			rt.end(r, settled)
			o, recorded = settled, true
		}
		switch o.kind {
		case outFailed, outStopped:
			return nil, o.err
		}
		return json.Marshal(map[string]any{"workflow_run": r.ID, "status": statusOf(o), "output": o.output})
	}
	run, err := rt.eng.StartExecute(ctx, agent.TaskRequest{Agent: w.Agent, Assignment: w.Assignment, Member: r.Member,
		Trigger: agent.Trigger(r.Trigger), WorkflowRun: r.ID, Origin: r.Origin}, drive)
	a.started(run, err)
	switch {
	case err != nil && (rt.ctx.Err() != nil || errors.Is(err, agent.ErrClosed)):
		return outcome{kind: outStopped, err: rt.ctx.Err()}, false
	case err != nil:
		return failed(fmt.Errorf("the agent engine did not run the attempt: %w", err)), false
	}
	final, err := rt.eng.Wait(ctx, run.ID)
	if err != nil { // shut down: the run continues at the next start
		return outcome{kind: outStopped, err: err}, false
	}
	interrupted := final.Status == agent.StatusInterrupted || rt.ctx.Err() != nil
	select {
	case <-walked:
	default: // the engine ended the run before driving it
		if interrupted {
			return outcome{kind: outStopped, err: context.Canceled}, false
		}
		return failed(fmt.Errorf("the agent engine did not run the attempt: %s", final.Error)), false
	}
	switch {
	case recorded, final.Status == agent.StatusSucceeded || final.Status == agent.StatusFellBack:
		return o, recorded
	case interrupted:
		return outcome{kind: outStopped, err: context.Canceled}, false
	}
	// The steps finished but the engine run's commit (staged writes,
	// memory) failed: the run fails so Restart can finish it.
	return failed(fmt.Errorf("the agent engine's commit failed: %s", final.Error)), false
}

// settled is the outcome of a walk that the engine's run cannot change any
// more (ok), judged as the driver returns: a failed or paused walk, a walk
// the engine's run timeout stopped (ectx is the engine's context), or one
// whose steps are done and committed the run themselves.
func (rt *Runtime) settled(ectx context.Context, x *agent.Exec, o outcome) (outcome, bool) {
	switch {
	case o.kind == outFailed, o.kind == outStopped && errors.Is(o.err, errPaused):
		return o, true
	case o.kind == outStopped && rt.ctx.Err() == nil && errors.Is(ectx.Err(), context.DeadlineExceeded):
		return failed(fmt.Errorf("the attempt ran out of time before the run finished: %w", o.err)), true
	case o.kind == outStopped:
		return o, false // shut down: the run continues at the next start
	}
	return o, x.Committed()
}

func statusOf(o outcome) Status {
	switch o.kind {
	case outDone:
		return StatusSuccess
	case outSuspended:
		return StatusSuspended
	case outFailed:
		return StatusFailed
	}
	return StatusRunning
}

// end records the outcome of an attempt.
func (rt *Runtime) end(r Run, o outcome) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var to Status
	var output json.RawMessage
	msg := ""
	switch o.kind {
	case outDone:
		to, output = StatusSuccess, o.output
	case outSuspended:
		to = StatusSuspended
	case outFailed:
		to, msg = StatusFailed, o.err.Error()
	case outStopped:
		if !errors.Is(o.err, errPaused) {
			return // shut down: still running, continued by Recover
		}
		to = StatusPaused
	}
	moved, err := rt.runs.transition(ctx, rt.db.Write, r.ID, []Status{StatusRunning}, to, output, msg)
	if err != nil {
		rt.log.Error("workflow: record run outcome", "run", r.ID, "err", err)
		return
	}
	if !moved {
		return // superseded meanwhile
	}
	lvl := slog.LevelInfo
	if to == StatusFailed {
		lvl = slog.LevelWarn
	}
	rt.log.Log(ctx, lvl, "workflow: run "+string(to), "run", r.ID, "workflow", r.Workflow, "member", r.Member, "err", msg)
	rt.publish(r, EventRunStatus, "", string(to), msg)
}

func (rt *Runtime) publish(r Run, typ, path, status, errMsg string) {
	if rt.pub == nil {
		return
	}
	ev := Event{Type: typ, RunID: r.ID, Workflow: r.Workflow, Member: r.Member, Path: path, Status: status, Error: errMsg}
	rt.pub.Publish(live.TopicAdmin, live.KindWorkflow, ev)
	rt.asksMu.RLock()
	asks := rt.asks[r.Workflow]
	rt.asksMu.RUnlock()
	if r.Member != "" && asks { // nothing else of a run shows on the member's screens
		rt.pub.Publish(live.MemberTopic(r.Member), live.KindWorkflow, ev)
	}
}
