package schedule

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"hearth/internal/testkit"
)

// A system job runs once at start and then every interval on the
// service's clock (the sensors poll is one).
func TestEveryRunsAtStartAndThenEachInterval(t *testing.T) {
	h := newHarness(t)
	if err := h.svc.Every("early", time.Minute, func(context.Context) {}); err == nil {
		t.Error("Every before Start was accepted")
	}
	h.start()
	var runs atomic.Int32
	if err := h.svc.Every("poll", 15*time.Minute, func(ctx context.Context) {
		if ctx.Err() == nil {
			runs.Add(1)
		}
	}); err != nil {
		t.Fatal(err)
	}
	testkit.WaitFor(t, testkit.Patience, "the first run, at once", func() bool { return runs.Load() == 1 })
	next := h.clock.Now().Add(15 * time.Minute)
	testkit.WaitFor(t, testkit.Patience, "the next run armed 15 minutes on", func() bool { return h.nextRunOf("poll").Equal(next) })
	if n := runs.Load(); n != 1 {
		t.Errorf("runs before the interval = %d, want 1", n)
	}
	h.clock.Advance(15 * time.Minute)
	testkit.WaitFor(t, testkit.Patience, "the run 15 minutes later", func() bool { return runs.Load() == 2 })
}

// nextRunOf is when the named system job runs next (zero: not armed).
func (h *harness) nextRunOf(name string) time.Time {
	h.svc.mu.Lock()
	defer h.svc.mu.Unlock()
	for _, j := range h.svc.sched.Jobs() {
		if j.Name() == name {
			if at, err := j.NextRun(); err == nil {
				return at
			}
		}
	}
	return time.Time{}
}
