package agent

import (
	"context"
	"encoding/json"
	"fmt"

	"hearth/internal/apperr"
	"hearth/internal/store"
)

// Phases are a registered assignment's phases, one call each, for code that
// drives a run in steps of its own (a workflow whose steps are gather,
// reason, validate and act). They are the code an assignment run executes
// (runAssignment calls them in order), so a driven run does exactly what
// the assignment does: the same memory, gather, prompt, reuse, reasoning
// loop, fallback and commit.
type Phases struct {
	o   *Orchestrator
	reg *registered
	ca  *compiledAssignment
}

// GatheredCodec is an assignment whose gathered data can be saved between
// steps: EncodeGathered turns what Gather returned into JSON (all of it,
// including what its own JSON leaves out) and DecodeGathered turns that
// back into the same value, so a workflow resumed after a restart
// continues from the stored facts.
type GatheredCodec interface {
	EncodeGathered(gathered any) (json.RawMessage, error)
	DecodeGathered(ctx context.Context, raw json.RawMessage) (any, error)
}

// Reasoned is a validated output and where it came from: SourceModel,
// SourceHeuristic or SourceReuse, with the fallback reason when the
// heuristic stood in for the model.
type Reasoned struct {
	Output         json.RawMessage `json:"output"`
	Source         string          `json:"source"`
	FallbackReason string          `json:"fallback_reason,omitempty"`
}

// Phases returns the phases of agentID's assignment; NotFound if either is
// not registered.
func (o *Orchestrator) Phases(agentID, assignmentID string) (*Phases, error) {
	reg, ca, err := o.assignment(agentID, assignmentID)
	if err != nil {
		return nil, err
	}
	return &Phases{o: o, reg: reg, ca: ca}, nil
}

// Agent is the agent the phases belong to.
func (p *Phases) Agent() string { return p.reg.def.ID }

// Assignment is the assignment's id.
func (p *Phases) Assignment() string { return p.ca.a.ID() }

// OutputSchema is the assignment's output schema.
func (p *Phases) OutputSchema() map[string]any { return p.ca.output.Schema }

// memory returns the run's memory of the agent, recording the load_memory
// and prune phases when this is its first load in the run.
func (p *Phases) memory(ctx context.Context, x *Exec) (*Memory, error) {
	x.mu.Lock()
	mem, loaded := x.mems[p.reg.def.ID]
	x.mu.Unlock()
	if loaded {
		return mem, nil
	}
	end := x.Phase(ctx, PhaseLoadMemory)
	mem, err := x.Memory(ctx, p.reg.def.ID)
	end()
	if err != nil {
		return nil, err
	}
	x.Phase(ctx, PhasePrune)() // Memory pruned it on load
	return mem, nil
}

// Gather loads the agent's working memory (once per run) and gathers the
// facts (the load_memory, prune and gather phases). Gather reads only: its
// tools cannot stage writes.
func (p *Phases) Gather(ctx context.Context, x *Exec) (any, error) {
	mem, err := p.memory(ctx, x)
	if err != nil {
		return nil, err
	}
	end := x.Phase(ctx, PhaseGather)
	gathered, err := p.ca.a.Gather(ctx, &Env{Scope: x.readScope(p.reg.def.ID, mem), Memory: mem, Tools: p.reg.tools})
	end()
	if err != nil {
		return nil, fmt.Errorf("gather: %w", err)
	}
	return gathered, nil
}

// EncodeGathered turns gathered data into JSON for a checkpoint; Invalid
// when the assignment cannot (it does not implement GatheredCodec).
func (p *Phases) EncodeGathered(gathered any) (json.RawMessage, error) {
	d, err := p.codec()
	if err != nil {
		return nil, err
	}
	return d.EncodeGathered(gathered)
}

// DecodeGathered turns a checkpoint back into what Gather returned.
func (p *Phases) DecodeGathered(ctx context.Context, raw json.RawMessage) (any, error) {
	d, err := p.codec()
	if err != nil {
		return nil, err
	}
	return d.DecodeGathered(ctx, raw)
}

func (p *Phases) codec() (GatheredCodec, error) {
	d, ok := p.ca.a.(GatheredCodec)
	if !ok {
		return nil, apperr.Invalidf("assignment %s/%s cannot save its gathered data between steps", p.reg.def.ID, p.ca.a.ID())
	}
	return d, nil
}

// Reason renders the prompt and produces a validated output (the prompt,
// reason and validate phases): the last output again when the input is
// unchanged, else the model through the engine's loop, else the heuristic
// planner, recording why on the run.
func (p *Phases) Reason(ctx context.Context, x *Exec, gathered any) (Reasoned, error) {
	mem, err := p.memory(ctx, x)
	if err != nil {
		return Reasoned{}, err
	}
	end := x.Phase(ctx, PhasePrompt)
	pr, err := p.ca.a.Prompt(ctx, gathered, mem)
	var (
		hash  string
		shape *Shape
	)
	if sh, ok := p.ca.a.(Shaper); ok && err == nil {
		var serr error
		if shape, serr = sh.Shape(ctx, x, mem, pr); serr != nil {
			// A definition that cannot run (a tool or context type gone)
			// does not cost the member their run: the heuristic answers.
			shape = &Shape{Err: serr}
		}
	}
	if err == nil {
		fingerprint := ""
		if shape != nil {
			pr.System = joinNonEmpty("\n\n", pr.System, shape.System)
			fingerprint = shape.Fingerprint
		}
		pr.System = joinNonEmpty("\n\n", p.reg.def.SystemPrompt, pr.System)
		x.SetPrompt(pr)
		hash, err = inputHash(pr.System+fingerprint, gathered, mem)
		x.update(func(r *Run) { r.InputHash = hash })
	}
	end()
	if err != nil {
		return Reasoned{}, fmt.Errorf("prompt: %w", err)
	}
	res, err := p.o.reason(ctx, p.reg, p.ca, x, pr, gathered, mem, shape)
	if err != nil {
		return Reasoned{}, err
	}
	x.update(func(r *Run) { r.Output = res.output })
	return Reasoned{Output: res.output, Source: res.source, FallbackReason: x.snapshot().FallbackReason}, nil
}

// Validate checks an output against the assignment's schema and domain
// rules again (the validate phase), for an output that waited between
// steps: what was valid then may not be now (a catalog item removed).
func (p *Phases) Validate(ctx context.Context, x *Exec, gathered any, output json.RawMessage) []ValidationError {
	end := x.Phase(ctx, PhaseValidate)
	defer end()
	errs := p.ca.schema.Validate(output)
	if len(errs) == 0 {
		errs = p.ca.a.ValidateDomain(ctx, gathered, output)
	}
	return errs
}

// Plan is the heuristic planner's output, validated (for a validate step
// whose output went stale): the run records that it fell back, and why.
func (p *Phases) Plan(ctx context.Context, x *Exec, gathered any, why string) (Reasoned, error) {
	mem, err := p.memory(ctx, x)
	if err != nil {
		return Reasoned{}, err
	}
	res, err := p.o.plan(ctx, p.ca, x, Prompt{}, gathered, mem, why)
	if err != nil {
		return Reasoned{}, err
	}
	x.update(func(r *Run) { r.Output = res.output })
	return Reasoned{Output: res.output, Source: res.source, FallbackReason: why}, nil
}

// Act writes the output and ends the run (the act and save_memory phases):
// in one transaction the writes the model's tools staged (only when the
// output is the model's), the assignment's Act, every loaded memory, also
// (the caller's own write, e.g. a workflow step's checkpoint, in no phase;
// may be nil) and the run row.
func (p *Phases) Act(ctx context.Context, x *Exec, gathered any, r Reasoned, also func(tx *store.Tx) error) error {
	mem, err := p.memory(ctx, x)
	if err != nil {
		return err
	}
	if r.FallbackReason != "" && x.snapshot().FallbackReason == "" {
		x.MarkFellBack(r.FallbackReason) // decided by an earlier attempt of the step
	}
	x.update(func(run *Run) { run.Output = r.Output })
	act := &ActEnv{Scope: x.Scope(p.reg.def.ID, mem), Gathered: gathered, Output: r.Output, Memory: mem,
		Source: r.Source, FallbackReason: r.FallbackReason}
	return x.commit(ctx, r.Source == SourceModel, func(tx *store.Tx) error {
		if err := p.ca.a.Act(ctx, tx, act); err != nil {
			return fmt.Errorf("act: %w", err)
		}
		for _, fn := range act.afterCommit {
			tx.AfterCommit(fn)
		}
		return nil
	}, also)
}
