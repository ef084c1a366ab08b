package app

import (
	"context"

	"hearth/internal/importer"
)

// markImportsInterrupted turns imports a crash left 'running' into
// 'interrupted'; their records were never committed (one transaction per
// file). A CLI import holding the write lock right now must not stop the
// server from starting, so a failure is only logged.
func (a *App) markImportsInterrupted(ctx context.Context) error {
	n, err := importer.MarkInterrupted(ctx, a.DB)
	if err != nil {
		a.log.Warn("could not mark interrupted imports (is a CLI import running?)", "err", err)
		return nil
	}
	if n > 0 {
		a.log.Warn("imports interrupted by the last shutdown", "count", n)
	}
	return nil
}
