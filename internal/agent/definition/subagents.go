package definition

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"hearth/internal/apperr"
)

// subAgents runs def's pipeline on its output: batches in ascending order,
// the entries of a batch in parallel; each ran entry's composed result goes
// under its key (a non-object output goes under "output"). The first
// failure cancels the rest of its batch and ends the pipeline.
func (inv *invocation) subAgents(ctx context.Context, def *Definition, c call, output, self any) (any, error) {
	if len(def.SubAgents) == 0 {
		return output, nil
	}
	defer inv.x.Timing("sub_agents", time.Now())
	composed := map[string]any{}
	m, isObject := output.(map[string]any)
	if isObject {
		maps.Copy(composed, m)
	} else {
		composed["output"] = output
	}
	for _, batch := range batches(def.SubAgents) {
		// $result and conditions see an object output with the keys of
		// earlier batches, any other output as it is.
		var snapshot any = output
		if isObject {
			snapshot = maps.Clone(composed)
		}
		results := make([]any, len(batch))
		ran := make([]bool, len(batch))
		errs := make([]error, len(batch))
		bctx, cancel := context.WithCancel(ctx)
		var wg sync.WaitGroup
		for i, e := range batch {
			wg.Go(func() {
				results[i], ran[i], errs[i] = inv.subAgent(bctx, def, c, e, snapshot, self)
				if errs[i] != nil {
					cancel()
				}
			})
		}
		wg.Wait()
		cancel()
		if err := firstError(errs); err != nil {
			return nil, err
		}
		for i, e := range batch {
			if ran[i] {
				composed[e.Key] = results[i]
			}
		}
	}
	return composed, nil
}

// subAgent runs one entry unless its condition fails (ran is then false).
func (inv *invocation) subAgent(ctx context.Context, parent *Definition, c call, e SubAgent, result, parentInput any) (any, bool, error) {
	depth := c.depth + 1
	if fails := Evaluate(e.Condition, result); len(fails) > 0 {
		inv.addStep(Step{AgentID: e.AgentID, Key: e.Key, Depth: depth, Skipped: true,
			Notes: []string{"skipped: condition failed: " + summarize(fails)}})
		return nil, false, nil
	}
	chain := append(slices.Clone(c.path), e.AgentID)
	if slices.Contains(c.path, e.AgentID) {
		return nil, false, definitionErr(parent.AgentID, "sub-agents form a cycle: %s", strings.Join(chain, " → "))
	}
	if depth > MaxDepth {
		return nil, false, definitionErr(parent.AgentID, "sub-agents nest deeper than %d levels: %s", MaxDepth, strings.Join(chain, " → "))
	}
	input, missing, err := ResolveInput(e.Input, MappingScope{Result: result, User: inv.user, Extras: inv.extras,
		ParentInput: parentInput, Now: FormatNow(inv.now, inv.r.opts.Location)})
	if err != nil {
		return nil, false, definitionErr(parent.AgentID, "sub-agent %q input: %s", e.Key, err.Error())
	}
	sub, err := inv.r.repo.current(ctx, e.AgentID)
	if err != nil {
		if apperr.Is(err, apperr.NotFound) {
			return nil, false, definitionErr(parent.AgentID, "sub-agent %q: %s", e.Key, err.Error())
		}
		return nil, false, err
	}
	var notes []string
	for _, m := range missing {
		notes = append(notes, "input: "+m+" not found (null)")
	}
	n, idx, err := inv.execute(ctx, sub, call{depth: depth, path: chain, key: e.Key, message: c.message, input: input, notes: notes})
	if err != nil {
		return nil, false, err
	}
	inv.fire(ctx, idx, inv.x.Scope(e.AgentID, nil), e.After, HookEvent{Point: AfterSubAgent, AgentID: e.AgentID, Key: e.Key}, n.composed)
	return n.composed, true, nil
}

// batches groups entries by batch, in ascending batch order (entry order
// within a batch).
func batches(entries []SubAgent) [][]SubAgent {
	sorted := slices.Clone(entries)
	slices.SortStableFunc(sorted, func(a, b SubAgent) int { return a.Batch - b.Batch })
	var out [][]SubAgent
	for i, e := range sorted {
		if i == 0 || e.Batch != sorted[i-1].Batch {
			out = append(out, nil)
		}
		out[len(out)-1] = append(out[len(out)-1], e)
	}
	return out
}

// firstError prefers a real failure over the cancellations it caused.
func firstError(errs []error) error {
	var canceled error
	for _, err := range errs {
		switch {
		case err == nil:
		case errors.Is(err, context.Canceled):
			if canceled == nil {
				canceled = err
			}
		default:
			return err
		}
	}
	return canceled
}
