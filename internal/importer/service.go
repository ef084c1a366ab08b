package importer

import (
	"context"
	"io"
	"time"

	"hearth/internal/live"
	"hearth/internal/store"
)

// Service imports files into this process's database and tells the live
// screens (the admin upload page); the CLI calls Import directly.
type Service struct {
	db       *store.DB
	pub      live.Publisher
	loc      *time.Location
	maxBytes int64 // 0: DefaultMaxBytes
}

// NewService returns a Service over db publishing to pub (nil: none); loc
// is the household time zone for CSV times without an offset.
func NewService(db *store.DB, pub live.Publisher, loc *time.Location) *Service {
	return &Service{db: db, pub: pub, loc: loc}
}

// WithMaxBytes caps every import's uncompressed size (HEARTH_IMPORT_MAX_BYTES).
func (s *Service) WithMaxBytes(n int64) *Service {
	s.maxBytes = n
	return s
}

// Import is Import with the service's publisher (and time zone, unless
// opts has one).
func (s *Service) Import(ctx context.Context, opts Options, name string, r io.ReaderAt, size int64) (Summary, error) {
	opts.Publisher = s.pub
	if opts.MaxBytes == 0 {
		opts.MaxBytes = s.maxBytes
	}
	if opts.Location == nil {
		opts.Location = s.loc
	}
	return Import(ctx, s.db, opts, name, r, size)
}

// Recent lists the member's latest imports.
func (s *Service) Recent(ctx context.Context, member string, limit int) ([]Run, error) {
	return ListRuns(ctx, s.db, member, limit)
}
