package definition

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"hearth/internal/agent"
)

// invocation is the shared state of one invoke: the engine run it executes
// in (usage, tool calls, validation errors, memories and staged writes of
// every agent in the pipeline live there) and its trace of steps.
type invocation struct {
	r      *Invoker
	reg    Registry
	x      *agent.Exec
	member string
	params Params
	extras map[string]any
	user   map[string]any
	now    time.Time
	// heuristic: no model; every step is answered by its agent's heuristic.
	heuristic bool
	// observe, when set, hears every tool call of the pipeline (a
	// conversation turn shows them as chips and keeps them in its thread).
	observe func(name string, args json.RawMessage, result any, err error)

	mu    sync.Mutex
	steps []Step
}

// call is one agent of the pipeline.
type call struct {
	depth int
	// path is the agent ids from the invoked agent down to this one.
	path []string
	// key is the sub-agent entry's key ("" for the invoked agent).
	key string
	// message is the invoked agent's message; input a sub-agent's mapped input.
	message string
	input   any
	// notes start the agent's step (missing mapping references).
	notes []string
}

// node is what one agent produced.
type node struct {
	output   any
	composed any
}

func (r *Invoker) newInvocation(ctx context.Context, p Params) (*invocation, error) {
	extras, err := jsonValue(p.Extras)
	if err != nil {
		return nil, fmt.Errorf("definition: extras are not JSON: %w", err)
	}
	em, _ := extras.(map[string]any)
	if em == nil {
		em = map[string]any{}
	}
	u, err := r.opts.Members(ctx, p.Member)
	if err != nil {
		return nil, err
	}
	user, err := jsonValue(u)
	if err != nil {
		return nil, fmt.Errorf("definition: member data is not JSON: %w", err)
	}
	um, _ := user.(map[string]any)
	return &invocation{r: r, reg: r.repo.reg, member: p.Member, params: p, extras: em, user: um, now: r.repo.now()}, nil
}

// addStep appends a step and returns its index.
func (inv *invocation) addStep(s Step) int {
	inv.mu.Lock()
	defer inv.mu.Unlock()
	inv.steps = append(inv.steps, s)
	return len(inv.steps) - 1
}

// updateStep changes step i under the lock.
func (inv *invocation) updateStep(i int, fn func(s *Step)) {
	inv.mu.Lock()
	defer inv.mu.Unlock()
	fn(&inv.steps[i])
}

// trace copies the steps.
func (inv *invocation) trace() []Step {
	inv.mu.Lock()
	defer inv.mu.Unlock()
	return append([]Step(nil), inv.steps...)
}

// note adds a note to step i.
func (inv *invocation) note(i int, format string, args ...any) {
	inv.updateStep(i, func(s *Step) { s.Notes = append(s.Notes, fmt.Sprintf(format, args...)) })
}

func marshalJSON(v any) (json.RawMessage, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSpace(buf.Bytes()), nil
}
