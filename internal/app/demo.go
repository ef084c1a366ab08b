package app

import "context"

// seedDemo fills an empty database with the demo household.
func (a *App) seedDemo(ctx context.Context) error {
	return nil
}
