package coach

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"hearth/internal/agent"
	"hearth/internal/store"
	"hearth/internal/workflow"
)

// DailyDashboardWorkflowID names the daily-dashboard assignment as a
// workflow.
const DailyDashboardWorkflowID = "daily-dashboard"

// reasonedStep is what the reason and validate steps pass on: the
// document, where it came from, and the engine run that produced it.
type reasonedStep struct {
	agent.Reasoned
	Run int64 `json:"run"`
}

// actedStep is the act step's output.
type actedStep struct {
	Date   string `json:"date"`
	Source string `json:"source"`
	Run    int64  `json:"run"`
}

var (
	reasonedSchema = map[string]any{
		"type": "object", "required": []string{"output", "source", "run"},
		"properties": map[string]any{
			"output": map[string]any{"type": "object"},
			"source": map[string]any{"enum": []string{agent.SourceModel, agent.SourceHeuristic, agent.SourceReuse}},
			"run":    map[string]any{"type": "integer", "minimum": 1},
		},
	}
	actedSchema = map[string]any{
		"type": "object", "required": []string{"date", "source", "run"}, "additionalProperties": false,
		"properties": map[string]any{
			"date":   map[string]any{"type": "string", "pattern": `^\d{4}-\d{2}-\d{2}$`},
			"source": map[string]any{"type": "string"},
			"run":    map[string]any{"type": "integer"},
		},
	}
	gatheredSchema = map[string]any{"type": "object", "required": []string{"gathered", "now"}}
	noInput        = map[string]any{"type": "object", "additionalProperties": false}
)

// gatheredCache keeps the gathered value an attempt produced, by engine
// run, so the steps after gather in the same attempt need not decode it;
// after a restart they decode the stored checkpoint.
type gatheredCache struct {
	mu sync.Mutex
	m  map[int64]any
}

func (c *gatheredCache) put(run int64, g any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) >= 16 { // attempts that failed before act: drop them
		clear(c.m)
	}
	c.m[run] = g
}

func (c *gatheredCache) take(run int64, keep bool) (any, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	g, ok := c.m[run]
	if !keep {
		delete(c.m, run)
	}
	return g, ok
}

// DailyDashboardWorkflow is the daily-dashboard assignment as a durable
// workflow: gather → reason → validate → act. Each step is a phase of the
// assignment run on the agent engine through p (agent.Phases), so it
// writes the same document, with the same memory, ledger row, budget and
// fallbacks; what the steps add is that each one's result is stored, so a
// run killed mid-way continues from its last completed step. An attempt
// is one engine run labelled daily-dashboard, so it never runs beside the
// assignment for the same member. validate checks again a document made
// by an earlier attempt (the catalog may have changed meanwhile) and falls
// back to the heuristic plan when it no longer holds; act writes the
// document and records its own success in the same transaction.
func DailyDashboardWorkflow(p *agent.Phases) (*workflow.Workflow, error) {
	cache := &gatheredCache{m: map[int64]any{}}
	gathered := func(ctx context.Context, c *workflow.Context, raw json.RawMessage, keep bool) (any, error) {
		if g, ok := cache.take(c.Exec().RunID(), keep); ok {
			return g, nil
		}
		if raw == nil {
			var ok bool
			if raw, ok = c.Result("gather"); !ok {
				return nil, fmt.Errorf("no stored result of the gather step")
			}
		}
		g, err := p.DecodeGathered(ctx, raw)
		if err == nil && keep {
			cache.put(c.Exec().RunID(), g)
		}
		return g, err
	}
	gather := &workflow.Step{ID: "gather", Description: "Load the coach's memory and gather the member's facts through its tools",
		Input: noInput, Output: gatheredSchema,
		Run: func(ctx context.Context, c *workflow.Context) (any, error) {
			x := c.Exec()
			g, err := p.Gather(ctx, x)
			if err != nil {
				return nil, err
			}
			cache.put(x.RunID(), g)
			return p.EncodeGathered(g)
		}}
	reason := &workflow.Step{ID: "reason", Description: "Write the day's document: the model through the engine's loop, or the heuristic coach",
		Input: gatheredSchema, Output: reasonedSchema,
		Run: func(ctx context.Context, c *workflow.Context) (any, error) {
			x := c.Exec()
			g, err := gathered(ctx, c, c.Input(), true)
			if err != nil {
				return nil, err
			}
			r, err := p.Reason(ctx, x, g)
			return reasonedStep{Reasoned: r, Run: x.RunID()}, err
		}}
	validate := &workflow.Step{ID: "validate", Description: "Check a document that waited across a restart again (schema, catalog, facts)",
		Input: reasonedSchema, Output: reasonedSchema,
		Run: func(ctx context.Context, c *workflow.Context) (any, error) {
			var r reasonedStep
			if err := c.Decode(&r); err != nil {
				return nil, err
			}
			x := c.Exec()
			if r.Run == x.RunID() {
				return r, nil // the reasoning loop checked it in this attempt
			}
			g, err := gathered(ctx, c, nil, true)
			if err != nil {
				return nil, err
			}
			if errs := p.Validate(ctx, x, g, r.Output); len(errs) > 0 {
				plan, err := p.Plan(ctx, x, g, "stale_output: "+agent.SummarizeErrors(errs))
				return reasonedStep{Reasoned: plan, Run: x.RunID()}, err
			}
			return r, nil
		}}
	act := &workflow.Step{ID: "act", Description: "Write the document, program changes, notes and memory in one transaction",
		Input: reasonedSchema, Output: actedSchema,
		Run: func(ctx context.Context, c *workflow.Context) (any, error) {
			var r reasonedStep
			if err := c.Decode(&r); err != nil {
				return nil, err
			}
			x := c.Exec()
			g, err := gathered(ctx, c, nil, false)
			if err != nil {
				return nil, err
			}
			gg, ok := g.(*Gathered)
			if !ok {
				return nil, errGathered
			}
			out := actedStep{Date: gg.Date, Source: r.Source, Run: x.RunID()}
			err = p.Act(ctx, x, g, r.Reasoned, func(tx *store.Tx) error { return c.Complete(ctx, tx, out) })
			return out, err
		}}
	return workflow.New(DailyDashboardWorkflowID, "Prepare the member's dashboard for today, step by step; a run interrupted by a crash continues from its last completed step.").
		Schemas(noInput, actedSchema, nil).
		Engine(AgentID, DailyDashboardID).Single().
		Then(gather).Then(reason).Then(validate).Then(act).Commit()
}
