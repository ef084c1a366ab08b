package schedule

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/go-co-op/gocron/v2"
)

// Every runs fn every d on the scheduler's engine (its clock), once now
// and then every d, as a system job beside the sweep: not a task, not
// in the ledger. A run still going when the next is due is not doubled
// (the next waits). fn gets a context that ends when the service stops.
// Call it after Start.
func (s *Service) Every(name string, d time.Duration, fn func(ctx context.Context)) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sched == nil {
		return errors.New("schedule: Every before Start (or after Stop)")
	}
	ctx := s.runCtx
	_, err := s.sched.NewJob(gocron.DurationJob(d), gocron.NewTask(func() { fn(ctx) }),
		gocron.WithName(name), gocron.WithTags("system"), gocron.WithStartAt(gocron.WithStartImmediately()),
		gocron.WithSingletonMode(gocron.LimitModeReschedule))
	if err != nil {
		return fmt.Errorf("schedule: job %s: %w", name, err)
	}
	return nil
}
