package llm

import (
	"context"
	"sync"
	"time"

	"hearth/internal/apperr"
	"hearth/internal/live"
)

// ModelAdmin is what Admin → Model shows and does: the configured
// endpoint, what was learned per endpoint (with a reset), and the
// connection check, run in the background with its progress published
// (live.KindModel on the admin topic).
type ModelAdmin struct {
	rt   *OpenAI // nil without a model
	ends *Endpoints
	pub  live.Publisher
	ctx  context.Context // the check runs on it, not on a request's
	opts AdminOptions

	mu      sync.Mutex
	running bool
	last    *CheckReport
	wg      sync.WaitGroup
}

// Endpoint is the configured model endpoint as the admin sees it.
type Endpoint struct {
	BaseURL string
	Model   string
	KeySet  bool
	// Server is the configured family ("" = detected).
	Server Family
}

// AdminOptions tune ModelAdmin.
type AdminOptions struct {
	// Timeout bounds one check (0 = 10 minutes).
	Timeout time.Duration
	// Slot, when set, holds a place under the model-call limit for the
	// check's duration (agent.Orchestrator.ModelSlot), so a check does not
	// add to a busy small server's load.
	Slot func(ctx context.Context) (release func(), err error)
}

// NewModelAdmin returns the admin service; rt may be nil (no model
// configured), pub may be nil. ctx bounds background checks (the app's
// lifetime).
func NewModelAdmin(ctx context.Context, rt *OpenAI, ends *Endpoints, pub live.Publisher, opts AdminOptions) *ModelAdmin {
	if opts.Timeout <= 0 {
		opts.Timeout = 10 * time.Minute
	}
	return &ModelAdmin{rt: rt, ends: ends, pub: pub, ctx: ctx, opts: opts}
}

// Configured returns the configured endpoint; false without a model.
func (m *ModelAdmin) Configured() (Endpoint, bool) {
	if m.rt == nil {
		return Endpoint{}, false
	}
	return Endpoint{BaseURL: m.rt.BaseURL(), Model: m.rt.Model(), KeySet: m.rt.HasKey(), Server: m.rt.cfg.Server}, true
}

// Endpoints lists what was learned per endpoint, most recent first.
func (m *ModelAdmin) Endpoints(ctx context.Context) ([]Profile, error) { return m.ends.List(ctx) }

// Reset forgets what was learned about an endpoint.
func (m *ModelAdmin) Reset(ctx context.Context, baseURL, model string) error {
	ok, err := m.ends.Reset(ctx, baseURL, model)
	if err != nil {
		return err
	}
	if !ok {
		return apperr.NotFoundf("nothing is remembered for %s at %s", model, baseURL)
	}
	m.publish()
	return nil
}

// StartCheck starts a connection check in the background; a check
// already running is a Conflict, no model configured is Invalid.
func (m *ModelAdmin) StartCheck() error {
	if m.rt == nil {
		return apperr.Invalidf("no model is configured: set OPENAI_BASE_URL or OPENAI_API_KEY")
	}
	m.mu.Lock()
	if m.running {
		m.mu.Unlock()
		return apperr.New(apperr.Conflict, "a connection check is already running")
	}
	m.running = true
	m.last = &CheckReport{BaseURL: m.rt.BaseURL(), Model: m.rt.Model(), KeySet: m.rt.HasKey(), Started: time.Now().UTC()}
	m.mu.Unlock()
	m.publish()
	m.wg.Go(func() {
		ctx, cancel := context.WithTimeout(m.ctx, m.opts.Timeout)
		defer cancel()
		if m.opts.Slot != nil {
			release, err := m.opts.Slot(ctx)
			if err != nil {
				m.finish(CheckReport{BaseURL: m.rt.BaseURL(), Model: m.rt.Model(), KeySet: m.rt.HasKey(), Started: time.Now().UTC(),
					Steps: []CheckStep{{Name: "Waiting for the model", State: CheckFailed, Detail: err.Error()}}})
				return
			}
			defer release()
		}
		rep := m.rt.Check(ctx, func(r CheckReport) {
			m.mu.Lock()
			m.last = &r
			m.mu.Unlock()
			m.publish()
		})
		m.finish(rep)
	})
	return nil
}

func (m *ModelAdmin) finish(rep CheckReport) {
	m.mu.Lock()
	m.last, m.running = &rep, false
	m.mu.Unlock()
	m.publish()
}

// Wait waits for a running check (tests, shutdown).
func (m *ModelAdmin) Wait() { m.wg.Wait() }

// LastCheck returns the running or last check since start; ok is false
// when none ran.
func (m *ModelAdmin) LastCheck() (rep CheckReport, running, ok bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.last == nil {
		return CheckReport{}, false, false
	}
	r := *m.last
	r.Steps = append([]CheckStep(nil), r.Steps...)
	return r, m.running, true
}

func (m *ModelAdmin) publish() {
	if m.pub != nil {
		m.pub.Publish(live.TopicAdmin, live.KindModel, nil)
	}
}
