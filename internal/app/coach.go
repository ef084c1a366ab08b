package app

import (
	"context"
	"fmt"

	"hearth/internal/coach"
)

// registerAgents registers the built-in agents and creates their default
// schedules (daily dashboard at 04:00, heartbeat) on first start.
func (a *App) registerAgents(ctx context.Context) error {
	deps := coach.Deps{DB: a.DB, Catalog: a.Catalog, Programs: a.Programs, Dashboards: a.Dashboards,
		Schedule: a.Schedule.AgentTools(), Location: a.cfg.Location, Logger: a.log}
	if a.coachTuning != nil {
		deps.Tuning = a.coachTuning
	}
	if err := a.Agents.Register(coach.New(deps)); err != nil {
		return fmt.Errorf("app: register coach: %w", err)
	}
	if err := a.Schedule.EnsureDefault(ctx); err != nil {
		return fmt.Errorf("app: default schedules: %w", err)
	}
	return nil
}
