package definition

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"
	"unicode/utf8"

	"hearth/internal/agent"
	"hearth/internal/apperr"
	"hearth/internal/live"
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
	// Trigger is recorded on the run (default agent.TriggerAPI).
	Trigger agent.Trigger
}

// MemberData returns a member's data for $user references and {{user.x}}.
type MemberData func(ctx context.Context, member string) (map[string]any, error)

// Options configure a Runner; Runs is required.
type Options struct {
	// Runs records each invoke as a run.
	Runs *agent.RunStore
	// Members gives $user its data (default {"id": member}).
	Members MemberData
	// Publisher receives run events (kind "run", agent.RunEvent) on the
	// admin and member topics; nil publishes nothing.
	Publisher live.Publisher
	Logger    *slog.Logger
	// Location formats $now, {{now}} (default UTC).
	Location *time.Location
	// Prices estimate the run's cost.
	Prices agent.Prices
	// BudgetExhausted, when set, is asked before each invoke; true refuses it
	// (for example the orchestrator's BudgetStatus).
	BudgetExhausted func(ctx context.Context) (bool, error)
	// MaxConcurrentCalls caps model requests in flight across invokes
	// (default 4).
	MaxConcurrentCalls int
}

// Runner invokes agents from their current definitions.
type Runner struct {
	repo  *Repo
	rt    agent.Runtime
	opts  Options
	log   *slog.Logger
	slots chan struct{}
}

// NewRunner returns a runner over repo's definitions. rt is the language
// model; nil makes every invoke fail with a clear message (declarative
// agents have no heuristic planner).
func NewRunner(repo *Repo, rt agent.Runtime, opts Options) (*Runner, error) {
	if repo == nil || opts.Runs == nil {
		return nil, errors.New("definition: a runner needs a repo and a run store")
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
	if opts.MaxConcurrentCalls <= 0 {
		opts.MaxConcurrentCalls = 4
	}
	return &Runner{repo: repo, rt: rt, opts: opts, log: opts.Logger, slots: make(chan struct{}, opts.MaxConcurrentCalls)}, nil
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

// Invoke runs agentID's current definition for p.Member and returns the
// composed result. The invoke is recorded as a run (Result.RunID, also set
// when it failed after the run was created). Unknown agent or member is
// NotFound; a definition that cannot run (unknown tool or context type,
// missing template variable, cycle, depth) is Invalid and fails the run.
func (r *Runner) Invoke(ctx context.Context, agentID string, p Params) (Result, error) {
	res := Result{AgentID: agentID}
	if err := r.checkParams(&p); err != nil {
		return res, err
	}
	if r.rt == nil {
		return res, apperr.New(apperr.Conflict, "no language model is configured: agents defined here need one (set OPENAI_API_KEY or OPENAI_BASE_URL)")
	}
	if r.opts.BudgetExhausted != nil {
		spent, err := r.opts.BudgetExhausted(ctx)
		if err != nil {
			return res, err
		}
		if spent {
			return res, apperr.New(apperr.Conflict, "today's model budget is spent")
		}
	}
	cur, err := r.repo.current(ctx, agentID)
	if err != nil {
		return res, err
	}
	res.Version = cur.Number
	inv, err := r.newInvocation(ctx, agentID, p)
	if err != nil {
		return res, err
	}
	if err := r.opts.Runs.Create(ctx, &inv.run); err != nil {
		return res, err
	}
	res.RunID = inv.run.ID
	now := r.repo.now().UTC()
	inv.run.Status, inv.run.StartedAt = agent.StatusRunning, &now
	if err := r.opts.Runs.Save(ctx, &inv.run); err != nil {
		r.finish(ctx, inv, res, err)
		return res, err
	}
	r.publish(&inv.run)

	n, _, err := inv.execute(ctx, cur, call{path: []string{agentID}, message: p.Message})
	if err == nil {
		err = inv.saveMemory(ctx)
	}
	res.Steps = inv.steps
	if err == nil {
		res.Output, res.Composed = n.output, n.composed
	}
	r.finish(ctx, inv, res, err)
	return res, err
}

func (r *Runner) checkParams(p *Params) error {
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

// finish records the run's outcome; a failure to record is logged, not returned.
func (r *Runner) finish(ctx context.Context, inv *invocation, res Result, runErr error) {
	inv.mu.Lock()
	run := inv.run
	inv.mu.Unlock()
	now := r.repo.now().UTC()
	run.FinishedAt, run.Phase = &now, ""
	if runErr != nil {
		run.Status, run.Error = agent.StatusFailed, runErr.Error()
		if ctx.Err() != nil {
			run.Status = agent.StatusInterrupted
		}
	} else {
		run.Status = agent.StatusSucceeded
		if b, err := marshalJSON(res.Composed); err == nil {
			run.Output = b
		}
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if err := r.opts.Runs.Save(sctx, &run); err != nil {
		r.log.Error("definition: record run outcome", "run", run.ID, "err", err)
	}
	lvl := slog.LevelInfo
	if runErr != nil {
		lvl = slog.LevelWarn
	}
	r.log.Log(ctx, lvl, "definition: invoke finished", "run", run.ID, "agent", run.Agent, "member", run.Member,
		"status", run.Status, "model", run.Model, "tokens_in", run.TokensIn, "tokens_out", run.TokensOut, "err", run.Error)
	r.publish(&run)
}

func (r *Runner) publish(run *agent.Run) {
	if r.opts.Publisher == nil {
		return
	}
	ev := agent.RunEvent{ID: run.ID, Agent: run.Agent, Assignment: run.Assignment, Member: run.Member,
		Status: run.Status, Phase: run.Phase, Error: run.Error}
	r.opts.Publisher.Publish(live.TopicAdmin, live.KindRun, ev)
	r.opts.Publisher.Publish(live.MemberTopic(run.Member), live.KindRun, ev)
}

// definitionErr is a definition that cannot run as stored.
func definitionErr(agentID, format string, args ...any) error {
	return apperr.Invalidf("definition of %q: %s", agentID, fmt.Sprintf(format, args...))
}
