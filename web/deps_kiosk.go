package web

import (
	"time"

	"hearth/web/kiosk"
)

// The kiosk's services that other audiences use too: each is the kiosk's
// interface plus what the others call.

// Dashboards is the dashboard store: the kiosk's use, and the day a
// document belongs to (the dashboard API).
type Dashboards interface {
	kiosk.Dashboards
	Day(t time.Time) string
}

// Catalog is the content catalog (the kiosk's use; the catalog API lists it).
type Catalog interface {
	kiosk.Catalog
}

// Live hands out subscriptions to change notifications (internal/live.Hub):
// the kiosk's streams and the admin's.
type Live interface {
	kiosk.Live
}

// kioskDeps maps the server's dependencies to the kiosk's; the kiosk reads
// the admin's agents (chat) and workflows (the coach column's questions).
func (s *Server) kioskDeps() kiosk.Deps {
	d := s.deps
	return kiosk.Deps{Household: d.Household, Dashboards: d.Dashboards, Catalog: d.Catalog, Live: d.Live, Voice: d.Voice,
		Privacy: d.Privacy, Coach: d.Coach, Alerts: d.Alerts, Messages: d.Messages, Agents: d.Admin.Agents,
		Workflows: d.Admin.Workflows, PromptAhead: d.PromptAhead, Programs: s.programs, MediaDir: d.MediaDir}
}

// kioskOptions are the kiosk's per-server values.
func (s *Server) kioskOptions() kiosk.Options {
	o := s.opt
	return kiosk.Options{Logger: o.Logger, Location: o.Location, KioskIdle: o.KioskIdle, KeepAlive: o.KeepAlive,
		Streams: s.detached, PatchRenders: o.PatchRenders}
}
