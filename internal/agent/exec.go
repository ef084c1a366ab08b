package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"hearth/internal/apperr"
	"hearth/internal/store"
)

// Exec is one run in progress, as the engine hands it to the code that
// drives it: the assignment template, a chat turn, a declarative
// definition (package definition) or a workflow step (package workflow).
// Through it that code records phases, loads working memory, reasons with
// the model (the one loop: model slot, budget, usage, validation retries)
// and lets tools stage their writes; the engine commits the run (staged
// writes, memory, the run row) in one transaction, or records its failure.
// Safe for concurrent use: sub-agents reason in parallel.
type Exec struct {
	o   *Orchestrator
	now time.Time

	mu   sync.Mutex
	run  *Run
	mems map[string]*Memory

	stage *Stager
	// askedModel is set once a model request was made: the prompt was sent.
	askedModel bool
	// committed is set once the run's commit transaction committed (a
	// driver may commit itself: a workflow step's write and checkpoint).
	committed bool
	// builtIn: the run uses the heuristic planner whatever model is set
	// (Request.BuiltIn).
	builtIn bool
}

func (o *Orchestrator) newExec(r *Run) *Exec {
	return &Exec{o: o, run: r, now: o.now(), mems: map[string]*Memory{}, stage: NewStager()}
}

// RunID is the run's id.
func (x *Exec) RunID() int64 { return x.run.ID }

// Member is whom the run is for.
func (x *Exec) Member() string { return x.run.Member }

// Now is the run's clock reading, taken when it started.
func (x *Exec) Now() time.Time { return x.now }

// update changes the run under the lock.
func (x *Exec) update(fn func(r *Run)) {
	x.mu.Lock()
	defer x.mu.Unlock()
	fn(x.run)
}

// snapshot copies the run under the lock, with its own copies of the
// slices the run keeps appending to and updating in place.
func (x *Exec) snapshot() Run {
	x.mu.Lock()
	defer x.mu.Unlock()
	r := *x.run
	r.Timings = slices.Clone(r.Timings)
	r.ToolCalls = slices.Clone(r.ToolCalls)
	r.ValidationErrors = slices.Clone(r.ValidationErrors)
	r.Effects = slices.Clone(r.Effects)
	r.ModelNotes = slices.Clone(r.ModelNotes)
	r.Steps = slices.Clone(r.Steps)
	return r
}

// SetPrompt records the prompt the run sends (shown in the run view).
func (x *Exec) SetPrompt(p Prompt) { x.update(func(r *Run) { r.Prompt = &p }) }

// Phase records that the run entered phase (persisted and published) and
// returns the function that ends it, adding its duration to the timings.
func (x *Exec) Phase(ctx context.Context, name string) func() {
	return x.phase(ctx, name, false)
}

// phase is Phase; inTx skips persisting (the writer connection is held by
// the run's own commit transaction).
func (x *Exec) phase(ctx context.Context, name string, inTx bool) func() {
	x.update(func(r *Run) { r.Phase = name })
	snap := x.snapshot()
	if !inTx {
		if err := x.o.runs.save(ctx, x.o.db.Write, &snap); err != nil {
			x.o.log.Warn("agent: record run phase", "run", snap.ID, "phase", name, "err", err)
		}
	}
	x.o.publish(&snap)
	start := time.Now()
	return func() { x.Timing(name, start) }
}

// Timing adds the time since start to phase without announcing a phase
// (for steps inside a phase, such as a definition's sub-agents).
func (x *Exec) Timing(phase string, start time.Time) {
	d := time.Since(start)
	x.update(func(r *Run) { r.addTiming(phase, d) })
}

// Memory returns the working memory of (agentID, the run's member), loaded
// and pruned once per run; the commit saves what changed.
func (x *Exec) Memory(ctx context.Context, agentID string) (*Memory, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if m, ok := x.mems[agentID]; ok {
		return m, nil
	}
	m, err := x.o.memory.Load(ctx, agentID, x.run.Member)
	if err != nil {
		return nil, err
	}
	m.Prune()
	x.mems[agentID] = m
	return m, nil
}

// Scope is the scope tools get in this run, acting for agentID with mem
// (nil = none). Writes the tools make are staged in the run.
func (x *Exec) Scope(agentID string, mem *Memory) Scope {
	return Scope{AgentID: agentID, MemberID: x.run.Member, RunID: x.run.ID, Origin: x.run.Origin, Now: x.now, Memory: mem, stager: x.stage}
}

// readScope is a Scope that cannot write (the gather phase reads only).
func (x *Exec) readScope(agentID string, mem *Memory) Scope {
	return Scope{AgentID: agentID, MemberID: x.run.Member, RunID: x.run.ID, Origin: x.run.Origin, Now: x.now, Memory: mem}
}

// SetSteps records the trace of a definition's pipeline on the run
// (Run.Steps); it is saved with the run's outcome.
func (x *Exec) SetSteps(steps json.RawMessage) { x.update(func(r *Run) { r.Steps = steps }) }

// MarkFellBack marks the run as answered without the model for reason (it
// ends as fell_back and applies none of the model's staged writes): the
// engine's own drivers call it when they use the heuristic, and so do
// drivers outside (a declarative agent that needs a model when none is
// configured, a workflow step that used the heuristic).
func (x *Exec) MarkFellBack(reason string) {
	x.update(func(r *Run) { r.FallbackReason = reason })
}

// discardStaged drops the writes staged so far, recorded on the run with
// why (a model's reply that was not used): what a later answer stages is
// then all the commit applies.
func (x *Exec) discardStaged(reason string) {
	if x.stage.Len() == 0 {
		return
	}
	out := x.stage.discard(reason)
	x.update(func(r *Run) { r.Effects = append(r.Effects, out...) })
}

// NoModelReason reports why this run cannot use the model now:
// FallbackNoModel without one (and for demo runs and runs asked for
// built-in, which are the heuristic planner's by design), FallbackBudget
// when the day's budget is spent, "" when it can.
func (x *Exec) NoModelReason(ctx context.Context) (string, error) {
	if x.o.rt.Model == nil || x.run.Trigger == TriggerDemo || x.builtIn {
		return FallbackNoModel, nil
	}
	st, err := x.o.BudgetStatus(ctx)
	if err != nil {
		return "", err
	}
	if st.Exhausted {
		return FallbackBudget, nil
	}
	return "", nil
}

// Reasoning is one request to the reasoning loop.
type Reasoning struct {
	ModelRequest
	// Check validates a reply and returns the accepted output, or what is
	// wrong with it (sent back for a correction); a non-nil error ends the
	// loop with that error (a sub-agent the check ran could not run).
	Check func(ctx context.Context, raw string) (any, []ValidationError, error)
	// Retries is how many corrections may follow the first reply.
	Retries int
	// Source labels this loop's validation errors on the run ("model", or
	// "model (sub-agent x)").
	Source string
}

// InvalidOutputError is a model whose replies were still invalid after
// every attempt; Last are the last reply's errors.
type InvalidOutputError struct {
	Attempts int
	Last     []ValidationError
}

func (e *InvalidOutputError) Error() string {
	return fmt.Sprintf("%d invalid replies, last: %s", e.Attempts, SummarizeErrors(e.Last))
}

// Reason is the engine's one reasoning loop: it asks the model (under the
// global model-call limit, booking usage, cost and tool calls on the run),
// checks the reply, and sends a failure back with its errors (the reply
// as the assistant's turn, then the errors), at most 1 + Retries times. It
// returns the accepted output, an *InvalidOutputError, or the model's
// error. Tools the model calls stage their writes in the run.
func (x *Exec) Reason(ctx context.Context, rq Reasoning) (any, error) {
	if rq.Source == "" {
		rq.Source = SourceModel
	}
	base := slices.Clone(rq.Messages)
	tries := 1 + max(rq.Retries, 0)
	var last []ValidationError
	for attempt := 1; attempt <= tries; attempt++ {
		end := x.Phase(ctx, PhaseReason)
		res, err := x.callModel(ctx, rq.ModelRequest)
		end()
		if err != nil {
			return nil, err
		}
		end = x.Phase(ctx, PhaseValidate)
		out, errs, err := rq.Check(ctx, res.Output)
		end()
		if err != nil {
			return nil, err
		}
		if len(errs) == 0 {
			return out, nil
		}
		if res.FinishReason == "length" { // the reply hit the token cap: say so, or the model repeats it
			errs = append(errs, ValidationError{Path: "/", Message: "the reply was cut off at the token limit (finish_reason \"length\"); write a shorter one"})
		}
		x.invalid(rq.Source, res.Output, errs)
		last = errs
		rq.Messages = append(slices.Clone(base),
			Message{Role: RoleAssistant, Content: res.Output},
			Message{Role: RoleUser, Content: correction(errs, rq.Output != nil)})
	}
	return nil, &InvalidOutputError{Attempts: tries, Last: last}
}

// invalid books one invalid output on the run, with the output itself
// (clipped) so the run view and evals can see what was rejected.
func (x *Exec) invalid(source, output string, errs []ValidationError) {
	if len(output) > MaxRejectedOutput {
		cut := MaxRejectedOutput
		for cut > 0 && !utf8.RuneStart(output[cut]) {
			cut--
		}
		output = output[:cut] + "…"
	}
	x.update(func(r *Run) {
		r.ValidationErrors = append(r.ValidationErrors, AttemptErrors{Attempt: r.Attempts, Source: source, Errors: errs, Output: output})
	})
}

// callModel runs one model attempt under the global cap and books its usage.
func (x *Exec) callModel(ctx context.Context, req ModelRequest) (Result, error) {
	x.update(func(r *Run) { r.Attempts++ })
	x.mu.Lock()
	x.askedModel = true
	x.mu.Unlock()
	if err := acquire(ctx, x.o.modelSlot); err != nil {
		return Result{}, err
	}
	x.guard(&req)
	res, err := x.o.rt.Model.Execute(ctx, req)
	<-x.o.modelSlot
	model := res.Model
	if model == "" {
		model = req.Model
	}
	if _, priced := x.o.opts.Prices.Lookup(model); !priced && req.Model != "" {
		model = req.Model
	}
	cost := x.o.opts.Prices.Cost(model, res.Usage)
	if len(res.ModelUsage) > 0 {
		cost = 0
		for m, u := range res.ModelUsage {
			cost += x.o.opts.Prices.Cost(m, u)
		}
	}
	x.update(func(r *Run) {
		r.TokensIn += res.Usage.InputTokens
		r.TokensOut += res.Usage.OutputTokens
		r.CostUSD += cost
		if res.Model != "" {
			r.Model = res.Model
		} else if req.Model != "" {
			r.Model = req.Model
		}
		r.ToolCalls = append(r.ToolCalls, res.ToolCalls...)
		r.PromptTokens = append(r.PromptTokens, res.Prompts...)
		for _, n := range res.Notes {
			if !slices.Contains(r.ModelNotes, n) { // the same adaptation on every attempt is one note
				r.ModelNotes = append(r.ModelNotes, n)
			}
		}
	})
	return res, err
}

// guard makes req stop before a request the run's budget (req.Budget
// over the household default) does not allow: what the run booked from
// earlier calls, plus what the server reported in this one, plus the
// estimate of the next request.
func (x *Exec) guard(req *ModelRequest) {
	b := x.o.opts.RunBudget.Merge(req.Budget)
	if b.Unlimited() {
		return
	}
	inner := req.BeforeSend
	req.BeforeSend = func(next, spent Usage) error {
		x.mu.Lock()
		booked := Usage{InputTokens: x.run.TokensIn, OutputTokens: x.run.TokensOut}
		x.mu.Unlock()
		if err := b.check(booked.Add(spent), next); err != nil {
			return err
		}
		if inner != nil {
			return inner(next, spent)
		}
		return nil
	}
}

// heuristic runs the heuristic runtime with planner and records it.
func (x *Exec) heuristic(ctx context.Context, req ModelRequest) (Result, error) {
	end := x.Phase(ctx, PhaseReason)
	defer end()
	x.update(func(r *Run) { r.Attempts++ })
	res, err := x.o.rt.Heuristic.Execute(ctx, req)
	x.mu.Lock()
	asked := x.askedModel
	x.mu.Unlock()
	x.update(func(r *Run) {
		if r.Model == "" {
			r.Model = res.Model
		}
		if !asked {
			r.Prompt = r.Prompt.notSent("heuristic run")
		}
	})
	return res, err
}

// notSent is p marked as never sent, for why (nil stays nil).
func (p *Prompt) notSent(why string) *Prompt {
	if p == nil || p.NotSent != "" {
		return p
	}
	c := *p
	c.NotSent = why
	return &c
}

// BookToolCall records on the run a tool call made outside a model
// runtime (a heuristic that calls tools itself), as a model's calls are.
func (x *Exec) BookToolCall(name string, args json.RawMessage, result any, err error) {
	rc := newRecordedCall(name, args, result, err)
	x.update(func(r *Run) {
		r.ToolCalls = append(r.ToolCalls, ToolCall{Name: name, Args: rc.args, Result: rc.result, Error: rc.err})
	})
}

// Heuristic runs the engine's heuristic runtime on req (its Planner makes
// the output), for drivers that answer without a model (a definition's
// "Try it" with no model configured). The run records the heuristic.
func (x *Exec) Heuristic(ctx context.Context, req ModelRequest) (Result, error) {
	return x.heuristic(ctx, req)
}

// commit ends a successful run in one transaction: the staged writes
// (applied only when applyStaged, i.e. the output is the model's accepted
// one; otherwise recorded as discarded), then write (an assignment's Act,
// a chat reply; may be nil), then every loaded memory, then also (the
// driver's own bookkeeping, e.g. a workflow step's checkpoint, timed in no
// phase; may be nil), then the run row as succeeded (fell_back with a
// fallback reason). AfterCommit hooks of the
// writes run once it committed.
func (x *Exec) commit(ctx context.Context, applyStaged bool, write, also func(tx *store.Tx) error) error {
	x.mu.Lock()
	done := x.committed
	x.mu.Unlock()
	if done {
		return apperr.New(apperr.Conflict, "the run has already committed")
	}
	end := x.phase(ctx, PhaseAct, false)
	var final Run
	err := x.o.db.Tx(ctx, func(tx *store.Tx) error {
		var effects []EffectOutcome
		if applyStaged {
			var err error
			if effects, err = x.stage.Apply(ctx, tx, x.run.ID, store.FormatTime(x.o.now())); err != nil {
				return err
			}
		} else if x.stage.Len() > 0 {
			effects = x.stage.discard("the run's output is not the model's (" + x.snapshot().FallbackReason + ")")
		}
		if write != nil {
			if err := write(tx); err != nil {
				return err
			}
		}
		end()
		end = x.phase(ctx, PhaseSaveMemory, true)
		x.mu.Lock()
		mems := maps.Clone(x.mems)
		x.mu.Unlock()
		for _, id := range slices.Sorted(maps.Keys(mems)) {
			skipped, err := x.o.memory.Save(ctx, tx, mems[id], RunActor(x.run.ID), x.run.ID)
			if err != nil {
				return err
			}
			if len(skipped) > 0 {
				x.o.log.Warn("agent: memory full; keys not saved", "run", x.run.ID, "memory", id, "keys", skipped)
			}
		}
		end()
		end = func() {}
		if also != nil { // the caller's own write (a checkpoint), outside the phases
			if err := also(tx); err != nil {
				return err
			}
		}
		final = x.o.succeed(x.snapshot())
		final.Effects = append(final.Effects, effects...) // after any discarded earlier (discardStaged)
		return x.o.runs.save(ctx, tx, &final)
	})
	end()
	if err != nil {
		return err
	}
	x.update(func(r *Run) { *r = final })
	x.mu.Lock()
	x.committed = true
	x.mu.Unlock()
	return nil
}

// Committed reports whether the run has committed (its driver did, with
// Commit or Phases.Act): the engine then only records it as it stands.
func (x *Exec) Committed() bool {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.committed
}

// Commit ends a driven run (Orchestrator.Execute) from inside its driver,
// in one transaction: the writes the model's tools staged (unless the run
// fell back to the heuristic), write (the driver's own, e.g. a workflow
// step's domain write and checkpoint; may be nil), every loaded memory and
// the run row. Execute then does not commit again. A run commits once.
func (x *Exec) Commit(ctx context.Context, write func(tx *store.Tx) error) error {
	return x.commit(ctx, x.snapshot().FallbackReason == "", write, nil)
}

// correction is the user message that sends invalid output back.
func correction(errs []ValidationError, schema bool) string {
	ask := "Reply again with these problems fixed."
	if schema {
		ask = "Return the corrected JSON document only, matching the schema."
	}
	return "Your previous output failed validation.\n\n## Errors\n" + FormatValidationErrors(errs) + "\n" + ask
}

// SummarizeErrors shortens validation errors (at most three, then a count)
// for a run's error or fallback reason.
func SummarizeErrors(errs []ValidationError) string {
	parts := make([]string, 0, 3)
	for i, e := range errs {
		if i == 3 {
			parts = append(parts, fmt.Sprintf("and %d more", len(errs)-3))
			break
		}
		parts = append(parts, e.String())
	}
	return strings.Join(parts, "; ")
}
