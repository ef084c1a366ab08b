package definition

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"
	"unicode/utf8"

	"hearth/internal/agent"
	"hearth/internal/apperr"
)

// AssignmentInvoke is the assignment id recorded on the runs of invokes.
const AssignmentInvoke = "invoke"

// Params are the inputs of one invoke.
type Params struct {
	// Member is whom the agent works for; tools are scoped to them.
	Member  string
	Message string
	// PreviousMessages go before the message (the invoked agent only).
	PreviousMessages []agent.Message
	// Extras are free values for $extras references and {{extras.x}}.
	Extras map[string]any
	// Trigger is recorded on the run (default agent.TriggerAPI); Origin
	// too (agent.Run.Origin: the scheduled task that asked).
	Trigger agent.Trigger
	Origin  string
}

// MemberData returns a member's data for $user references and {{user.x}}.
type MemberData func(ctx context.Context, member string) (map[string]any, error)

// Engine is the agent orchestrator as definitions use it
// (*agent.Orchestrator): invokes are its runs, with its one reasoning loop,
// ledger, model-call limit and budget.
type Engine interface {
	Execute(ctx context.Context, req agent.TaskRequest, drive agent.Driver) (agent.Run, error)
	StartExecute(ctx context.Context, req agent.TaskRequest, drive agent.Driver) (agent.Run, error)
	HasModel() bool
	BudgetStatus(ctx context.Context) (agent.BudgetStatus, error)
}

// Options configure an Invoker.
type Options struct {
	// Members gives $user its data (default {"id": member}).
	Members MemberData
	Logger  *slog.Logger
	// Location formats $now, {{now}} (default UTC).
	Location *time.Location
	// Heuristics answer for agents when no model is configured, by agent
	// id; Heuristic answers for the others (nil: none). Without a model an
	// invoke runs only when every agent of its pipeline has one.
	Heuristics map[string]Heuristic
	Heuristic  Heuristic
	// ToolHeuristics answer as an agent without a model by calling its
	// tools themselves (the home controller's plain commands), by agent
	// id. Unlike Heuristics they answer everywhere the agent is asked —
	// the API, a schedule, a chat — not only "Try it".
	ToolHeuristics map[string]ToolHeuristic
	// Vars give an agent's own template variables their values (the names
	// its Registry.Vars declares), by agent id: the coach's gathered facts.
	Vars map[string]VarsFunc
}

// VarsFunc returns an agent's own template variables for one step.
type VarsFunc func(ctx context.Context, scope agent.Scope) (map[string]string, error)

// Heuristic is a built-in answer without a model: the output for one step
// (text, or JSON matching the definition's schema when structured). scope
// is the step's (member, memory; writes are staged like a tool's).
type Heuristic func(ctx context.Context, scope agent.Scope, system, user string, structured bool) (string, error)

// ToolHeuristic is an agent's answer without a model to message: call runs
// the definition's tools (its tool hooks included) and each call is
// recorded on the run like a model's.
type ToolHeuristic func(ctx context.Context, call agent.ToolCaller, message string) (string, error)

// answersAlone reports whether cur answers without a model wherever it is
// asked: a tool heuristic and no sub-agents.
func (o Options) answersAlone(cur *current) bool {
	return o.ToolHeuristics[cur.AgentID] != nil && len(cur.SubAgents) == 0
}

// heuristicFor returns the agent's heuristic (nil: none).
func (o Options) heuristicFor(agentID string) Heuristic {
	if h, ok := o.Heuristics[agentID]; ok {
		return h
	}
	return o.Heuristic
}

// HeuristicNote labels a step answered by a heuristic.
const HeuristicNote = "answered by the built-in heuristic: no language model is configured"

// Invoker runs agents made in admin (and the coach's definition) from their
// current definitions on the engine: an invoke, a chat turn, a shaped
// assignment run. It is one of the engine's drivers (see package agent).
type Invoker struct {
	repo   *Repo
	engine Engine
	opts   Options
	log    *slog.Logger
}

// NewInvoker returns an invoker over repo's definitions that runs them on
// engine. Declarative agents have no heuristic planner: without a model
// every invoke is refused with a clear message.
func NewInvoker(repo *Repo, engine Engine, opts Options) (*Invoker, error) {
	if repo == nil || engine == nil {
		return nil, errors.New("definition: an invoker needs a repo and an engine")
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Location == nil {
		opts.Location = time.UTC
	}
	if opts.Members == nil {
		opts.Members = func(_ context.Context, member string) (map[string]any, error) {
			return map[string]any{"id": member}, nil
		}
	}
	return &Invoker{repo: repo, engine: engine, opts: opts, log: opts.Logger}, nil
}

// Result is what an invoke produced.
type Result struct {
	RunID   int64  `json:"run_id"`
	AgentID string `json:"agent_id"`
	Version int    `json:"version"`
	// Output is the invoked agent's own validated output: the decoded JSON
	// document with an output schema, else the reply text.
	Output any `json:"output"`
	// Composed is Output with each sub-agent's composed result under its
	// key (a non-object Output goes under "output"); Output when there are
	// no sub-agents.
	Composed any `json:"composed"`
	// Steps trace every agent of the pipeline, in start order.
	Steps []Step `json:"steps"`
	// Heuristic: no model is configured and the built-in heuristics
	// answered (HeuristicNote).
	Heuristic bool `json:"heuristic,omitempty"`
}

// Step is one agent of an invoke's pipeline.
type Step struct {
	AgentID  string   `json:"agent_id"`
	Version  int      `json:"version,omitempty"`
	Key      string   `json:"key,omitempty"`
	Depth    int      `json:"depth"`
	Skipped  bool     `json:"skipped,omitempty"`
	System   string   `json:"system,omitempty"`
	User     string   `json:"user,omitempty"`
	Attempts int      `json:"attempts"`
	Output   any      `json:"output,omitempty"`
	Notes    []string `json:"notes,omitempty"`
	Error    string   `json:"error,omitempty"`
	MS       float64  `json:"ms"`
}

var (
	errNoModel = apperr.New(apperr.Conflict, "no language model is configured: agents defined here need one (set OPENAI_API_KEY or OPENAI_BASE_URL)")
	errBudget  = apperr.New(apperr.Conflict, "today's model budget is spent")
)

// Invoke runs agentID's current definition for p.Member as one engine run
// and returns the composed result. Writes the agents' tools make are
// staged and applied only when the whole invoke succeeds. Unknown agent or
// member is NotFound; a definition that cannot run (unknown tool or
// context type, missing template variable, cycle, depth) is Invalid and
// fails the run (Result.RunID is set whenever a run was recorded).
func (r *Invoker) Invoke(ctx context.Context, agentID string, p Params) (Result, error) {
	res := Result{AgentID: agentID}
	if err := r.checkParams(&p); err != nil {
		return res, err
	}
	cur, err := r.repo.current(ctx, agentID)
	if err != nil {
		return res, err
	}
	heuristic := !r.engine.HasModel()
	if heuristic {
		if missing := r.withoutHeuristic(ctx, cur); missing != "" {
			return res, errNoModel
		}
	} else if st, err := r.engine.BudgetStatus(ctx); err != nil {
		return res, err
	} else if st.Exhausted {
		return res, errBudget
	}
	res.Version, res.Heuristic = cur.Number, heuristic
	inv, err := r.newInvocation(ctx, p)
	if err != nil {
		return res, err
	}
	inv.heuristic = heuristic
	var out node
	run, err := r.engine.Execute(ctx, agent.TaskRequest{Agent: agentID, Assignment: AssignmentInvoke, Member: p.Member,
		Trigger: p.Trigger, Origin: p.Origin}, func(ctx context.Context, x *agent.Exec) (json.RawMessage, error) {
		n, err := r.drive(ctx, x, cur, inv, p.Message)
		if err != nil {
			return nil, err
		}
		out = n
		return marshalJSON(n.composed)
	})
	res.RunID = run.ID
	if run.Status.Terminal() { // the run finished: its trace is complete
		res.Steps = inv.trace()
	}
	if err != nil {
		return res, err
	}
	res.Output, res.Composed = out.output, out.composed
	return res, nil
}

// drive runs cur's pipeline for message on x: the body of every run of an
// agent made in admin, an invoke's and a conversation turn's alike.
func (r *Invoker) drive(ctx context.Context, x *agent.Exec, cur *current, inv *invocation, message string) (node, error) {
	switch why, err := x.NoModelReason(ctx); {
	case err != nil:
		return node{}, err
	case why == agent.FallbackBudget:
		return node{}, errBudget
	case why == agent.FallbackNoModel && inv.heuristic:
	case why != "":
		return node{}, errNoModel
	}
	inv.x = x
	n, _, err := inv.execute(ctx, cur, call{path: []string{cur.AgentID}, message: message})
	if raw, jerr := marshalJSON(inv.trace()); jerr == nil { // the run page shows every step
		x.SetSteps(raw)
	}
	return n, err
}

// FallbackNeedsModel is the fallback reason of a run Answer recorded for an
// agent that needs a model when none is configured.
const FallbackNeedsModel = agent.FallbackNeedsModel

// NeedsModelOutput is the output of such a run.
type NeedsModelOutput struct {
	NeedsModel bool   `json:"needs_model"`
	Message    string `json:"message"`
}

// Answer runs an agent made in admin for the orchestrator
// (agent.Definitions): a request that is not a chat turn (the agents API,
// a scheduled prompt) is one invoke of its definition, a first-class run.
// Without a model (the heuristics are for "Try it", not for answering as
// the agent) the answer is a recorded run that says the agent needs one
// (status fell_back, reason needs_model, output NeedsModelOutput) instead
// of an error. With wait unset it returns the queued run at once.
func (r *Invoker) Answer(ctx context.Context, req agent.Request, wait bool) (agent.Run, error) {
	p := Params{Member: req.Member, Message: req.Message, Trigger: req.Trigger, Origin: req.Origin}
	if err := r.checkParams(&p); err != nil {
		return agent.Run{}, err
	}
	cur, err := r.repo.current(ctx, req.Agent)
	if err != nil {
		return agent.Run{}, err
	}
	task := agent.TaskRequest{Agent: req.Agent, Assignment: AssignmentInvoke, Member: p.Member, Trigger: p.Trigger, Origin: p.Origin}
	var drive agent.Driver
	if hasModel := r.engine.HasModel(); hasModel || r.opts.answersAlone(cur) {
		inv, err := r.newInvocation(ctx, p)
		if err != nil {
			return agent.Run{}, err
		}
		inv.heuristic = !hasModel
		drive = func(ctx context.Context, x *agent.Exec) (json.RawMessage, error) {
			n, err := r.drive(ctx, x, cur, inv, p.Message)
			if err != nil {
				return nil, err
			}
			return marshalJSON(n.composed)
		}
	} else {
		out := NeedsModelOutput{NeedsModel: true, Message: errNoModel.Message}
		drive = func(_ context.Context, x *agent.Exec) (json.RawMessage, error) {
			x.MarkFellBack(FallbackNeedsModel)
			return marshalJSON(out)
		}
	}
	if !wait {
		return r.engine.StartExecute(ctx, task, drive)
	}
	run, err := r.engine.Execute(ctx, task, drive)
	if run.ID != 0 && run.Status.Terminal() {
		return run, nil // a failed run carries its error
	}
	return run, err
}

// withoutHeuristic names an agent of cur's pipeline (cur itself or a
// sub-agent, at any depth) that has no heuristic, "" when all have one.
func (r *Invoker) withoutHeuristic(ctx context.Context, cur *current) string {
	seen := map[string]bool{}
	var walk func(agentID string, subs []SubAgent) string
	walk = func(agentID string, subs []SubAgent) string {
		if seen[agentID] {
			return ""
		}
		seen[agentID] = true
		if r.opts.heuristicFor(agentID) == nil && r.opts.ToolHeuristics[agentID] == nil {
			return agentID
		}
		for _, s := range subs {
			sub, err := r.repo.current(ctx, s.AgentID)
			if err != nil {
				return s.AgentID
			}
			if m := walk(sub.AgentID, sub.SubAgents); m != "" {
				return m
			}
		}
		return ""
	}
	return walk(cur.AgentID, cur.SubAgents)
}

func (r *Invoker) checkParams(p *Params) error {
	p.Message = strings.TrimSpace(p.Message)
	switch {
	case p.Member == "":
		return apperr.Invalidf("a member is required")
	case utf8.RuneCountInString(p.Message) > agent.MaxChatMessageLen:
		return apperr.Invalidf("the message is longer than %d characters", agent.MaxChatMessageLen)
	}
	if p.Trigger == "" {
		p.Trigger = agent.TriggerAPI
	}
	if !p.Trigger.Valid() {
		return apperr.Invalidf("unknown trigger %q", p.Trigger)
	}
	for _, m := range p.PreviousMessages {
		if m.Role != agent.RoleUser && m.Role != agent.RoleAssistant {
			return apperr.Invalidf("previous message has unknown role %q", m.Role)
		}
	}
	return nil
}

// definitionErr is a definition that cannot run as stored.
func definitionErr(agentID, format string, args ...any) error {
	return apperr.Invalidf("definition of %q: %s", agentID, fmt.Sprintf(format, args...))
}
