package definition

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"hearth/internal/agent"
	"hearth/internal/store"
)

// invocation is the shared state of one invoke: its run record (usage,
// tool calls and validation errors of every agent in the pipeline), its
// trace and the working memories it loaded.
type invocation struct {
	r      *Runner
	reg    Registry
	member string
	params Params
	extras map[string]any
	user   map[string]any
	now    time.Time

	mu       sync.Mutex
	run      agent.Run
	steps    []Step
	memories map[string]*agent.Memory
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

func (r *Runner) newInvocation(ctx context.Context, agentID string, p Params) (*invocation, error) {
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
	return &invocation{
		r: r, reg: r.repo.reg, member: p.Member, params: p, extras: em, user: um, now: r.repo.now(),
		run:      agent.Run{Agent: agentID, Member: p.Member, Trigger: p.Trigger, Assignment: AssignmentInvoke},
		memories: map[string]*agent.Memory{},
	}, nil
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

// note adds a note to step i.
func (inv *invocation) note(i int, format string, args ...any) {
	inv.updateStep(i, func(s *Step) { s.Notes = append(s.Notes, fmt.Sprintf(format, args...)) })
}

// timing adds d to the run's phase timing.
func (inv *invocation) timing(phase string, since time.Time) {
	ms := float64(time.Since(since).Microseconds()) / 1000
	inv.mu.Lock()
	defer inv.mu.Unlock()
	for i := range inv.run.Timings {
		if inv.run.Timings[i].Phase == phase {
			inv.run.Timings[i].MS += ms
			return
		}
	}
	inv.run.Timings = append(inv.run.Timings, agent.PhaseTiming{Phase: phase, MS: ms})
}

// memory returns the working memory of (agentID, member), loading it once;
// nil without a memory store.
func (inv *invocation) memory(ctx context.Context, agentID string) (*agent.Memory, error) {
	if inv.reg.Memory == nil {
		return nil, nil
	}
	inv.mu.Lock()
	defer inv.mu.Unlock()
	if m, ok := inv.memories[agentID]; ok {
		return m, nil
	}
	m, err := inv.reg.Memory.Load(ctx, agentID, inv.member)
	if err != nil {
		return nil, err
	}
	m.Prune()
	inv.memories[agentID] = m
	return m, nil
}

// saveMemory writes what the tools changed in the loaded memories.
func (inv *invocation) saveMemory(ctx context.Context) error {
	if inv.reg.Memory == nil || len(inv.memories) == 0 {
		return nil
	}
	return inv.r.repo.db.Tx(ctx, func(tx *store.Tx) error {
		for _, id := range sortedKeys(inv.memories) {
			if err := inv.reg.Memory.Save(ctx, tx, inv.memories[id], agent.RunActor(inv.run.ID), inv.run.ID); err != nil {
				return err
			}
		}
		return nil
	})
}

// callModel runs one model request under the concurrency cap and books its
// usage on the run.
func (inv *invocation) callModel(ctx context.Context, req agent.Request) (agent.Result, error) {
	select {
	case inv.r.slots <- struct{}{}:
	case <-ctx.Done():
		return agent.Result{}, ctx.Err()
	}
	res, err := inv.r.rt.Execute(ctx, req)
	<-inv.r.slots
	model := res.Model
	if model == "" {
		model = req.Model
	}
	inv.mu.Lock()
	defer inv.mu.Unlock()
	inv.run.Attempts++
	inv.run.TokensIn += res.Usage.InputTokens
	inv.run.TokensOut += res.Usage.OutputTokens
	inv.run.CostUSD += inv.r.opts.Prices.Cost(model, res.Usage)
	if model != "" {
		inv.run.Model = model
	}
	inv.run.ToolCalls = append(inv.run.ToolCalls, res.ToolCalls...)
	return res, err
}

// recordInvalid books one invalid output on the run.
func (inv *invocation) recordInvalid(c call, errs []agent.ValidationError) {
	inv.mu.Lock()
	defer inv.mu.Unlock()
	src := agent.SourceModel
	if c.key != "" {
		src += " (sub-agent " + c.key + ")"
	}
	inv.run.ValidationErrors = append(inv.run.ValidationErrors, agent.AttemptErrors{Attempt: inv.run.Attempts, Source: src, Errors: errs})
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
