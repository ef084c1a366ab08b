package app

import (
	"context"
	"io"

	"hearth/internal/importer"
	"hearth/internal/store"
)

// imports adapts the importer package to the admin upload page.
type imports struct{ db *store.DB }

func (i imports) Import(ctx context.Context, o importer.Options, name string, r io.ReaderAt, size int64) (importer.Summary, error) {
	return importer.Import(ctx, i.db, o, name, r, size)
}

func (i imports) Recent(ctx context.Context, member string, limit int) ([]importer.Run, error) {
	return importer.ListRuns(ctx, i.db, member, limit)
}

// markImportsInterrupted turns imports a crash left 'running' into
// 'interrupted'; their records were never committed (one transaction per file).
func (a *App) markImportsInterrupted(ctx context.Context) error {
	n, err := importer.MarkInterrupted(ctx, a.DB)
	if err != nil {
		return err
	}
	if n > 0 {
		a.log.Warn("imports interrupted by the last shutdown", "count", n)
	}
	return nil
}
