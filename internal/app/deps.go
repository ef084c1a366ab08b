package app

import (
	"path/filepath"

	"hearth/web"
)

// webDeps hands the built services to the web layer.
func (a *App) webDeps() web.Deps {
	return web.Deps{
		Household: a.Household,
		Ping:      a.DB.Ping,
		Admin: web.AdminDeps{Household: a.Household, Definitions: a.Definitions,
			Agents: a.Agents, Schedule: a.Schedule, Catalog: a.Catalog,
			Importer: imports{db: a.DB, pub: a.Hub}, UploadDir: filepath.Join(a.dataDir(), "imports")},

		Dashboards: a.Dashboards,
		Catalog:    a.Catalog,
		Live:       a.Hub,
		Voice:      a.voiceService(),
		Privacy:    privacy{db: a.DB, hub: a.Hub},
		MediaDir:   filepath.Join(a.dataDir(), "media"),
	}
}
