package agent

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// startRunning marks r running and records the start time.
func (o *Orchestrator) startRunning(ctx context.Context, x *Exec) error {
	now := o.now().UTC()
	x.update(func(r *Run) { r.Status, r.StartedAt = StatusRunning, &now })
	snap := x.snapshot()
	return o.runs.save(ctx, o.db.Write, &snap)
}

// runAssignment is the assignment template, phase by phase (Phases):
// load memory → prune → gather → prompt → reason → validate → act → save memory.
func (o *Orchestrator) runAssignment(ctx context.Context, reg *registered, ca *compiledAssignment, x *Exec) error {
	if err := o.startRunning(ctx, x); err != nil {
		return err
	}
	p := &Phases{o: o, reg: reg, ca: ca}
	gathered, err := p.Gather(ctx, x)
	if err != nil {
		return err
	}
	res, err := p.Reason(ctx, x, gathered)
	if err != nil {
		return err
	}
	return p.Act(ctx, x, gathered, res, nil)
}

// reasoned is a validated output and where it came from.
type reasoned struct {
	output json.RawMessage
	source string
}

// reason produces a validated output: reuse of identical input, else the
// model through the engine's loop, else (without a model, with the budget
// spent, after a model error or invalid replies) the heuristic planner,
// recording why on the run.
func (o *Orchestrator) reason(ctx context.Context, reg *registered, ca *compiledAssignment, x *Exec,
	p Prompt, gathered any, mem *Memory, shape *Shape) (reasoned, error) {
	check := func(source string) func(ctx context.Context, raw string) (any, []ValidationError) {
		return o.check(ca, x, gathered, source)
	}
	// The model's replies pass the schema and domain checks, then the
	// shape's (a definition's rules, its sub-agents, rules on their result).
	modelCheck := func(ctx context.Context, raw string) (any, []ValidationError, error) {
		out, errs := check(SourceModel)(ctx, raw)
		if len(errs) > 0 || shape == nil || shape.Check == nil {
			return out, errs, nil
		}
		errs, err := shape.Check(ctx, out.(json.RawMessage))
		if err != nil || len(errs) > 0 {
			return nil, errs, err
		}
		return out, nil, nil
	}
	heuristic := func(fallback string) (reasoned, error) {
		return o.plan(ctx, ca, x, p, gathered, mem, fallback)
	}

	fallback, err := x.NoModelReason(ctx)
	switch {
	case err != nil:
		return reasoned{}, err
	case fallback == FallbackNoModel:
		return heuristic("")
	}
	if !reg.def.NoReuse {
		if out, ok, err := o.reuse(ctx, x, check(SourceReuse)); err != nil {
			return reasoned{}, err
		} else if ok {
			return reasoned{output: out, source: SourceReuse}, nil
		}
	}
	if fallback != "" {
		return heuristic(fallback)
	}
	if shape != nil && shape.Err != nil {
		o.log.Warn("agent: definition cannot shape the run, using heuristic", "run", x.run.ID, "err", shape.Err)
		return heuristic("definition_error: " + shape.Err.Error())
	}

	settings := reg.def.Model.Merge(p.Model)
	rq := Reasoning{
		ModelRequest: ModelRequest{
			System:        p.System,
			Messages:      []Message{{Role: RoleUser, Content: p.User, Pinned: true}},
			Output:        &ca.output,
			Model:         settings.Model,
			ToolModel:     settings.ToolModel,
			Temperature:   settings.Temperature,
			MaxTokens:     settings.MaxTokens,
			MaxIterations: settings.maxIterations(),
			Memory:        memoryText(mem),
			Budget:        settings.Budget,
		},
		Check:   modelCheck,
		Retries: settings.maxRetries(),
	}
	switch {
	case shape != nil && shape.Tools != nil:
		if len(shape.Tools) > 0 {
			rq.Tools, rq.CallTool = shape.Tools, shape.CallTool
		}
	default:
		box := reg.tools
		if mt, ok := ca.a.(ModelTools); ok {
			if box, err = reg.tools.Only(mt.ModelTools()); err != nil {
				return reasoned{}, fmt.Errorf("reason: the assignment's tools: %w", err)
			}
		}
		if specs := box.Specs(); len(specs) > 0 {
			rq.Tools, rq.CallTool = specs, box.Caller(x.Scope(x.run.Agent, mem))
		}
	}
	if shape != nil && shape.Before != nil {
		shape.Before(ctx)
	}
	out, err := x.Reason(ctx, rq)
	if err == nil && shape != nil && shape.After != nil {
		shape.After(ctx, out.(json.RawMessage))
	}
	var invalid *InvalidOutputError
	var over *RunBudgetError
	switch {
	case err == nil:
		return reasoned{output: out.(json.RawMessage), source: SourceModel}, nil
	case errors.As(err, &over):
		x.note(over.Error())
		return heuristic(FallbackBudget)
	case errors.As(err, &invalid):
		return heuristic("invalid_output: " + invalid.Error())
	case ctx.Err() != nil:
		return reasoned{}, fmt.Errorf("reason: %w", err)
	}
	o.log.Warn("agent: model failed, using heuristic", "run", x.run.ID, "err", err)
	return heuristic("model_error: " + err.Error())
}

// plan is the heuristic planner's validated output; fallback (when not
// "") is recorded on the run as the reason the model's was not used.
func (o *Orchestrator) plan(ctx context.Context, ca *compiledAssignment, x *Exec, p Prompt, gathered any, mem *Memory, fallback string) (reasoned, error) {
	if fallback != "" {
		x.MarkFellBack(fallback)
	}
	planner := func(ctx context.Context) (string, error) {
		v, err := ca.a.Plan(ctx, gathered, mem)
		if err != nil {
			return "", err
		}
		b, err := json.Marshal(v)
		return string(b), err
	}
	res, err := x.heuristic(ctx, ModelRequest{System: p.System, Output: &ca.output, Planner: planner})
	if err != nil {
		return reasoned{}, fmt.Errorf("heuristic plan: %w%s", err, fallbackNote(fallback))
	}
	end := x.Phase(ctx, PhaseValidate)
	out, errs := o.check(ca, x, gathered, SourceHeuristic)(ctx, res.Output)
	end()
	if len(errs) > 0 {
		return reasoned{}, fmt.Errorf("heuristic output invalid: %s%s", SummarizeErrors(errs), fallbackNote(fallback))
	}
	return reasoned{output: out.(json.RawMessage), source: SourceHeuristic}, nil
}

// check validates an output of source against the assignment's schema and
// domain rules and returns it compacted.
func (o *Orchestrator) check(ca *compiledAssignment, x *Exec, gathered any, source string) func(ctx context.Context, raw string) (any, []ValidationError) {
	return func(ctx context.Context, raw string) (any, []ValidationError) {
		doc := ExtractJSON(raw)
		errs := ca.schema.Validate([]byte(doc))
		if len(errs) == 0 {
			errs = ca.a.ValidateDomain(ctx, gathered, json.RawMessage(doc))
		}
		if len(errs) > 0 {
			if source != SourceModel { // the loop books the model's own
				x.invalid(source, raw, errs)
			}
			return nil, errs
		}
		var buf bytes.Buffer
		if err := json.Compact(&buf, []byte(doc)); err != nil {
			return json.RawMessage(doc), nil
		}
		return json.RawMessage(buf.Bytes()), nil
	}
}

// reuse returns the last successful run's output when the input hash matches
// and the output still validates.
func (o *Orchestrator) reuse(ctx context.Context, x *Exec, check func(context.Context, string) (any, []ValidationError)) (json.RawMessage, bool, error) {
	r := x.snapshot()
	last, ok, err := o.runs.lastSucceeded(ctx, r.Agent, r.Assignment, r.Member, r.ID)
	if err != nil || !ok || last.InputHash != r.InputHash || len(last.Output) == 0 {
		return nil, false, err
	}
	end := x.Phase(ctx, PhaseValidate)
	out, errs := check(ctx, string(last.Output))
	end()
	if len(errs) > 0 {
		return nil, false, nil
	}
	src := last.ID
	if last.ReusedFrom != nil {
		src = *last.ReusedFrom
	}
	x.update(func(r *Run) {
		r.ReusedFrom, r.Model = &src, last.Model
		r.Prompt = r.Prompt.notSent(fmt.Sprintf("the same input as run #%d: its output was reused", src))
	})
	return out.(json.RawMessage), true, nil
}

// succeed returns r in its terminal state after a successful write.
func (o *Orchestrator) succeed(r Run) Run {
	now := o.now().UTC()
	r.FinishedAt, r.Phase = &now, ""
	r.Status = StatusSucceeded
	if r.FallbackReason != "" {
		r.Status = StatusFellBack
	}
	return r
}

// inputHash digests what the model would see, for reuse of identical input.
func inputHash(system string, gathered any, mem *Memory) (string, error) {
	g, err := json.Marshal(gathered)
	if err != nil {
		return "", fmt.Errorf("gathered data is not JSON: %w", err)
	}
	h := sha256.New()
	for _, part := range []string{system, string(g), mem.fingerprint()} {
		fmt.Fprintf(h, "%d:", len(part))
		h.Write([]byte(part))
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func joinNonEmpty(sep string, parts ...string) string {
	var keep []string
	for _, p := range parts {
		if strings.TrimSpace(p) != "" {
			keep = append(keep, p)
		}
	}
	return strings.Join(keep, sep)
}

func fallbackNote(reason string) string {
	if reason == "" {
		return ""
	}
	return " (after falling back: " + reason + ")"
}
