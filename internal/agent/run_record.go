package agent

import "context"

// Create records r as a new queued run and sets its id, status and creation
// time. It is for runs executed outside the orchestrator (declarative
// invokes, see internal/agent/definition); an unknown member is NotFound.
func (s *RunStore) Create(ctx context.Context, r *Run) error {
	return s.create(ctx, s.db.Write, r)
}

// Save writes every mutable column of r (status, phase, timings, usage,
// output, …); runs executed outside the orchestrator use it to record their
// progress and outcome.
func (s *RunStore) Save(ctx context.Context, r *Run) error {
	return s.save(ctx, s.db.Write, r)
}
