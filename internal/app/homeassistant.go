package app

import (
	"context"

	"hearth/internal/homeassistant"
)

// homeAssistant is the Home Assistant client for the settings in force
// now (homeassistant.Connect), or homeassistant.ErrNotConfigured.
func (a *App) homeAssistant(ctx context.Context) (*homeassistant.Client, error) {
	return homeassistant.New(homeassistant.Config{URL: a.cfg.HAURL, Token: a.cfg.HAToken})
}
