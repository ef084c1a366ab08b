package workflow

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"

	"hearth/internal/agent"
	"hearth/internal/apperr"
	"hearth/internal/store"
)

// errSuspend is what Context.Suspend returns: the step waits for a person.
var errSuspend = errors.New("workflow: step suspended")

// Context is what a step's Run gets: its input, the workflow state, the
// answer when it is resumed, and the run's engine attempt when the
// workflow is bound to the agent engine.
type Context struct {
	RunID    int64
	Workflow string
	// Path names the step in the run ("ask", "review/ask", "poll@2").
	Path   string
	Member string
	// Attempt counts executions of this step in the run (1 the first time;
	// more after a crash, a failure and Restart, or a Resume).
	Attempt int
	Trigger Trigger

	input  json.RawMessage
	state  json.RawMessage
	resume json.RawMessage
	step   *Step
	exec   *agent.Exec
	w      *walker
	rec    *StepRecord

	mu        sync.Mutex
	patch     map[string]json.RawMessage
	payload   json.RawMessage
	completed json.RawMessage
}

// Input is the step's input (validated against its Input schema).
func (c *Context) Input() json.RawMessage { return c.input }

// Decode unmarshals the input into v.
func (c *Context) Decode(v any) error {
	if err := json.Unmarshal(c.input, v); err != nil {
		return fmt.Errorf("step %s: decode input: %w", c.Path, err)
	}
	return nil
}

// State is the workflow state as the step started with it (a JSON object).
func (c *Context) State() json.RawMessage { return c.state }

// DecodeState unmarshals the state into v.
func (c *Context) DecodeState(v any) error { return json.Unmarshal(c.state, v) }

// SetState sets one top-level key of the workflow state (nil removes it).
// The change is stored with the step's result and applied, in graph
// order, when it succeeds; the state must then match the workflow's State
// schema.
func (c *Context) SetState(key string, value any) error {
	b, err := json.Marshal(value)
	if err != nil {
		return fmt.Errorf("step %s: state %q: %w", c.Path, key, err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.patch == nil {
		c.patch = map[string]json.RawMessage{}
	}
	c.patch[key] = b
	return nil
}

// Resumed returns the answer the step was resumed with (validated against
// its Resume schema); ok is false on a first run.
func (c *Context) Resumed() (json.RawMessage, bool) { return c.resume, len(c.resume) > 0 }

// Suspend makes the step wait for a person: return its error from Run.
// payload (what to ask) must match the step's Suspend schema. The run then
// waits in status suspended until Resume(run, path, answer); the step runs
// again with the answer (Resumed). One suspend point per step keeps resume
// deterministic.
func (c *Context) Suspend(payload any) error {
	b, err := json.Marshal(payload)
	if err != nil {
		return fmt.Errorf("step %s: suspend payload: %w", c.Path, err)
	}
	if errs := validate(c.step.suspend, b); len(errs) > 0 {
		return fmt.Errorf("step %s: the suspend payload does not match its schema: %s", c.Path, agent.SummarizeErrors(errs))
	}
	c.mu.Lock()
	c.payload = b
	c.mu.Unlock()
	return errSuspend
}

// Result returns the output of an earlier step of the run by path.
func (c *Context) Result(path string) (json.RawMessage, bool) { return c.w.result(path) }

// Exec is the agent engine's run of this attempt (a workflow with
// Workflow.Agent set), nil otherwise. Steps reason, load memory and stage
// writes through it; Phases run an assignment's phases on it.
func (c *Context) Exec() *agent.Exec { return c.exec }

// Key is an idempotency key for the step's outside writes: the same for
// every attempt of this step in this run.
func (c *Context) Key() string {
	return "workflow-run:" + strconv.FormatInt(c.RunID, 10) + "/" + c.Path
}

// Complete records the step's success inside tx, the transaction of its own
// domain writes, so the writes and the checkpoint commit together: a crash
// either keeps both or neither (the step then runs again). The step returns
// the same output from Run afterwards.
func (c *Context) Complete(ctx context.Context, tx *store.Tx, output any) error {
	b, err := marshal(output)
	if err != nil {
		return fmt.Errorf("step %s: output: %w", c.Path, err)
	}
	if errs := validate(c.step.output, b); len(errs) > 0 {
		return apperr.Invalidf("step %s: the output does not match its schema: %s", c.Path, agent.SummarizeErrors(errs))
	}
	c.mu.Lock()
	patch := c.patchJSON()
	c.mu.Unlock()
	next, err := c.w.merged(patch)
	if err != nil {
		return err
	}
	rec := c.w.succeeded(c.rec, b, patch)
	if err := c.w.rt.runs.saveStep(ctx, tx, c.RunID, &rec); err != nil {
		return err
	}
	if err := c.w.rt.runs.setState(ctx, tx, c.RunID, next); err != nil {
		return err
	}
	tx.AfterCommit(func() {
		c.mu.Lock()
		c.completed = b
		c.mu.Unlock()
	})
	return nil
}

// patchJSON is the state patch as stored (nil when the step set nothing);
// callers hold c.mu.
func (c *Context) patchJSON() json.RawMessage {
	if len(c.patch) == 0 {
		return nil
	}
	b, _ := json.Marshal(c.patch)
	return b
}

func marshal(v any) (json.RawMessage, error) {
	switch v := v.(type) {
	case json.RawMessage:
		if !json.Valid(v) {
			return nil, errors.New("not valid JSON")
		}
		return v, nil
	case nil:
		return json.RawMessage(`null`), nil
	}
	return json.Marshal(v)
}
