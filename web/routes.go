package web

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"hearth/views"
	"hearth/web/admin"
	"hearth/web/api"
	"hearth/web/enrol"
	"hearth/web/httpkit"
	"hearth/web/kiosk"
)

// routes is the whole route table: the audiences, each on its own groups.
// Every group's route middleware reads the request in this order: the
// admin's authentication first (admin groups only), then the body limit,
// the text gate and CSRF (which may parse a form), then idempotency. So an
// anonymous client can never make the server read, parse or spool an admin
// route's body, and a replay never reaches someone who could not have
// made the request.
func (s *Server) routes(e *echo.Echo) {
	e.GET("/healthz", s.healthz)
	if s.assets != nil {
		e.GET("/static/*", s.assets.serve)
		e.HEAD("/static/*", s.assets.serve)
	}
	mw := httpkit.Middleware{Request: []echo.MiddlewareFunc{s.withAssets, s.bodyLimit, s.textGate, s.csrf},
		Admin: s.auth.Require, Idempotent: s.idempotent}

	// Kiosk pages: household network, no login.
	kiosk.Routes(e, s.kioskDeps(), s.kioskOptions(), mw)

	// The JSON APIs: the household API, its description and the admin APIs.
	apiDeps, apiOpt := s.apiDeps()
	api.Routes(e, apiDeps, apiOpt, mw)

	// Admin area: the login and logout are open; everything else under
	// /admin authenticates first.
	admin.Routes(e, s.adminDeps(), s.adminOptions(), mw)

	// Enrolment links: open, the way a screen gets its device token
	// (deviceGuard, devices.go, enforces the tokens on the routes above).
	if s.deps.Devices != nil {
		enrol.Routes(e, s.deps.Devices, enrol.Options{Logger: s.log, SecureCookies: s.opt.SecureCookies}, mw)
	}
}

// kioskDeps maps the server's dependencies to the kiosk's; the kiosk reads
// the admin's agents (chat) and workflows (the coach column's questions).
func (s *Server) kioskDeps() kiosk.Deps {
	d := s.deps
	k := kiosk.Deps{Household: d.Household, Dashboards: d.Dashboards, Catalog: d.Catalog, Live: d.Live, Voice: d.Voice,
		Privacy: d.Privacy, Coach: d.Coach, Listener: d.Listener, Alerts: d.Alerts, Messages: d.Messages, Agents: d.Admin.Agents,
		Workflows: d.Admin.Workflows, PromptAhead: d.PromptAhead, Programs: s.programs, MediaDir: d.MediaDir,
		Unlocks: s.unlocks}
	if d.Thumbs != nil { // a nil interface, not a typed nil
		k.Thumbs = d.Thumbs
	}
	if d.Screens != nil {
		k.Screens = d.Screens
	}
	if d.PINs != nil {
		k.PINs = d.PINs
	}
	if d.Held != nil {
		k.Held = d.Held
	}
	if d.LifePlan != nil { // the life plan's pages
		k.LifePlan = d.LifePlan
	}
	if d.Settings != nil { // a nil interface, not a typed nil
		k.Settings = d.Settings
	}
	return k
}

// kioskOptions are the kiosk's per-server values.
func (s *Server) kioskOptions() kiosk.Options {
	o := s.opt
	return kiosk.Options{Logger: o.Logger, Location: o.Location, KioskIdle: o.KioskIdle, KeepAlive: o.KeepAlive,
		Streams: s.detached, PatchRenders: o.PatchRenders, ModelCalls: s.modelCalls}
}

// apiDeps are the services and options of the JSON APIs.
func (s *Server) apiDeps() (api.Deps, api.Options) {
	d, a := s.deps, s.deps.Admin
	return api.Deps{Household: d.Household, Dashboards: d.Dashboards, Catalog: d.Catalog, Live: d.Live,
			Agents: a.Agents, Definitions: a.Definitions, Schedule: a.Schedule, Workflows: a.Workflows, AdminMembers: a.Household,
			Policies: a.Policies, LifePlan: d.LifePlan, Admin: s.auth, Unlocks: s.unlocks},
		api.Options{KeepAlive: s.opt.KeepAlive}
}

// adminDeps are the admin area's services (package admin).
func (s *Server) adminDeps() admin.Deps {
	d := s.deps
	var members admin.Members = d.Household // the admin selects: the admin's household service, else the kiosk's
	if d.Admin.Household != nil {
		members = d.Admin.Household
	}
	deps := admin.Deps{Auth: s.auth, Members: members, Live: d.Live, Household: d.Admin.Household, Agents: d.Admin.Agents,
		Schedule: d.Admin.Schedule, Catalog: d.Admin.Catalog, Importer: d.Admin.Importer, Definitions: d.Admin.Definitions,
		Backups: d.Admin.Backups, MemberData: d.Admin.MemberData, Workflows: d.Admin.Workflows, Model: d.Admin.Model,
		Evals: d.Admin.Evals, Messages: d.Messages, Devices: d.Devices}
	if d.Screens != nil {
		deps.Layouts = d.Screens
	}
	if d.Admin.Plex != nil {
		deps.Plex = d.Admin.Plex
	}
	if d.Admin.Sensors != nil {
		deps.Sensors = d.Admin.Sensors
	}
	if d.Admin.Integrations != nil {
		deps.Integrations = d.Admin.Integrations
	}
	if d.Admin.Curator != nil {
		deps.Curator = d.Admin.Curator
	}
	if d.Admin.Policies != nil {
		deps.Policies = d.Admin.Policies
	}
	if d.Admin.Copilot != nil {
		deps.Copilot = d.Admin.Copilot
	}
	if d.Settings != nil {
		deps.Settings = d.Settings
	}
	if d.Programs != nil {
		deps.Programs = s.programs
	}
	if d.LifePlan != nil { // the life plan's admin page
		deps.LifePlan = d.LifePlan
	}
	return deps
}

// adminOptions are the admin area's per-server values.
func (s *Server) adminOptions() admin.Options {
	o := s.opt
	return admin.Options{Logger: s.log, Location: o.Location, TZSource: o.TZSource, KeepAlive: o.KeepAlive, Version: o.Version,
		UploadDir: s.deps.Admin.UploadDir, MaxImportBytes: s.deps.Admin.MaxImportBytes, APISpec: api.Spec(),
		ScreenURL: func() admin.ScreenAddress { return admin.ScreenAddress(ScreenURL(o.ListenAddr, o.Hosts)) }}
}

// diskFullMemory is how long /healthz reports a failed write for lack of disk.
const diskFullMemory = 5 * time.Minute

func (s *Server) healthz(c echo.Context) error {
	if s.deps.Ping != nil {
		if err := s.deps.Ping(c.Request().Context()); err != nil {
			s.log.Error("healthz", "err", err)
			return c.JSON(http.StatusServiceUnavailable, map[string]string{"status": "unavailable", "error": "database unavailable"})
		}
	}
	if at := s.diskFullAt.Load(); at != 0 && time.Since(time.Unix(0, at)) < diskFullMemory {
		return c.JSON(http.StatusServiceUnavailable, map[string]string{"status": "degraded",
			"error": "the disk is full: recent writes failed and nothing was saved"})
	}
	return c.JSON(http.StatusOK, map[string]string{"status": "ok"})
}

// withAssets gives the views this server's static file URLs (content
// hashed) through the request's context.
func (s *Server) withAssets(next echo.HandlerFunc) echo.HandlerFunc {
	if s.assets == nil {
		return next
	}
	return func(c echo.Context) error {
		r := c.Request()
		c.SetRequest(r.WithContext(views.WithAssets(r.Context(), s.assets.URL)))
		return next(c)
	}
}
