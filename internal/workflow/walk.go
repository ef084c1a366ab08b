package workflow

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"hearth/internal/agent"
	"hearth/internal/store"
)

// errPaused stops a walk at a step boundary when the run was paused.
var errPaused = errors.New("workflow: the run was paused")

type outcomeKind int

const (
	outDone outcomeKind = iota
	outSuspended
	outFailed
	outStopped // cancelled (shutdown) or paused: the run continues later
)

// outcome is how a node (or the whole run) ended.
type outcome struct {
	kind   outcomeKind
	output json.RawMessage
	err    error
}

func done(out json.RawMessage) outcome { return outcome{kind: outDone, output: out} }
func failed(err error) outcome         { return outcome{kind: outFailed, err: err} }

// walker executes one attempt of a run: it walks the graph from the start,
// taking the output of every step already completed from its stored
// record (a completed step never runs again) and running the rest. The
// code between steps (conditions) sees only stored outputs and state, so
// the walk after a restart takes the same path.
type walker struct {
	rt   *Runtime
	wf   *Workflow
	run  Run
	exec *agent.Exec
	act  *active

	mu    sync.Mutex
	recs  map[string]*StepRecord
	seq   int
	state map[string]json.RawMessage
}

func newWalker(rt *Runtime, wf *Workflow, run Run, act *active) *walker {
	w := &walker{rt: rt, wf: wf, run: run, act: act, recs: map[string]*StepRecord{}, state: map[string]json.RawMessage{}}
	for i := range run.Steps {
		st := run.Steps[i]
		w.recs[st.Path] = &st
		w.seq = max(w.seq, st.seq)
	}
	return w
}

// walk runs the whole graph with the run's input.
func (w *walker) walk(ctx context.Context) outcome {
	if errs := validate(w.wf.input, w.run.Input); len(errs) > 0 {
		return failed(fmt.Errorf("the input does not match the workflow's schema: %s", agent.SummarizeErrors(errs)))
	}
	for _, st := range w.run.Steps {
		if _, ok := w.wf.steps[st.Step]; !ok {
			return failed(fmt.Errorf("the workflow changed since this run started: it has no step %q any more", st.Step))
		}
	}
	o := w.seqNodes(ctx, w.wf.root, "", w.run.Input)
	if o.kind == outDone {
		if errs := validate(w.wf.output, o.output); len(errs) > 0 {
			return failed(fmt.Errorf("the output does not match the workflow's schema: %s", agent.SummarizeErrors(errs)))
		}
	}
	return o
}

func (w *walker) seqNodes(ctx context.Context, ns []node, prefix string, in json.RawMessage) outcome {
	cur := in
	for _, n := range ns {
		o := w.node(ctx, n, prefix, cur)
		if o.kind != outDone {
			return o
		}
		cur = o.output
	}
	return done(cur)
}

func (w *walker) node(ctx context.Context, n node, prefix string, in json.RawMessage) outcome {
	switch n.kind {
	case kindStep:
		return w.child(ctx, n.children[0], prefix, "", in)
	case kindParallel:
		return w.parallel(ctx, n, prefix, in)
	case kindBranch:
		for i, c := range n.children {
			ok, err := n.conds[i](Check{Input: in, State: w.stateJSON()})
			if err != nil {
				return failed(fmt.Errorf("branch condition for %s: %w", c.nodeID(), err))
			}
			if !ok {
				continue
			}
			o := w.child(ctx, c, prefix, "", in)
			if o.kind != outDone {
				return o
			}
			return done(object(map[string]json.RawMessage{c.nodeID(): o.output}))
		}
		return done(json.RawMessage(`{}`))
	case kindLoop:
		c, cur := n.children[0], in
		for i := 1; i <= n.max; i++ {
			o := w.child(ctx, c, prefix, fmt.Sprintf("@%d", i), cur)
			if o.kind != outDone {
				return o
			}
			holds, err := n.conds[0](Check{Input: o.output, State: w.stateJSON(), Iteration: i})
			if err != nil {
				return failed(fmt.Errorf("loop condition for %s: %w", c.nodeID(), err))
			}
			if holds == n.until {
				return o
			}
			cur = o.output
		}
		return failed(fmt.Errorf("loop %s ran %d times without finishing", c.nodeID(), n.max))
	}
	return failed(fmt.Errorf("unknown node kind %q", n.kind))
}

// parallel runs the children at once; the outcome is the first failure,
// else a suspension (once the others finished), else all outputs by id.
func (w *walker) parallel(ctx context.Context, n node, prefix string, in json.RawMessage) outcome {
	outs := make([]outcome, len(n.children))
	var wg sync.WaitGroup
	for i, c := range n.children {
		wg.Go(func() { outs[i] = w.child(ctx, c, prefix, "", in) })
	}
	wg.Wait()
	res := map[string]json.RawMessage{}
	worst := outcome{kind: outDone}
	for i, o := range outs {
		switch {
		case o.kind == outFailed && worst.kind != outFailed:
			worst = o
		case o.kind == outStopped && worst.kind != outFailed:
			worst = o
		case o.kind == outSuspended && worst.kind == outDone:
			worst = o
		}
		res[n.children[i].nodeID()] = o.output
	}
	if worst.kind != outDone {
		return worst
	}
	return done(object(res))
}

// child runs a step or a nested workflow at prefix+id+suffix.
func (w *walker) child(ctx context.Context, n Node, prefix, suffix string, in json.RawMessage) outcome {
	switch c := n.(type) {
	case *Step:
		return w.step(ctx, c, prefix+c.ID+suffix, in)
	case *Workflow:
		if errs := validate(c.input, in); len(errs) > 0 {
			return failed(fmt.Errorf("nested workflow %s: the input does not match its schema: %s", c.ID, agent.SummarizeErrors(errs)))
		}
		o := w.seqNodes(ctx, c.root, prefix+c.ID+suffix+"/", in)
		if o.kind == outDone {
			if errs := validate(c.output, o.output); len(errs) > 0 {
				return failed(fmt.Errorf("nested workflow %s: the output does not match its schema: %s", c.ID, agent.SummarizeErrors(errs)))
			}
		}
		return o
	}
	return failed(fmt.Errorf("unknown node %T", n))
}

// step returns a completed step's stored output, or runs the step.
func (w *walker) step(ctx context.Context, s *Step, path string, in json.RawMessage) outcome {
	w.mu.Lock()
	prev := w.recs[path]
	w.mu.Unlock()
	var resume json.RawMessage
	if prev != nil {
		switch {
		case prev.Status == StepSuccess:
			if err := w.apply(prev.StatePatch); err != nil {
				return failed(fmt.Errorf("step %s: stored state: %w", path, err))
			}
			return done(prev.Output)
		case prev.Status == StepSuspended && len(prev.Resumed) == 0:
			return outcome{kind: outSuspended}
		case prev.Status == StepSuspended:
			resume = prev.Resumed
		}
	}
	if w.act.paused.Load() {
		return outcome{kind: outStopped, err: errPaused}
	}
	if err := ctx.Err(); err != nil {
		return outcome{kind: outStopped, err: err}
	}
	rec := StepRecord{Path: path, Step: s.ID, Status: StepRunning, Attempts: 1, Input: in, Resumed: resume,
		StartedAt: w.rt.now().UTC(), AgentRuns: []int64{}}
	if prev != nil {
		rec.seq, rec.Attempts, rec.AgentRuns = prev.seq, prev.Attempts+1, append(rec.AgentRuns, prev.AgentRuns...)
	} else {
		w.mu.Lock()
		w.seq++
		rec.seq = w.seq
		w.mu.Unlock()
	}
	if w.exec != nil && !containsID(rec.AgentRuns, w.exec.RunID()) {
		rec.AgentRuns = append(rec.AgentRuns, w.exec.RunID())
	}
	fail := func(err error) outcome {
		rec.Status, rec.Error = StepFailed, err.Error()
		now := w.rt.now().UTC()
		rec.FinishedAt = &now
		w.save(ctx, &rec)
		w.rt.publish(w.run, EventStepFailed, path, string(StepFailed), rec.Error)
		return failed(fmt.Errorf("step %s: %w", path, err))
	}
	if errs := validate(s.input, in); len(errs) > 0 {
		return fail(fmt.Errorf("the input does not match the step's schema: %s", agent.SummarizeErrors(errs)))
	}
	state := w.stateJSON()
	if errs := validate(s.state, state); len(errs) > 0 {
		return fail(fmt.Errorf("the workflow state does not match the step's schema: %s", agent.SummarizeErrors(errs)))
	}
	if err := w.save(ctx, &rec); err != nil {
		return failed(err)
	}
	w.rt.publish(w.run, EventStepStarted, path, string(StepRunning), "")

	c := &Context{RunID: w.run.ID, Workflow: w.wf.ID, Path: path, Member: w.run.Member, Attempt: rec.Attempts,
		Trigger: w.run.Trigger, input: in, state: state, resume: resume, step: s, exec: w.exec, w: w, rec: &rec}
	out, err := s.Run(ctx, c)
	c.mu.Lock()
	completed, payload, patch := c.completed, c.payload, c.patchJSON()
	c.mu.Unlock()
	switch {
	case completed != nil: // the step's own transaction recorded its success
		rec = w.succeeded(&rec, completed, patch)
		if err := w.apply(patch); err != nil {
			return failed(fmt.Errorf("step %s: %w", path, err))
		}
		w.mu.Lock()
		w.recs[path] = &rec
		w.mu.Unlock()
		w.rt.publish(w.run, EventStepFinished, path, string(StepSuccess), "")
		return done(completed)
	case errors.Is(err, errSuspend):
		now := w.rt.now().UTC()
		rec.Status, rec.Suspended, rec.Resumed, rec.FinishedAt = StepSuspended, payload, nil, &now
		if err := w.save(ctx, &rec); err != nil {
			return failed(err)
		}
		w.rt.publish(w.run, EventStepSuspended, path, string(StepSuspended), "")
		return outcome{kind: outSuspended}
	case err != nil && ctx.Err() != nil:
		// Shut down (or the attempt's time ran out): the record stays
		// running and the step runs again when the run continues.
		return outcome{kind: outStopped, err: err}
	case err != nil:
		return fail(err)
	}
	b, err := marshal(out)
	if err != nil {
		return fail(fmt.Errorf("the output is not JSON: %w", err))
	}
	if errs := validate(s.output, b); len(errs) > 0 {
		return fail(fmt.Errorf("the output does not match the step's schema: %s", agent.SummarizeErrors(errs)))
	}
	next, err := w.merged(patch)
	if err != nil {
		return fail(err)
	}
	rec = w.succeeded(&rec, b, patch)
	err = w.rt.db.Tx(context.WithoutCancel(ctx), func(tx *store.Tx) error {
		if err := w.rt.runs.saveStep(ctx, tx, w.run.ID, &rec); err != nil {
			return err
		}
		return w.rt.runs.setState(ctx, tx, w.run.ID, next)
	})
	if err != nil {
		return failed(err)
	}
	if err := w.apply(patch); err != nil {
		return failed(err)
	}
	w.mu.Lock()
	w.recs[path] = &rec
	w.mu.Unlock()
	w.rt.publish(w.run, EventStepFinished, path, string(StepSuccess), "")
	return done(b)
}

// succeeded returns rec completed with out and patch.
func (w *walker) succeeded(rec *StepRecord, out, patch json.RawMessage) StepRecord {
	r := *rec
	now := w.rt.now().UTC()
	r.Status, r.Output, r.StatePatch, r.Error, r.FinishedAt = StepSuccess, out, patch, "", &now
	return r
}

// save writes rec on its own (its failure ends the walk).
func (w *walker) save(ctx context.Context, rec *StepRecord) error {
	if err := w.rt.runs.saveStep(context.WithoutCancel(ctx), w.rt.db.Write, w.run.ID, rec); err != nil {
		w.rt.log.Error("workflow: save step", "run", w.run.ID, "path", rec.Path, "err", err)
		return err
	}
	w.mu.Lock()
	cp := *rec
	w.recs[rec.Path] = &cp
	w.mu.Unlock()
	return nil
}

func (w *walker) result(path string) (json.RawMessage, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	r, ok := w.recs[path]
	if !ok || r.Status != StepSuccess {
		return nil, false
	}
	return r.Output, true
}

// merged is the state with patch applied, checked against the workflow's
// State schema.
func (w *walker) merged(patch json.RawMessage) (json.RawMessage, error) {
	w.mu.Lock()
	next := make(map[string]json.RawMessage, len(w.state))
	for k, v := range w.state {
		next[k] = v
	}
	w.mu.Unlock()
	if err := mergeInto(next, patch); err != nil {
		return nil, err
	}
	b := object(next)
	if errs := validate(w.wf.state, b); len(errs) > 0 {
		return nil, fmt.Errorf("the workflow state would not match its schema: %s", agent.SummarizeErrors(errs))
	}
	return b, nil
}

// apply merges a stored patch into the walk's state.
func (w *walker) apply(patch json.RawMessage) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return mergeInto(w.state, patch)
}

func mergeInto(state map[string]json.RawMessage, patch json.RawMessage) error {
	if len(patch) == 0 {
		return nil
	}
	var p map[string]json.RawMessage
	if err := json.Unmarshal(patch, &p); err != nil {
		return fmt.Errorf("state patch: %w", err)
	}
	for k, v := range p {
		if string(v) == "null" {
			delete(state, k)
		} else {
			state[k] = v
		}
	}
	return nil
}

func (w *walker) stateJSON() json.RawMessage {
	w.mu.Lock()
	defer w.mu.Unlock()
	return object(w.state)
}

// object marshals m (keys sorted, so equal maps give equal bytes).
func object(m map[string]json.RawMessage) json.RawMessage {
	if len(m) == 0 {
		return json.RawMessage(`{}`)
	}
	b, _ := json.Marshal(m)
	return b
}

func containsID(ids []int64, id int64) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}
