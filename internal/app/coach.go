package app

import "context"

// registerAgents registers the built-in agents and creates their default
// schedules on first start.
func (a *App) registerAgents(ctx context.Context) error {
	return nil
}
