package app

import (
	"context"
	"io"

	"hearth/internal/importer"
	"hearth/internal/live"
	"hearth/internal/store"
)

// imports adapts the importer package to the admin upload page and tells
// the member's screens when records arrived.
type imports struct {
	db  *store.DB
	pub live.Publisher
}

func (i imports) Import(ctx context.Context, o importer.Options, name string, r io.ReaderAt, size int64) (importer.Summary, error) {
	sum, err := importer.Import(ctx, i.db, o, name, r, size)
	if err == nil && sum.Added > 0 && i.pub != nil {
		i.pub.Publish(live.MemberTopic(o.Member), live.KindImport, nil)
		i.pub.Publish(live.TopicHousehold, live.KindImport, o.Member)
	}
	return sum, err
}

func (i imports) Recent(ctx context.Context, member string, limit int) ([]importer.Run, error) {
	return importer.ListRuns(ctx, i.db, member, limit)
}

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
