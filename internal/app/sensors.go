package app

import (
	"context"
	"errors"

	"hearth/internal/homeassistant"
	"hearth/internal/sensors"
)

// buildSensors makes the Home Assistant sensor poller (Admin →
// Integrations → Sensors); it reads the settings in force at each poll.
func (a *App) buildSensors() {
	a.Sensors = sensors.New(a.DB, a.homeAssistant, a.cfg.Location, a.Hub, a.log)
}

// startSensors polls the mapped sensors at start and every
// sensors.Every on the scheduler. A poll's failures are recorded on the
// mappings and logged by the service when they start and end.
func (a *App) startSensors() error {
	return a.Schedule.Every("sensors-poll", sensors.Every, func(ctx context.Context) {
		if _, err := a.Sensors.Poll(ctx); err != nil && !errors.Is(err, homeassistant.ErrNotConfigured) && ctx.Err() == nil {
			a.log.Warn("sensors: poll", "err", err)
		}
	})
}
