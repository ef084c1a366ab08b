// Package admin is Hearth's admin area: the pages under /admin (agents,
// runs, schedules, household, imports, backups, model, evals, …) and the
// open login and logout. Every page is server-rendered (views/adminview);
// live parts patch over one admin stream per page.
//
// The admin area evaluates the coach: Admin → Evals imports internal/eval
// for its report and summary types (the eval service runs the suite; the
// page compares a run with the previous one).
package admin

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"hearth/internal/health"
	"hearth/internal/live"
	"hearth/views"
	"hearth/views/adminview"
	"hearth/web/adminauth"
	"hearth/web/httpkit"
)

// Deps are the services behind the admin area; a nil one hides its pages.
type Deps struct {
	Auth        Auth           // the admin's password and sessions (*adminauth.Auth); required
	Members     Members        // the household for the admin selects; nil: none
	Live        Live           // admin events for the live parts; nil: live parts refuse
	Household   HouseholdAdmin // Admin → Household
	Agents      Agents         // assignments, runs, memory and chat pages
	Schedule    Schedules      // schedules and to-do pages
	Catalog     CatalogAdmin   // catalog page
	Plex        PlexSyncer     // "Sync now" on the catalog page; nil: none
	Sensors     SensorsAdmin   // Admin → Integrations → Sensors; nil: none
	Importer    Importer       // imports page
	Definitions DefinitionsAdmin
	Backups     BackupsAdmin
	MemberData  MemberData      // a member's export and erasure (Admin → Household)
	Workflows   Workflows       // workflow pages
	Model       ModelAdmin      // Admin → Model
	Evals       EvalsAdmin      // Admin → Evals
	Programs    ProgramControls // a member's program on Admin → Household; nil: no program controls
	Messages    Messages        // Admin → Messages and a member's messages; nil: none
	Devices     Devices         // device tokens on Admin → Screens; nil: the page shows the kiosk URL only
	Layouts     Layouts         // screen layouts on Admin → Screens; nil: none
	// Settings are the time zone and night schedule on Admin → Household;
	// nil: not shown.
	Settings HouseholdSettings
	// Integrations is Admin → Integrations; nil: not shown.
	Integrations Integrations
	// Curator is Admin → Curator: agents' proposed changes to outside
	// systems (*proposals.Service); nil: not shown.
	Curator Curator
	// Policies is Admin → Policies: the kiosk assistant's policy and
	// decisions (*talos.Store); nil: not shown.
	Policies Policies
	// LifePlan is a member's life plan in admin (Admin → Household →
	// Life plan); nil: not shown.
	LifePlan LifePlan
	// Copilot answers the configuration copilot's panel on the admin
	// forms; nil: no panel.
	Copilot Copilot
}

// Options are the per-server values of the admin area.
type Options struct {
	Logger   *slog.Logger
	Location *time.Location // the household's clock
	// TZSource says where Location came from: TZFromConfig (HEARTH_TZ or
	// -tz, which Admin → Household cannot change), TZFromSettings (Admin →
	// Household, at start) or "" (the server's own zone).
	TZSource  string
	KeepAlive time.Duration // how often live parts send a keep-alive
	Version   string        // the running Hearth's version, shown in the footer
	// UploadDir holds an uploaded import file while it is read (default:
	// the system temporary directory).
	UploadDir string
	// MaxImportBytes caps one uploaded import file (default DefaultMaxImportBytes).
	MaxImportBytes int64
	// APISpec is the OpenAPI description Admin → API renders.
	APISpec []byte
	// ScreenURL works out the kiosk URL for Admin → Screens.
	ScreenURL func() ScreenAddress
}

// Auth is the admin's authentication as the login page and the page frame
// use it (*adminauth.Auth).
type Auth interface {
	SessionOK(r *http.Request) bool
	HasPassword() bool
	CheckPassword(pw string) bool
	BeginLogin(r *http.Request, client string) (*adminauth.LoginAttempt, time.Duration, adminauth.BlockScope)
	TakeLoginLink(ctx context.Context, code string) (bool, error)
	NewSession(r *http.Request) ([]*http.Cookie, error)
	EndSession(r *http.Request) (*http.Cookie, error)
}

// Members are the household (for the members selects and checks).
type Members interface {
	Members(ctx context.Context) ([]health.Member, error)
	Member(ctx context.Context, id string) (health.Member, error)
}

// Live is the event hub the admin's live parts subscribe to (*live.Hub).
type Live interface {
	Subscribe(topics ...string) *live.Sub
}

// ProgramControls are a member's program controls (*programs.Controls).
type ProgramControls interface {
	Card(ctx context.Context, member, action string, kiosk bool) (*views.ProgramCard, error)
	Apply(c echo.Context, member, via string) (string, error)
}

// core is what every admin page shares: the page frame (logged in or
// not, the version), the household clock, the log, the live stream and the
// member list for selects.
type core struct {
	opt     Options
	log     *slog.Logger
	auth    Auth
	live    Live
	members Members
}

func (s *core) adminPage(c echo.Context, title, section string) adminview.AdminPage {
	return adminview.AdminPage{Page: httpkit.Page(c, title), Section: section, LoggedIn: s.auth.SessionOK(c.Request()), Version: s.opt.Version}
}

// pageAdmin is the admin home when no agents are configured.
func (s *core) pageAdmin(c echo.Context) error {
	return httpkit.Render(c, http.StatusOK, adminview.AdminHome(s.adminPage(c, "Admin", "assignments")))
}
