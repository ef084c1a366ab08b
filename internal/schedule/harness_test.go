package schedule

import (
	"context"
	"hearth/internal/testkit"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"hearth/internal/live"
	"hearth/internal/store"
	"hearth/internal/store/storetest"
)

var berlin = func() *time.Location {
	loc, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		panic(err)
	}
	return loc
}()

// t0 is a Monday morning in the household zone.
var t0 = time.Date(2026, 3, 2, 8, 58, 0, 0, berlin)

// call is one run the fake runner was asked for.
type call struct {
	Kind, Agent, Assignment, Member, Prompt, Trigger, Origin string
}

// fakeRunner is the edge of the package: it records calls, can hold runs
// until released, fail them, and report the agent busy.
type fakeRunner struct {
	mu        sync.Mutex
	calls     []call
	started   chan call
	gate      chan struct{} // nil: runs return at once; else each run waits for one token (or close)
	fail      error
	busy      bool
	active    int
	maxActive int
	nextID    int64
}

func newFakeRunner() *fakeRunner { return &fakeRunner{started: make(chan call, 100), nextID: 100} }

func (r *fakeRunner) run(ctx context.Context, c call) (int64, error) {
	r.mu.Lock()
	r.calls = append(r.calls, c)
	r.nextID++
	id, gate, fail := r.nextID, r.gate, r.fail
	r.active++
	r.maxActive = max(r.maxActive, r.active)
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		r.active--
		r.mu.Unlock()
	}()
	r.started <- c
	if gate != nil {
		select {
		case <-gate:
		case <-ctx.Done():
			return id, ctx.Err()
		}
	}
	return id, fail
}

func (r *fakeRunner) RunAssignment(ctx context.Context, agentID, assignmentID, memberID, trigger, origin string) (int64, error) {
	return r.run(ctx, call{Kind: "assignment", Agent: agentID, Assignment: assignmentID, Member: memberID, Trigger: trigger, Origin: origin})
}

func (r *fakeRunner) RunFreeform(ctx context.Context, agentID, memberID, prompt, trigger, origin string) (int64, error) {
	return r.run(ctx, call{Kind: "freeform", Agent: agentID, Member: memberID, Prompt: prompt, Trigger: trigger, Origin: origin})
}

func (r *fakeRunner) Idle(string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return !r.busy
}

func (r *fakeRunner) set(fn func(r *fakeRunner)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	fn(r)
}

func (r *fakeRunner) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.calls)
}

// recorder is a Publisher that remembers events.
type recorder struct {
	mu     sync.Mutex
	events []TaskEvent
}

func (p *recorder) Publish(topic string, kind live.Kind, data any) {
	if ev, ok := data.(TaskEvent); ok && topic == "admin" && kind == "task" {
		p.mu.Lock()
		p.events = append(p.events, ev)
		p.mu.Unlock()
	}
}

func (p *recorder) has(id int64, change string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, e := range p.events {
		if e.TaskID == id && e.Change == change {
			return true
		}
	}
	return false
}

type harness struct {
	t      *testing.T
	db     *store.DB
	clock  *clockwork.FakeClock
	runner *fakeRunner
	pub    *recorder
	svc    *Service
	opts   Options
}

func newHarness(t *testing.T, tweak ...func(*Options)) *harness {
	t.Helper()
	db := storetest.Open(t)
	storetest.Member(t, db, "ada")
	storetest.Member(t, db, "bob")
	h := &harness{t: t, db: db}
	for _, f := range tweak {
		f(&h.opts)
	}
	h.boot(t0)
	return h
}

// boot builds a fresh service (a new process) on the same database at now.
func (h *harness) boot(now time.Time) {
	h.t.Helper()
	h.clock = clockwork.NewFakeClockAt(now)
	h.runner = newFakeRunner()
	h.pub = &recorder{}
	opts := h.opts
	if opts.Location == nil {
		opts.Location = berlin
	}
	opts.Clock = h.clock
	svc, err := New(h.db, h.runner, h.pub, nil, opts)
	if err != nil {
		h.t.Fatal(err)
	}
	h.svc = svc
	h.t.Cleanup(func() { h.stop(svc) })
}

func (h *harness) stop(svc *Service) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := svc.Stop(ctx); err != nil {
		h.t.Errorf("stop: %v", err)
	}
}

func (h *harness) start() *harness {
	h.t.Helper()
	if err := h.svc.Start(context.Background()); err != nil {
		h.t.Fatal(err)
	}
	return h
}

// restart stops the service, lets d pass while "down", and starts a new one.
func (h *harness) restart(d time.Duration) {
	h.t.Helper()
	h.stop(h.svc)
	h.boot(h.clock.Now().Add(d))
	h.start()
}

func (h *harness) advanceTo(at time.Time) {
	h.t.Helper()
	if d := at.Sub(h.clock.Now()); d > 0 {
		h.clock.Advance(d)
	}
}

func (h *harness) create(in TaskInput) Task {
	h.t.Helper()
	if in.Description == "" {
		in.Description = "test task"
	}
	task, err := h.svc.Create(context.Background(), in, ByUser)
	if err != nil {
		h.t.Fatalf("create %+v: %v", in, err)
	}
	return task
}

func (h *harness) get(id int64) Task {
	h.t.Helper()
	task, err := h.svc.Get(context.Background(), id)
	if err != nil {
		h.t.Fatal(err)
	}
	return task
}

func (h *harness) ledger(id int64) map[string]Fire {
	h.t.Helper()
	fires, err := h.svc.Ledger(context.Background(), id, 0)
	if err != nil {
		h.t.Fatal(err)
	}
	out := map[string]Fire{}
	for _, f := range fires {
		out[f.ScheduledFor.In(berlin).Format("15:04")] = f
	}
	return out
}

const wait = 5 * time.Second

func (h *harness) waitCall() call {
	h.t.Helper()
	select {
	case c := <-h.runner.started:
		return c
	case <-time.After(wait):
		h.t.Fatal("timed out waiting for a run")
	}
	return call{}
}

// noCall checks no run starts within a short grace period (used after a
// fire that must not run; the fake clock makes early fires impossible, so
// this only guards against a wrong decision already in flight).
func (h *harness) noCall() {
	h.t.Helper()
	select {
	case c := <-h.runner.started:
		h.t.Fatalf("unexpected run %+v", c)
	case <-time.After(60 * time.Millisecond):
	}
}

// waitArmed waits until gocron holds the task's job at want.
func (h *harness) waitArmed(id int64, want time.Time) {
	h.t.Helper()
	testkit.WaitFor(h.t, wait, "task armed at "+want.Format(time.RFC3339), func() bool {
		at, ok := h.svc.Scheduled(id)
		return ok && at.Equal(want)
	})
}

func (h *harness) waitIdle(id int64) {
	h.t.Helper()
	testkit.WaitFor(h.t, wait, "task run to finish", func() bool { return !h.get(id).Running })
}

func ptr[T any](v T) *T { return &v }

func goroutines() int { return runtime.NumGoroutine() }
