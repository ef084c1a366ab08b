package app

import (
	"context"
	"math/rand/v2"
	"time"

	"hearth/internal/demo"
)

// seedDemo fills an empty database with the demo household. A database that
// already has members is never touched.
func (a *App) seedDemo(ctx context.Context) (bool, error) {
	now := time.Now()
	seeded, err := demo.Seed(ctx, a.DB, now, a.cfg.Location, rand.New(rand.NewPCG(uint64(now.Unix()), 2026)))
	if err != nil {
		return false, err
	}
	if seeded {
		a.log.Info("demo household seeded")
	}
	return seeded, nil
}
