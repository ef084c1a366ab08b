package kiosk

import (
	"log/slog"
	"sync/atomic"
	"time"

	"hearth/web/programs"
)

// dashboardModels builds the members' dashboards (model.go, state.go, doc.go) and
// renders them: the page, shared between clients (page_cache.go), and the
// live streams' patches (stream.go). One per server.
type dashboardModels struct {
	deps     Deps
	opt      Options
	log      *slog.Logger
	programs *programs.Controls
	models   modelCache // dashboard models shared by streams and pages
	// patchRenders counts stream patch sets encoded (Options.PatchRenders).
	patchRenders *atomic.Int64
	locks        *screenLocks
}

// today is the household's calendar day.
func today(loc *time.Location) string { return time.Now().In(loc).Format(time.DateOnly) }
