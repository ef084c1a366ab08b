package agent

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"hearth/internal/apperr"
)

// Request names one run: what it does, for whom, and what started it. It
// is the one way in to the engine (Start, Run, StartEach, RunEach); the
// orchestrator resolves the agent (registered in code, or made in admin)
// and applies it the same way on every path.
//
// Exactly one of Assignment and Message is set:
//   - Assignment runs one of a code agent's assignments for Member. An
//     assignment with a durable route (SetDurable) runs as its
//     crash-resumable workflow unless BuiltIn is set.
//   - Message is words for the agent: a chat turn on a thread (Thread, or
//     Chat/FromMember to start one), or a request run for the member (a
//     scheduled prompt, a to-do, the agents API). A code agent answers in
//     its chat loop; an agent made in admin runs its whole definition
//     (context, templates, tools, rules, sub-agents, hooks, output schema)
//     in a thread turn or in a run of its own.
type Request struct {
	Agent      string
	Assignment string
	Member     string
	Message    string
	// Thread continues a thread of this agent and member; 0 starts one
	// for a chat message.
	Thread int64
	// Chat says a person is typing in a chat (the kiosk, the admin, the
	// threads API): the message is theirs to be answered, not a request
	// for the agent to relay something to the member. An agent made in
	// admin answers a chat on a thread and any other message in a run of
	// its own.
	Chat bool
	// FromMember says the member typed the message themselves; it implies
	// Chat. Only such a turn is the member's own words (Agent.Heard).
	FromMember bool
	// Surface is where a chat message was typed ("" = SurfaceAdmin).
	Surface Surface
	// Trigger defaults to TriggerAPI; Origin names what started the run
	// beyond it (see Run.Origin).
	Trigger Trigger
	Origin  string
	// BuiltIn runs an assignment with the heuristic planner even when a
	// model is configured (a run the caller could not charge to a
	// model-call budget), as a plain run; a run it joins keeps its own way.
	BuiltIn bool
}

// Definitions are the agents made in admin as the orchestrator runs them
// (*definition.Invoker). The orchestrator asks them only for ids no code
// agent is registered under.
type Definitions interface {
	// Resolve describes id's current definition; NotFound when there is
	// none. Converse on the returned Agent runs the whole definition for
	// a chat turn; box is the tools it may call (nil: none).
	Resolve(ctx context.Context, id string) (a Agent, box *Toolbox, err error)
	// Answer runs id's definition once for req.Message as a run of its own
	// (assignment "invoke"), waiting for it when wait is set.
	Answer(ctx context.Context, req Request, wait bool) (Run, error)
}

// Durable runs an assignment as a crash-resumable workflow
// (*workflow.Runtime): a run started for the assignment is an attempt of a
// workflow run, which continues from its last completed step after a
// crash, wherever it was started.
type Durable interface {
	// StartDurable starts (or joins) the workflow run for req and returns
	// the engine run of its current attempt.
	StartDurable(ctx context.Context, req Request) (Run, error)
}

// SetDefinitions makes the agents made in admin runnable next to the
// registered ones. Set it before serving.
func (o *Orchestrator) SetDefinitions(d Definitions) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.defs = d
}

// SetDurable routes agentID's assignment through d (its workflow) on
// every path that starts it. Set it before serving.
func (o *Orchestrator) SetDurable(agentID, assignmentID string, d Durable) error {
	if _, _, err := o.assignment(agentID, assignmentID); err != nil {
		return err
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.durable[[2]string{agentID, assignmentID}] = d
	return nil
}

// Resolve describes an agent a request may name: a registered one, else
// one made in admin (AgentInfo.AdminMade). Unknown ids are NotFound. It
// is the one place that tells the two apart.
func (o *Orchestrator) Resolve(ctx context.Context, id string) (AgentInfo, error) {
	reg, made, err := o.resolve(ctx, id)
	if err != nil {
		return AgentInfo{}, err
	}
	info := reg.info()
	info.AdminMade = made
	return info, nil
}

// resolve finds id among the registered agents, else the definitions
// (resolved afresh: a definition saved a moment ago takes effect on the
// next run); made reports the latter.
func (o *Orchestrator) resolve(ctx context.Context, id string) (reg *registered, made bool, err error) {
	reg, err = o.agent(id)
	o.mu.Lock()
	defs := o.defs
	o.mu.Unlock()
	if err == nil || defs == nil || !apperr.Is(err, apperr.NotFound) {
		return reg, false, err
	}
	a, box, err := defs.Resolve(ctx, id)
	if err != nil {
		return nil, false, err
	}
	a.ID, a.Assignments, a.Tools = id, nil, nil
	if reg, err = compileAgent(a); err != nil {
		return nil, false, err
	}
	if box != nil {
		reg.tools = box
	}
	return reg, true, nil
}

// Start starts the run req names and returns it at once (queued, or the
// run already active for the same assignment and member, joined). Unknown
// agent, assignment or member is NotFound.
func (o *Orchestrator) Start(ctx context.Context, req Request) (Run, error) {
	return o.start(ctx, req, false)
}

// Run starts the run req names and waits for it to finish. If ctx ends
// first the error is ctx's and the run carries on.
func (o *Orchestrator) Run(ctx context.Context, req Request) (Run, error) {
	return o.start(ctx, req, true)
}

// StartEach starts req for every member (req.Member is ignored), joining
// runs already active, and returns the runs in member order.
func (o *Orchestrator) StartEach(ctx context.Context, req Request) ([]Run, error) {
	if _, err := o.Resolve(ctx, req.Agent); err != nil {
		return nil, err
	}
	ids, err := o.sortedMembers(ctx)
	if err != nil {
		return nil, err
	}
	runs := make([]Run, 0, len(ids))
	for _, id := range ids {
		req.Member = id
		r, err := o.Start(ctx, req)
		if err != nil {
			return runs, fmt.Errorf("agent: start %s for %s: %w", req.Agent, id, err)
		}
		runs = append(runs, r)
	}
	return runs, nil
}

// RunEach is StartEach waiting for every run. At most
// Options.MaxConcurrentRuns execute at once.
func (o *Orchestrator) RunEach(ctx context.Context, req Request) ([]Run, error) {
	started, err := o.StartEach(ctx, req)
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

func (o *Orchestrator) start(ctx context.Context, req Request, wait bool) (Run, error) {
	switch {
	case req.Assignment != "" && req.Message != "":
		return Run{}, apperr.Invalidf("a run does an assignment or answers a message, not both")
	case req.Assignment == "" && req.Message == "":
		return Run{}, apperr.Invalidf("name an assignment or give a message")
	}
	var r Run
	var err error
	switch {
	case req.Assignment != "":
		r, err = o.startAssignmentRoute(ctx, req)
	default:
		var made bool
		var reg *registered
		if reg, made, err = o.resolve(ctx, req.Agent); err != nil {
			return Run{}, err
		}
		if made && req.Thread == 0 && !req.Chat && !req.FromMember {
			// A request for an agent made in admin: its definition runs
			// once (its output is the composed result, not a chat reply).
			return o.defs.Answer(ctx, req, wait)
		}
		r, err = o.startFreeform(ctx, reg, req)
	}
	if err != nil || !wait {
		return r, err
	}
	return o.Wait(ctx, r.ID)
}

// startAssignmentRoute starts an assignment run, through its durable
// workflow when it has one (joining a run already active either way).
func (o *Orchestrator) startAssignmentRoute(ctx context.Context, req Request) (Run, error) {
	if _, _, err := o.assignment(req.Agent, req.Assignment); err != nil {
		return Run{}, err
	}
	o.mu.Lock()
	d := o.durable[[2]string{req.Agent, req.Assignment}]
	o.mu.Unlock()
	if d == nil || req.BuiltIn {
		r, _, err := o.startAssignment(ctx, req)
		return r, err
	}
	if req.Member == "" {
		return Run{}, apperr.Invalidf("a member is required")
	}
	if cur, err := o.runs.activeRun(ctx, req.Agent, req.Assignment, req.Member); err == nil {
		return cur, nil
	} else if !apperr.Is(err, apperr.NotFound) {
		return Run{}, err
	}
	r, err := d.StartDurable(ctx, req)
	if apperr.Is(err, apperr.Conflict) {
		// A plain run (BuiltIn) took the slot since the check: join it.
		if cur, gerr := o.runs.activeRun(ctx, req.Agent, req.Assignment, req.Member); gerr == nil {
			return cur, nil
		}
	}
	return r, err
}

// CheckTarget says whether a scheduled task may name agentID (and
// assignmentID, "" for a prompt): a registered agent and one of its
// assignments, or an agent made in admin with a prompt (it has no
// assignments).
func (o *Orchestrator) CheckTarget(ctx context.Context, agentID, assignmentID string) error {
	info, err := o.Resolve(ctx, agentID)
	switch {
	case err != nil:
		return err
	case info.AdminMade && assignmentID != "":
		return fmt.Errorf("agent %s is made in admin and has no assignments: give it a prompt", agentID)
	case assignmentID == "":
		return nil
	case info.HasAssignment(assignmentID) != nil:
		return fmt.Errorf("agent %s has no assignment %q", agentID, assignmentID)
	}
	return nil
}
