package llm

import (
	"context"
	"errors"

	"hearth/internal/agent"
)

// HeuristicModel is the model name recorded for heuristic output.
const HeuristicModel = "heuristic"

// Heuristic is the runtime without a model: it returns what the request's
// Planner (the assignment's heuristic plan, or an agent's canned reply)
// produces. No network, no tokens.
type Heuristic struct{}

var _ agent.Runtime = Heuristic{}

// Execute calls req.Planner.
func (Heuristic) Execute(ctx context.Context, req agent.ModelRequest) (agent.Result, error) {
	res := agent.Result{Model: HeuristicModel}
	if req.Planner == nil {
		return res, errors.New("llm: the heuristic runtime needs a planner")
	}
	out, err := req.Planner(ctx)
	if err != nil {
		return res, err
	}
	res.Output = out
	return res, nil
}
