// Package app wires Hearth together: database, services, agents, scheduler,
// live hub and HTTP server, and shuts them down in order.
package app

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jonboulle/clockwork"
	"github.com/labstack/echo/v4"

	"hearth/internal/agent"
	"hearth/internal/agent/definition"
	"hearth/internal/agent/llm"
	"hearth/internal/backup"
	"hearth/internal/buildinfo"
	"hearth/internal/coach"
	"hearth/internal/content"
	"hearth/internal/dashboard"
	"hearth/internal/devices"
	"hearth/internal/eval"
	"hearth/internal/household"
	"hearth/internal/lifeplan"
	"hearth/internal/live"
	"hearth/internal/messages"
	"hearth/internal/program"
	"hearth/internal/proposals"
	"hearth/internal/replan"
	"hearth/internal/schedule"
	"hearth/internal/screen"
	"hearth/internal/sensors"
	"hearth/internal/session"
	"hearth/internal/settings"
	"hearth/internal/store"
	"hearth/internal/talos"
	"hearth/internal/workflow"
	"hearth/static"
	"hearth/web"
	"hearth/web/ratelimit"
)

// App is a running Hearth instance.
type App struct {
	cfg  Config
	log  *slog.Logger
	DB   *store.DB
	Hub  *live.Hub
	Echo *echo.Echo

	Household  *household.Service
	Dashboards *dashboard.Store
	Sessions   *session.Store
	Devices    *devices.Service // device tokens of screens and household API scripts
	Screens    *screen.Service  // screen layouts
	Catalog    *content.Catalog
	Programs   *program.Service
	plex       plexState // thumbnails and syncs (content.go)
	Runtimes   agent.Runtimes
	Agents     *agent.Orchestrator
	Schedule   *schedule.Service
	// Sensors are the Home Assistant sensors mapped to members (sensors.go).
	Sensors *sensors.Service

	Definitions *definition.Service
	Backups     *backup.Service
	// Messages are the coach's messages to members ("From your coach").
	Messages *messages.Service
	// Model is Admin → Model: the endpoint, what was learned, the check.
	Model *llm.ModelAdmin
	// Evals runs the coach's eval suite from Admin → Evals.
	Evals     *eval.Service
	Workflows *workflow.Runtime
	// Settings are what Admin → Integrations saved (the environment wins).
	Settings *settings.Store
	// Proposals are the changes agents propose to outside systems, applied
	// when an admin confirms them (Admin → Curator); the integrations
	// register their appliers on it.
	Proposals *proposals.Service
	// Policies keeps the Talos policy and its decisions; TalosGate applies
	// it to Talos's tools and TalosConfirm holds actions for an adult
	// (talos.go).
	// LifePlan keeps each member's life plan (lifeplan.go).
	LifePlan     *lifeplan.Service
	Policies     *talos.Store
	TalosGate    *talos.Gate
	TalosConfirm *talos.Confirmations
	// Replan re-plans a member's day after what they said (nil in an
	// eval instance).
	Replan *replan.Trigger

	// modelCalls limits the kiosk's model calls (the kiosk and the
	// re-plan trigger share it); listener is the kiosk's ear.
	modelCalls *ratelimit.Limiter
	listener   listener

	opts   buildOptions
	ln     net.Listener
	cancel context.CancelFunc
	// streams are the live streams running off net/http (web.Streams).
	streams *web.Streams
	// bg is background work's context (a connection check), ended by Close.
	bg     context.Context
	stopBG context.CancelFunc
}

// New opens the database, seeds the demo household when asked and builds
// every service and the HTTP server. It does not listen yet.
func New(ctx context.Context, cfg Config, logger *slog.Logger) (*App, error) {
	return newApp(ctx, cfg, logger, buildOptions{})
}

// Options are what a Hearth built by a test differs in beyond its Config;
// the zero value builds exactly what New builds (`hearth` uses New).
type Options struct {
	// Now is the clock of the database and of every service that takes it
	// from there, the agents' too (run times, memory expiry); nil: time.Now.
	Now func() time.Time
	// Clock is the scheduler's clock: when tasks fire (nil: the real clock).
	Clock clockwork.Clock
	// KeepAlive, BodyTimeout, PatchRenders and Static set the web server's
	// options of those names (zero: the web defaults; Static nil: the
	// embedded assets).
	KeepAlive    time.Duration
	BodyTimeout  time.Duration
	PatchRenders *atomic.Int64
	Static       fs.FS
	// Deps changes the web layer's dependencies once the app has built
	// them: to wrap one (a live hub without shared renders) or replace one
	// (a coach whose runs fail).
	Deps func(*web.Deps)
}

// NewWith is New for a test: cfg's Hearth, differing by opts.
func NewWith(ctx context.Context, cfg Config, logger *slog.Logger, opts Options) (*App, error) {
	return newApp(ctx, cfg, logger, buildOptions{Options: opts})
}

// buildOptions are what a Hearth built for something other than serving
// changes: a test's Options (an eval scenario sets only their clock, Now),
// model-call slots shared with other instances so they stay within one
// HEARTH_MODEL_CONCURRENCY, and the model endpoint's learned profile, so
// each fresh database does not relearn it.
type buildOptions struct {
	Options
	modelSlots chan struct{}
	// profiles is what was learned about the model endpoint, shared (nil:
	// the instance's own database).
	profiles llm.ProfileStore
	// mutant breaks one judgement of the heuristic coach (the eval's
	// mutation score; coach.Mutant).
	mutant coach.Mutant
	// noReplan: no re-plans after what members say (an eval scenario says
	// when the coach runs).
	noReplan bool
	// engineOnly builds the engine and the stores it needs, no server: no
	// backups, no nested eval service, no web (an eval scenario's Hearth).
	engineOnly bool
	// scratch opens a throwaway database, not fsynced (store.OpenScratch).
	scratch bool
}

func newApp(ctx context.Context, cfg Config, logger *slog.Logger, opts buildOptions) (*App, error) {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	var db *store.DB
	var err error
	if opts.scratch {
		db, err = store.OpenScratch(ctx, cfg.DBPath, logger)
	} else {
		db, err = OpenDatabase(ctx, cfg, logger)
	}
	if err != nil {
		return nil, err
	}
	if opts.Now != nil {
		db.Now = opts.Now // before any service copies the clock
	}
	if cfg, err = householdZone(ctx, cfg, db, logger); err != nil {
		_ = db.Close()
		return nil, err
	}
	a := &App{cfg: cfg, log: logger, DB: db, Hub: live.NewHub(), opts: opts, streams: web.NewStreams()}
	a.bg, a.stopBG = context.WithCancel(context.Background())
	if err := a.build(ctx); err != nil {
		a.stopBG()
		a.plex.wg.Wait()
		_ = db.Close()
		return nil, err
	}
	return a, nil
}

func (a *App) build(ctx context.Context) error {
	a.Settings = settings.New(a.DB, a.cfg.dataDirectory())
	a.Catalog = content.NewCatalog(a.DB, a.log)
	a.Programs = program.New(a.DB, a.Catalog, a.cfg.Location).Notify(a.Hub)
	seeded := false
	if a.cfg.Demo {
		var err error
		if seeded, err = a.seedDemo(ctx); err != nil {
			return err
		}
	}
	if err := a.loadCatalog(ctx); err != nil {
		return err
	}
	if seeded {
		if err := a.declareDemoPrograms(ctx); err != nil {
			return err
		}
	}
	if err := a.markImportsInterrupted(ctx); err != nil {
		return err
	}
	a.Household = household.New(a.DB, a.Hub).In(a.cfg.Location)
	a.Dashboards = dashboard.NewStore(a.DB, a.Hub, a.cfg.Location)
	a.Messages = messages.New(a.DB, a.Hub)
	a.Sessions = session.New(a.DB)
	a.Devices = devices.New(a.DB)
	a.Screens = screen.New(a.DB, a.Hub)
	a.Proposals = proposals.NewService(a.DB, a.Hub)
	if ended, err := a.Sessions.SyncPassword(ctx, a.cfg.AdminPassword); err != nil {
		return err
	} else if ended {
		a.log.Info("admin password changed: every admin session ended")
	}
	if err := a.buildAgents(ctx); err != nil {
		return err
	}
	a.buildReplan()
	a.buildSensors()
	if err := a.buildScheduler(); err != nil {
		return err
	}
	if err := a.registerAgents(ctx); err != nil {
		return err
	}
	if seeded {
		a.prepareDemoDays(ctx)
	}
	if a.opts.engineOnly {
		return nil
	}
	if err := a.buildBackups(ctx); err != nil {
		return err
	}
	if err := a.buildEvals(ctx); err != nil {
		return err
	}
	deps := a.webDeps()
	if a.opts.Deps != nil {
		a.opts.Deps(&deps)
	}
	var assets fs.FS = static.FS
	if a.opts.Static != nil {
		assets = a.opts.Static
	}
	e, err := web.New(deps, web.Options{
		Logger: a.log, Location: a.cfg.Location, TZSource: a.cfg.tzSource(), AdminPassword: a.cfg.AdminPassword, APIToken: a.cfg.APIToken,
		KioskIdle: a.cfg.KioskIdle, Static: assets, ListenAddr: a.cfg.Addr, Hosts: a.cfg.Hosts,
		SecureCookies: a.cfg.SecureCookies, MaxStreams: a.cfg.MaxStreams, MaxStreamsPerClient: a.cfg.MaxStreamsPerClient,
		Version: buildinfo.Read().Short(), Streams: a.streams, ModelCalls: a.cfg.KioskModelCalls,
		KeepAlive: a.opts.KeepAlive, BodyTimeout: a.opts.BodyTimeout, PatchRenders: a.opts.PatchRenders,
		ModelLimiter: a.modelCalls,
	})
	if err != nil {
		return err
	}
	a.Echo = e
	return nil
}

// Listen binds the configured address (":0" picks a free port for tests).
func (a *App) Listen() (net.Addr, error) {
	ln, err := net.Listen("tcp", a.cfg.Addr)
	if err != nil {
		return nil, fmt.Errorf("app: listen %s: %w", a.cfg.Addr, err)
	}
	a.ln = ln
	return ln.Addr(), nil
}

// Serve serves until ctx is cancelled, then shuts down gracefully: stop
// accepting, end streams, finish in-flight requests, close the database.
func (a *App) Serve(ctx context.Context) error {
	if a.ln == nil {
		if _, err := a.Listen(); err != nil {
			return err
		}
	}
	// Request contexts derive from base, cancelled at shutdown: SSE loops
	// watch it, because http.Server.Shutdown does not cancel running requests.
	base, cancel := context.WithCancel(context.Background())
	a.cancel = cancel
	srv := a.Echo.Server
	srv.Handler = a.Echo
	srv.BaseContext = func(net.Listener) context.Context { return base }
	srv.RegisterOnShutdown(cancel)
	srv.RegisterOnShutdown(a.Hub.Close)
	// A connection that has not sent a whole request (a browser's speculative
	// preconnect) counts for http.Server.Shutdown as busy until it is 5 s
	// old, as long as our whole shutdown budget: close those at once. A
	// client that sent no request loses nothing and reconnects.
	fresh := trackNewConns(srv)
	srv.RegisterOnShutdown(fresh.closeAll)
	// Runs a crash left running continue before the scheduler's catch-up
	// can start the same assignment (which would supersede them).
	if _, err := a.Workflows.Recover(ctx); err != nil {
		_ = a.Close()
		return fmt.Errorf("app: continue workflow runs: %w", err)
	}
	if err := a.Schedule.Start(ctx); err != nil {
		_ = a.Close()
		return fmt.Errorf("app: start scheduler: %w", err)
	}
	if err := a.startSensors(); err != nil {
		_ = a.Close()
		return fmt.Errorf("app: schedule sensor polls: %w", err)
	}
	if err := a.startTalos(); err != nil {
		_ = a.Close()
		return fmt.Errorf("app: schedule held actions' expiry: %w", err)
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(a.ln) }()
	a.log.Info("hearth listening", "addr", "http://"+a.ln.Addr().String())
	// Start-up (migrations, demo seed, catalog) leaves ~16 MiB of garbage,
	// much of it goose's pooled parse buffer, that the GC would otherwise
	// keep mapped until its second cycle, long after start on an idle
	// kiosk. Hand it back now, off the path to the first request.
	go debug.FreeOSMemory()
	select {
	case err := <-errc:
		_ = a.Close()
		return fmt.Errorf("app: serve: %w", err)
	case <-ctx.Done():
	}
	sctx, scancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer scancel()
	err := srv.Shutdown(sctx)
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	// Live streams left net/http (web.Streams): Shutdown closed their
	// connections but does not wait for them; they use the database.
	if werr := a.streams.Wait(sctx); werr != nil {
		err = errors.Join(err, fmt.Errorf("app: live streams still running: %w", werr))
	}
	return errors.Join(err, a.Close())
}

// newConns holds the server's connections that have not sent a request.
type newConns struct {
	mu    sync.Mutex
	conns map[net.Conn]struct{}
}

func trackNewConns(srv *http.Server) *newConns {
	n := &newConns{conns: map[net.Conn]struct{}{}}
	prev := srv.ConnState
	srv.ConnState = func(c net.Conn, st http.ConnState) {
		n.mu.Lock()
		if st == http.StateNew {
			n.conns[c] = struct{}{}
		} else {
			delete(n.conns, c)
		}
		n.mu.Unlock()
		if prev != nil {
			prev(c, st)
		}
	}
	return n
}

func (n *newConns) closeAll() {
	n.mu.Lock()
	defer n.mu.Unlock()
	for c := range n.conns {
		_ = c.Close()
		delete(n.conns, c)
	}
}

// Close stops background work (scheduler, runs, streams) and closes the
// database last, so in-flight runs end as interrupted rather than half-written.
func (a *App) Close() error {
	if a.cancel != nil {
		a.cancel()
	}
	a.Hub.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var errs []error
	if a.Schedule != nil {
		errs = append(errs, a.Schedule.Stop(ctx))
	}
	if a.Replan != nil { // before the engine: no re-plan starts while it closes
		a.Replan.Close()
	}
	if a.Agents != nil {
		errs = append(errs, a.Agents.Close(ctx))
	}
	if a.Workflows != nil { // after the engine: its attempts ended as interrupted
		errs = append(errs, a.Workflows.Close(ctx))
	}
	if a.Backups != nil {
		a.Backups.Close()
	}
	if a.stopBG != nil {
		a.stopBG()
	}
	a.plex.wg.Wait() // a sync started at start records its outcome
	if a.Model != nil {
		a.Model.Wait() // a check may be saving what it learned
	}
	if a.Evals != nil {
		a.Evals.Close()
	}
	errs = append(errs, a.DB.Close())
	return errors.Join(errs...)
}
