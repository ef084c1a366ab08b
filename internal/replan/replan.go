// Package replan re-plans a member's day soon after they said something
// that changes it (a tap on "A bit tired", "my knee hurts" in a chat), so
// that no admin has to press Run now and nobody waits for tomorrow's
// scheduled run.
//
// Requests are debounced per member: a burst of taps makes one run, which
// starts once the member has been quiet for Quiet (and at the latest
// MaxWait after the first request, so a steady trickle cannot put it off
// for good). One member's re-plans never overlap: a request made while
// one runs gets another run after it, because the running one may have
// read the member's records before what they said was stored. A request
// may name a run to wait for first (the chat turn whose words asked for
// it, which stores its notes when it commits).
//
// The model is a cost: before each run Charge says whether it may use the
// model (and books it against the member's model-call budget); when it
// may not, the built-in coach re-plans, which costs nothing.
package replan

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/jonboulle/clockwork"
)

// Defaults: fast enough that the plan follows within a few seconds, slow
// enough that a member tapping through two prompts makes one run.
const (
	DefaultQuiet   = 1500 * time.Millisecond
	DefaultMaxWait = 4 * time.Second
)

// Options configure a Trigger. Run is required.
type Options struct {
	// Run re-plans member's day and returns when the run is over;
	// builtIn asks for the built-in coach (no model call).
	Run func(ctx context.Context, member string, builtIn bool) error
	// After waits until run has ended (nil: requests naming a run do not
	// wait for it).
	After func(ctx context.Context, run int64) error
	// Charge reports whether a run for member may call the model now and,
	// if so, books it against the member's model-call budget; false runs
	// the built-in coach. Nil: every run goes the orchestrator's own way.
	Charge func(member string) bool
	// Quiet and MaxWait (defaults DefaultQuiet, DefaultMaxWait).
	Quiet, MaxWait time.Duration
	Clock          clockwork.Clock
	Logger         *slog.Logger
}

// Trigger debounces re-plan requests per member. Safe for concurrent use.
type Trigger struct {
	opt    Options
	ctx    context.Context
	cancel context.CancelFunc

	mu      sync.Mutex
	closed  bool
	members map[string]*member
	wg      sync.WaitGroup
}

// member is one member's pending and running re-plan.
type member struct {
	timer   clockwork.Timer // waiting for quiet; nil when none is pending
	gen     int             // the current timer's (a stopped one that fired anyway is ignored)
	first   time.Time       // the first request the pending run answers
	after   []int64         // runs to wait for before it
	running bool
	again   bool // a request came while a run was under way
}

// New returns a Trigger; Close stops it.
func New(opt Options) *Trigger {
	if opt.Run == nil {
		panic("replan: Options.Run is required")
	}
	if opt.Quiet <= 0 {
		opt.Quiet = DefaultQuiet
	}
	if opt.MaxWait < opt.Quiet {
		opt.MaxWait = max(DefaultMaxWait, opt.Quiet)
	}
	if opt.Clock == nil {
		opt.Clock = clockwork.NewRealClock()
	}
	if opt.Logger == nil {
		opt.Logger = slog.New(slog.DiscardHandler)
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Trigger{opt: opt, ctx: ctx, cancel: cancel, members: map[string]*member{}}
}

// Request asks for a re-plan of member's day; after, when not 0, is a run
// that must end first. It returns at once.
func (t *Trigger) Request(id string, after int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return
	}
	m := t.members[id]
	if m == nil {
		m = &member{}
		t.members[id] = m
	}
	if after != 0 {
		m.after = append(m.after, after)
	}
	now := t.opt.Clock.Now()
	switch {
	case m.running:
		m.again = true
	case m.timer != nil:
		// Quiet again from now, but never past MaxWait from the first.
		m.timer.Stop()
		t.armLocked(id, m, max(0, min(t.opt.Quiet, m.first.Add(t.opt.MaxWait).Sub(now))))
	default:
		m.first = now
		t.armLocked(id, m, t.opt.Quiet)
	}
}

// armLocked starts m's wait of d; callers hold t.mu.
func (t *Trigger) armLocked(id string, m *member, d time.Duration) {
	m.gen++
	gen := m.gen
	m.timer = t.opt.Clock.AfterFunc(d, func() { t.fire(id, gen) })
}

// Pending reports whether a re-plan of member is waiting or running.
func (t *Trigger) Pending(id string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	m := t.members[id]
	return m != nil && (m.timer != nil || m.running)
}

// fire runs a member's re-plan once their requests went quiet.
func (t *Trigger) fire(id string, gen int) {
	t.mu.Lock()
	m := t.members[id]
	if t.closed || m == nil || m.running || m.timer == nil || m.gen != gen {
		t.mu.Unlock()
		return
	}
	m.timer, m.running = nil, true
	after := m.after
	m.after = nil
	t.wg.Add(1)
	t.mu.Unlock()
	defer t.wg.Done()

	for _, run := range after {
		if t.opt.After == nil {
			break
		}
		if err := t.opt.After(t.ctx, run); err != nil {
			t.opt.Logger.Warn("replan: wait for the run that asked", "member", id, "run", run, "err", err)
		}
	}
	builtIn := t.opt.Charge != nil && !t.opt.Charge(id)
	if err := t.opt.Run(t.ctx, id, builtIn); err != nil {
		t.opt.Logger.Warn("replan: re-plan the member's day", "member", id, "built_in", builtIn, "err", err)
	} else {
		t.opt.Logger.Info("replan: re-planned the member's day after what they said", "member", id, "built_in", builtIn)
	}

	t.mu.Lock()
	defer t.mu.Unlock()
	m.running = false
	switch {
	case t.closed:
	case m.again:
		m.again = false
		m.first = t.opt.Clock.Now()
		t.armLocked(id, m, t.opt.Quiet)
	case m.timer == nil:
		delete(t.members, id)
	}
}

// Close drops pending requests, ends the runs under way (their context is
// cancelled) and waits for them.
func (t *Trigger) Close() {
	t.mu.Lock()
	t.closed = true
	for _, m := range t.members {
		if m.timer != nil {
			m.timer.Stop()
		}
	}
	t.mu.Unlock()
	t.cancel()
	t.wg.Wait()
}
