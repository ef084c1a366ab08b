package sensors

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"hearth/internal/homeassistant"
	"hearth/internal/live"
	"hearth/internal/store"
)

// FirstPoll is how far back a mapping's first poll reads.
const FirstPoll = 30 * 24 * time.Hour

// Every is how often the app polls.
const Every = 15 * time.Minute

// Service holds the mappings and polls them.
type Service struct {
	db      *store.DB
	connect homeassistant.Connect
	loc     *time.Location // the household's days (steps and sleep figures)
	pub     live.Publisher // nil: no live updates
	log     *slog.Logger

	mu sync.Mutex // one poll at a time (the schedule and "Poll now")
	// failing is each mapping's state (failing or not) at its last poll,
	// and under key 0 whether Home Assistant was unconfigured, so a
	// failure is logged when it starts and when it ends, not every 15
	// minutes (its text, which names the period read, changes each time).
	failing map[int64]bool
}

// New returns the service; connect gives a client for the settings in
// force (homeassistant.ErrNotConfigured when none are set).
func New(db *store.DB, connect homeassistant.Connect, loc *time.Location, pub live.Publisher, log *slog.Logger) *Service {
	if loc == nil {
		loc = time.Local
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Service{db: db, connect: connect, loc: loc, pub: pub, log: log, failing: map[int64]bool{}}
}

// Configured reports whether Home Assistant's URL and token are set (not
// whether it answers).
func (s *Service) Configured(ctx context.Context) bool {
	_, err := s.connect(ctx)
	return err == nil
}

// noteState logs a change of a mapping's (or, for id 0, the
// connection's) state: the first failure and the recovery.
func (s *Service) noteState(id int64, entity string, err error) {
	was, seen := s.failing[id]
	s.failing[id] = err != nil
	switch {
	case err != nil && !was:
		s.log.Warn("sensors: poll failed", "mapping", id, "entity", entity, "err", err.Error())
	case err == nil && was && seen:
		s.log.Info("sensors: poll works again", "mapping", id, "entity", entity)
	}
}
