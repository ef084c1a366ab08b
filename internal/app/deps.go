package app

import "hearth/web"

// webDeps hands the built services to the web layer.
func (a *App) webDeps() web.Deps {
	return web.Deps{
		Household: a.Household,
		Ping:      a.DB.Ping,
		Admin:     web.AdminDeps{Household: a.Household},
	}
}
