// Package web is Hearth's HTTP surface: routes, thin handlers, middleware
// (request ids, access logs, limits, CSRF, admin auth) and SSE endpoints.
// Handlers bind and validate input, call one service and render a view model.
package web

import (
	"hearth/internal/screen"
	"hearth/web/adminauth"
	"hearth/web/httpkit"
	"hearth/web/programs"
	"hearth/web/ratelimit"
	"io/fs"
	"log/slog"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
)

// Options configure the server.
type Options struct {
	Logger   *slog.Logger
	Location *time.Location
	// TZSource says where Location came from (admin.TZFromConfig,
	// admin.TZFromSettings or "" for the server's own zone).
	TZSource      string
	AdminPassword string // plain text from config; hashed with bcrypt at start
	APIToken      string
	KioskIdle     time.Duration
	// KeepAlive is how often live streams send a keep-alive (default 15 s).
	KeepAlive time.Duration
	Static    fs.FS // static assets (CSS, JS, images), served under /static
	// ListenAddr and Hosts decide the Host names answered (see hostSet):
	// loopback names, the listen address and these (HEARTH_HOSTS).
	ListenAddr string
	Hosts      []string
	// SecureCookies marks admin cookies Secure on plain HTTP too (behind a
	// TLS-terminating proxy); a request over TLS gets it anyway.
	SecureCookies bool
	// MaxStreams and MaxStreamsPerClient cap open live streams (defaults
	// DefaultMaxStreams, DefaultMaxStreamsPerClient); over a cap: 429.
	MaxStreams, MaxStreamsPerClient int
	// Streams holds the member streams taken off net/http once their
	// headers are written (stream_detach.go); the server closes them at
	// shutdown, and the owner waits for them before closing the database.
	// Nil: New makes one. AttachedStreams keeps every stream on its request
	// goroutine instead (to measure the difference).
	Streams         *Streams
	AttachedStreams bool
	// BodyTimeout is how long a request body may take to arrive (default a
	// minute; uploads get more, in proportion to their size limit).
	BodyTimeout time.Duration
	// Version is the running Hearth's version, shown in the admin footer.
	Version string
	// PatchRenders counts the kiosk's stream patch sets encoded (tests
	// check that open streams share them); nil: not counted.
	PatchRenders *atomic.Int64
	// ModelCalls limits the kiosk's requests that call a model (chat
	// turns, transcriptions, "prepare my day") per client and per member
	// (zero values: the ratelimit defaults).
	ModelCalls ratelimit.Options
	// ModelLimiter, when set, is the limiter itself, shared with the
	// caller (the app's re-plan trigger charges it too); nil: one made
	// from ModelCalls.
	ModelLimiter *ratelimit.Limiter
}

// Server holds the handlers' dependencies.
type Server struct {
	opt  Options
	log  *slog.Logger
	deps Deps
	auth *adminauth.Auth
	// programs are the program controls of the dashboard and the admin member page.
	programs *programs.Controls

	hosts   hostSet
	streams *streamCap

	assets *assets // nil when no static files are served

	// detached are the member streams running off net/http.
	detached *Streams

	// modelCalls holds back the kiosk's model-calling requests.
	modelCalls *ratelimit.Limiter

	// unlocks are the screens' PIN unlocks: one set, the kiosk's and the
	// life plan API's, so an unlock on a screen opens both there.
	unlocks *screen.Unlocks

	// diskFullAt is when a write last failed for lack of disk (unix nanos):
	// reads still work then, so only this tells /healthz the truth.
	diskFullAt atomic.Int64
}

// New builds the Echo instance with every route registered.
func New(deps Deps, opt Options) (*echo.Echo, error) {
	if opt.Logger == nil {
		opt.Logger = slog.New(slog.DiscardHandler)
	}
	if opt.Location == nil {
		opt.Location = time.Local
	}
	if opt.KioskIdle == 0 {
		opt.KioskIdle = 3 * time.Minute
	}
	if opt.BodyTimeout <= 0 {
		opt.BodyTimeout = time.Minute
	}
	if opt.KeepAlive <= 0 {
		opt.KeepAlive = 15 * time.Second
	}
	a, err := adminauth.New(opt.AdminPassword, opt.APIToken, deps.Sessions, opt.SecureCookies)
	if err != nil {
		return nil, err
	}
	s := &Server{opt: opt, log: opt.Logger, deps: deps, auth: a, hosts: newHostSet(opt.ListenAddr, opt.Hosts),
		streams: newStreamCap(opt.MaxStreams, opt.MaxStreamsPerClient), modelCalls: opt.ModelLimiter, unlocks: screen.NewUnlocks(nil)}
	if s.modelCalls == nil {
		s.modelCalls = ratelimit.New(opt.ModelCalls)
	}
	s.programs = programs.New(deps.Programs, deps.Catalog, deps.Household, opt.Location)
	if !opt.AttachedStreams {
		if s.detached = opt.Streams; s.detached == nil {
			s.detached = NewStreams()
		}
	}
	if opt.Static != nil {
		if s.assets, err = newAssets(opt.Static); err != nil {
			return nil, err
		}
	}
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.IPExtractor = echo.ExtractIPDirect()
	e.HTTPErrorHandler = s.handleError
	if s.detached != nil {
		e.Server.RegisterOnShutdown(s.detached.Close)
	}
	e.Server.ReadHeaderTimeout = 10 * time.Second
	e.Server.IdleTimeout = 120 * time.Second
	e.Use(middleware.RequestID())
	e.Use(middleware.RequestLoggerWithConfig(middleware.RequestLoggerConfig{
		LogStatus: true, LogURI: true, LogMethod: true, LogLatency: true, LogRequestID: true, LogError: true,
		HandleError: true,
		Skipper:     func(c echo.Context) bool { return c.Path() == "/healthz" || isStatic(c) },
		LogValuesFunc: func(c echo.Context, v middleware.RequestLoggerValues) error {
			level := slog.LevelInfo
			if v.Status >= 500 {
				level = slog.LevelError
			}
			attrs := []slog.Attr{slog.String("method", v.Method), slog.String("uri", logURI(c.Request(), v.URI)), slog.Int("status", v.Status),
				slog.Duration("latency", v.Latency), slog.String("request_id", v.RequestID)}
			if v.Error != nil && v.Status >= 500 {
				attrs = append(attrs, slog.Any("err", v.Error))
			}
			s.log.LogAttrs(c.Request().Context(), level, "http", attrs...)
			return nil
		},
	}))
	e.Use(middleware.RecoverWithConfig(middleware.RecoverConfig{DisableStackAll: true}))
	e.Use(s.hostGuard)
	e.Use(middleware.SecureWithConfig(middleware.SecureConfig{XSSProtection: "0", ContentTypeNosniff: "nosniff",
		XFrameOptions: "SAMEORIGIN", ReferrerPolicy: "same-origin", ContentSecurityPolicy: contentSecurityPolicy}))
	// Device tokens, when the household requires them (devices.go): after
	// the headers (the refusal page gets them too), before the stream caps
	// and before anything reads a body.
	e.Use(s.deviceGuard)
	e.Use(s.limitStreams)
	// Body limits, the text gate and CSRF are route middleware of each
	// audience's group (routes.go), after the admin's authentication.
	s.routes(e)
	return e, nil
}

// contentSecurityPolicy is the Content-Security-Policy of every answer.
// Datastar compiles expressions with Function(): 'unsafe-eval' is
// required; there are no inline scripts. No <base>, forms post only here,
// and images and media come from Hearth itself only: Plex thumbnails are
// fetched by Hearth (/plex/thumb/…, the token in its request to Plex), so
// a page never loads anything from the Plex server or any other origin.
// Only Hearth's own pages may frame a page (Admin → Screens previews a
// layout in a frame).
const contentSecurityPolicy = "default-src 'self'; script-src 'self' 'unsafe-eval'; style-src 'self' 'unsafe-inline'; " +
	"img-src 'self' data: blob:; media-src 'self' blob:; " +
	"base-uri 'none'; form-action 'self'; frame-ancestors 'self'; object-src 'none'"

func isStatic(c echo.Context) bool {
	p := c.Request().URL.Path
	return len(p) >= 8 && p[:8] == "/static/"
}

var _ http.Handler = (*echo.Echo)(nil)

// Streams are the member streams running off net/http (httpkit.Detach).
type Streams = httpkit.Streams

// NewStreams makes an empty set of detached streams.
func NewStreams() *Streams { return httpkit.NewStreams() }
