package workflow

import (
	"context"

	"hearth/internal/agent"
	"hearth/internal/apperr"
)

var _ agent.Durable = (*Runtime)(nil)

// StartDurable runs an assignment as the workflow bound to it
// (agent.Durable; the engine routes the assignment here on every path
// once Orchestrator.SetDurable names this runtime): it starts the run for
// req.Member and returns the engine run of its attempt, queued, so callers
// follow it like an assignment run (Orchestrator.Wait). A Single workflow
// already running for the member is joined: the engine run of its current
// attempt is returned. NotFound when no registered workflow is bound to
// (req.Agent, req.Assignment).
func (rt *Runtime) StartDurable(ctx context.Context, req agent.Request) (agent.Run, error) {
	w, err := rt.boundTo(req.Agent, req.Assignment)
	if err != nil {
		return agent.Run{}, err
	}
	trig, err := triggerOf(req.Trigger)
	if err != nil {
		return agent.Run{}, err
	}
	_, a, err := rt.start(ctx, StartRequest{Workflow: w.ID, Member: req.Member, Trigger: trig, Origin: req.Origin})
	switch {
	case a == nil && err == nil:
		return agent.Run{}, apperr.New(apperr.Conflict, "the workflow runtime is shutting down")
	case err != nil && !(a != nil && apperr.Is(err, apperr.Conflict)):
		return agent.Run{}, err
	}
	select {
	case <-a.attempt:
		return a.eng, a.engErr
	case <-ctx.Done():
		return agent.Run{}, ctx.Err()
	}
}

// boundTo returns the first registered workflow whose attempts run as
// (agentID, assignment) on the engine.
func (rt *Runtime) boundTo(agentID, assignment string) (*Workflow, error) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	for _, id := range rt.order {
		if w := rt.flows[id]; w.Agent == agentID && w.Assignment == assignment && agentID != "" {
			return w, nil
		}
	}
	return nil, apperr.NotFoundf("no workflow runs %s/%s", agentID, assignment)
}

// triggerOf is the workflow trigger of an engine trigger ("" is the API's).
func triggerOf(t agent.Trigger) (Trigger, error) {
	switch t {
	case "", agent.TriggerAPI:
		return TriggerAPI, nil
	case agent.TriggerSchedule:
		return TriggerSchedule, nil
	case agent.TriggerManual:
		return TriggerManual, nil
	case agent.TriggerAgent:
		return TriggerAgent, nil
	case agent.TriggerDemo:
		return TriggerDemo, nil
	}
	return "", apperr.Invalidf("unknown trigger %q", t)
}
