package replan

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"hearth/internal/testkit"
)

// recorder is a Run that records each run and can hold one open until
// released, and an After that records what it waited for.
type recorder struct {
	mu     sync.Mutex
	runs   []string // "member" or "member built-in"
	waited []string
	hold   chan struct{} // nil or closed: runs return at once
	inRun  chan string   // each run's member, as it starts
}

func newRecorder() *recorder { return &recorder{inRun: make(chan string, 16)} }

func (r *recorder) run(ctx context.Context, member string, builtIn bool) error {
	r.mu.Lock()
	s := member
	if builtIn {
		s += " built-in"
	}
	r.runs = append(r.runs, s)
	hold := r.hold
	r.mu.Unlock()
	r.inRun <- member
	if hold != nil {
		select {
		case <-hold:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

func (r *recorder) after(_ context.Context, run int64) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.waited = append(r.waited, fmt.Sprint(run))
	return nil
}

func (r *recorder) got() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.runs)
}

// started waits for the next run to start and returns its member.
func (r *recorder) started(t *testing.T) string {
	t.Helper()
	select {
	case m := <-r.inRun:
		return m
	case <-time.After(5 * time.Second):
		t.Fatal("no re-plan started")
		return ""
	}
}

func newTrigger(t *testing.T, rec *recorder, charge func(string) bool) (*Trigger, *clockwork.FakeClock) {
	t.Helper()
	clock := clockwork.NewFakeClock()
	tr := New(Options{Run: rec.run, After: rec.after, Charge: charge, Quiet: time.Second, MaxWait: 3 * time.Second, Clock: clock})
	t.Cleanup(tr.Close)
	return tr, clock
}

// armed fails unless a re-plan timer is still waiting (Advance expires
// timers synchronously, so one that fired is gone when it returns).
func armed(t *testing.T, clock *clockwork.FakeClock) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := clock.BlockUntilContext(ctx, 1); err != nil {
		t.Fatal("no re-plan is waiting: it ran early")
	}
}

// idle waits until the trigger has nothing pending or running for member
// (the run's bookkeeping after Run returned).
func idle(t *testing.T, tr *Trigger, member string) {
	t.Helper()
	testkit.WaitFor(t, testkit.Patience, member+"'s re-plan to finish", func() bool { return !tr.Pending(member) })
}

// A burst of requests (taps on two prompts, a chat line) makes one run,
// once the member has been quiet for Quiet after the last of them.
func TestBurstMakesOneRunAfterQuiet(t *testing.T) {
	rec := newRecorder()
	tr, clock := newTrigger(t, rec, nil)
	tr.Request("theo", 0)
	clock.Advance(900 * time.Millisecond)
	armed(t, clock)
	tr.Request("theo", 0) // quiet starts again
	clock.Advance(900 * time.Millisecond)
	armed(t, clock)
	tr.Request("theo", 0)
	clock.Advance(999 * time.Millisecond)
	armed(t, clock)
	clock.Advance(time.Millisecond)
	if m := rec.started(t); m != "theo" {
		t.Fatalf("ran for %s", m)
	}
	idle(t, tr, "theo")
	if got := rec.got(); !slices.Equal(got, []string{"theo"}) {
		t.Fatalf("runs %v, want one for theo", got)
	}
}

// A member who keeps tapping is re-planned MaxWait after the first
// request, not never.
func TestSteadyRequestsRunByMaxWait(t *testing.T) {
	rec := newRecorder()
	tr, clock := newTrigger(t, rec, nil)
	tr.Request("theo", 0)
	for range 4 { // every 600 ms, each within Quiet of the last
		clock.Advance(600 * time.Millisecond)
		armed(t, clock)
		tr.Request("theo", 0)
	}
	// 3 s after the first request the run starts, though the member's
	// last request was only 600 ms ago.
	clock.Advance(600 * time.Millisecond)
	rec.started(t)
	idle(t, tr, "theo")
	if got := rec.got(); len(got) != 1 {
		t.Fatalf("runs %v, want 1", got)
	}
}

// Requests during a run get one more run after it (the running one may
// have read the records before what was said was stored); runs of one
// member never overlap; other members are independent.
func TestRequestDuringRunGetsOneMoreAfterIt(t *testing.T) {
	rec := newRecorder()
	rec.hold = make(chan struct{})
	tr, clock := newTrigger(t, rec, nil)
	tr.Request("theo", 0)
	clock.Advance(time.Second)
	rec.started(t)
	tr.Request("theo", 0)
	tr.Request("theo", 0)
	tr.Request("maya", 0)
	clock.Advance(time.Second) // maya's quiet second; theo's run holds
	if m := rec.started(t); m != "maya" {
		t.Fatalf("second run for %s, want maya (theo's first is still running)", m)
	}
	close(rec.hold) // let both runs end (and later ones pass)
	// theo's follow-up waits for its own quiet second after the first run.
	testkit.WaitFor(t, testkit.Patience, "theo's follow-up to be armed", func() bool {
		return tr.Pending("theo") && len(rec.got()) == 2
	})
	armed(t, clock)
	clock.Advance(time.Second)
	if m := rec.started(t); m != "theo" {
		t.Fatalf("third run for %s", m)
	}
	idle(t, tr, "theo")
	idle(t, tr, "maya")
	if got := rec.got(); !slices.Equal(got, []string{"theo", "maya", "theo"}) {
		t.Fatalf("runs %v", got)
	}
}

// A request naming a run (the chat turn that heard the member) waits for
// it before re-planning; a member over their model budget is re-planned
// by the built-in coach.
func TestAfterAndCharge(t *testing.T) {
	rec := newRecorder()
	budget := map[string]bool{"theo": true}
	var mu sync.Mutex
	tr, clock := newTrigger(t, rec, func(m string) bool {
		mu.Lock()
		defer mu.Unlock()
		ok := budget[m]
		budget[m] = false // one model call each
		return ok
	})
	tr.Request("theo", 41)
	tr.Request("theo", 42)
	clock.Advance(time.Second)
	rec.started(t)
	idle(t, tr, "theo")
	tr.Request("theo", 0)
	clock.Advance(time.Second)
	rec.started(t)
	idle(t, tr, "theo")
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if !slices.Equal(rec.waited, []string{"41", "42"}) {
		t.Fatalf("waited for %v, want the runs 41 and 42", rec.waited)
	}
	if !slices.Equal(rec.runs, []string{"theo", "theo built-in"}) {
		t.Fatalf("runs %v: the second is over the budget, so built-in", rec.runs)
	}
}

// Close drops what is pending and ends the run under way.
func TestCloseEndsRuns(t *testing.T) {
	rec := newRecorder()
	rec.hold = make(chan struct{}) // never released: Close must cancel it
	clock := clockwork.NewFakeClock()
	tr := New(Options{Run: rec.run, Quiet: time.Second, Clock: clock})
	tr.Request("theo", 0)
	clock.Advance(time.Second)
	rec.started(t)
	tr.Request("maya", 0)
	tr.Close()
	clock.Advance(time.Hour)
	tr.Request("maya", 0)
	if got := rec.got(); !slices.Equal(got, []string{"theo"}) {
		t.Fatalf("runs %v after close", got)
	}
}
