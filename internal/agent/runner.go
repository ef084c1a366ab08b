package agent

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hearth/internal/store"
	"strings"
	"time"
)

// startRunning marks r running and records the start time.
func (o *Orchestrator) startRunning(ctx context.Context, r *Run) error {
	now := o.now().UTC()
	r.Status, r.StartedAt = StatusRunning, &now
	return o.runs.save(ctx, o.db.Write, r)
}

// phase records that r entered phase (persisted and published unless inTx,
// where the writer connection is taken) and returns the function that ends
// it and adds its duration to the run's timings.
func (o *Orchestrator) phase(ctx context.Context, r *Run, name string, inTx bool) func() {
	r.Phase = name
	if !inTx {
		if err := o.runs.save(ctx, o.db.Write, r); err != nil {
			o.log.Warn("agent: record run phase", "run", r.ID, "phase", name, "err", err)
		}
	}
	o.publish(r)
	start := time.Now()
	return func() { r.addTiming(name, time.Since(start)) }
}

// runAssignment is the assignment template:
// load memory → prune → gather → prompt → reason → validate → act → save memory.
func (o *Orchestrator) runAssignment(ctx context.Context, reg *registered, ca *compiledAssignment, r *Run) error {
	if err := o.startRunning(ctx, r); err != nil {
		return err
	}
	scope := Scope{AgentID: r.Agent, MemberID: r.Member, RunID: r.ID, Now: o.now()}

	end := o.phase(ctx, r, PhaseLoadMemory, false)
	mem, err := o.memory.Load(ctx, r.Agent, r.Member)
	end()
	if err != nil {
		return err
	}
	end = o.phase(ctx, r, PhasePrune, false)
	mem.Prune()
	end()
	scope.Memory = mem

	end = o.phase(ctx, r, PhaseGather, false)
	gathered, err := ca.a.Gather(ctx, &Env{Scope: scope, Memory: mem, Tools: reg.tools})
	end()
	if err != nil {
		return fmt.Errorf("gather: %w", err)
	}

	end = o.phase(ctx, r, PhasePrompt, false)
	p, err := ca.a.Prompt(ctx, gathered, mem)
	if err == nil {
		p.System = joinNonEmpty("\n\n", reg.def.SystemPrompt, p.System)
		r.Prompt = &p
		r.InputHash, err = inputHash(p.System, gathered, mem)
	}
	end()
	if err != nil {
		return fmt.Errorf("prompt: %w", err)
	}

	res, err := o.reason(ctx, reg, ca, r, scope, gathered, mem)
	if err != nil {
		return err
	}
	r.Output = res.output
	return o.act(ctx, ca, r, &ActEnv{Scope: scope, Gathered: gathered, Output: res.output, Memory: mem,
		Source: res.source, FallbackReason: r.FallbackReason})
}

// act runs the assignment's Act, saves memory and records the run's success
// in one transaction, then runs the after-commit hooks.
func (o *Orchestrator) act(ctx context.Context, ca *compiledAssignment, r *Run, env *ActEnv) error {
	end := o.phase(ctx, r, PhaseAct, false)
	final := *r
	err := o.db.Tx(ctx, func(tx *store.Tx) error {
		if err := ca.a.Act(ctx, tx, env); err != nil {
			return fmt.Errorf("act: %w", err)
		}
		end()
		end = o.phase(ctx, r, PhaseSaveMemory, true)
		if err := o.memory.Save(ctx, tx, env.Memory, RunActor(r.ID), r.ID); err != nil {
			return err
		}
		end()
		end = func() {}
		final = o.succeed(*r)
		return o.runs.save(ctx, tx, &final)
	})
	end()
	if err != nil {
		return err
	}
	*r = final
	for _, fn := range env.afterCommit {
		fn()
	}
	return nil
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
