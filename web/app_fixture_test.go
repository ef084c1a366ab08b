package web_test

// The one way the web tests build a server: the real Hearth (app.NewWith,
// the wiring `hearth` serves) over a temp data directory, configured the
// way `hearth` is (app.LoadConfig over an environment), with what a test
// changes given as options. newKiosk, newAdminEnv, newSweepServer and
// newDefsAdmin are views of it with their own helpers.

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"sync"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
	"golang.org/x/crypto/bcrypt"

	"hearth/internal/app"
)

// testApp is a built Hearth; serve makes it answer on a loopback port.
type testApp struct {
	tb  testing.TB
	app *app.App
	// dir is the data directory (HEARTH_DATA).
	dir string
	// clock is the scheduler's: a task fires only when a test advances it.
	clock *clockwork.FakeClock
	// gate, when set (withGate), holds the tester agent's runs in Gather.
	gate chan struct{}
	// srv is where a served app answers (nil until serve).
	srv *served
}

// served is a listening app's address, as httptest.Server has it.
type served struct{ URL string }

// appSpec is what the options change before the build.
type appSpec struct {
	env        map[string]string // read by app.LoadConfig as `hearth` reads its environment
	config     []func(*app.Config)
	opts       app.Options
	clockAt    time.Time
	agentClock bool
	gate       chan struct{}
	logger     *slog.Logger
}

type appOption func(*appSpec)

// withEnv sets a variable of the environment the configuration is read
// from (HEARTH_*, OPENAI_*, PLEX_*), the way to change a setting `hearth`
// reads from its environment.
func withEnv(key, value string) appOption {
	return func(s *appSpec) { s.env[key] = value }
}

// withDemo seeds the demo household (HEARTH_DEMO=1): members, about 60 days of
// data, the demo catalog and programs, today's plans.
func withDemo() appOption { return withEnv("HEARTH_DEMO", "1") }

// withPassword sets the admin password and API token ("" leaves it unset).
//
// The password is configured as a bcrypt hash of the lowest cost
// (HEARTH_ADMIN_PASSWORD accepts one): at the default cost each login
// check took most of a second under -race, and the login tests make dozens.
func withPassword(pw, token string) appOption {
	return func(s *appSpec) { s.env["HEARTH_ADMIN_PASSWORD"], s.env["HEARTH_API_TOKEN"] = cheapHash(pw), token }
}

// cheapHashes keeps one hash per password, so a restart with the same
// password configures the same hash (and keeps sessions, as the app does).
var cheapHashes sync.Map

func cheapHash(pw string) string {
	if pw == "" {
		return ""
	}
	if h, ok := cheapHashes.Load(pw); ok {
		return h.(string)
	}
	h, err := bcrypt.GenerateFromPassword([]byte(pw), bcrypt.MinCost)
	if err != nil {
		panic(err) // only for a password over 72 bytes
	}
	got, _ := cheapHashes.LoadOrStore(pw, string(h))
	return got.(string)
}

// withModel points the app's model at an OpenAI-compatible server (an
// llmtest fake) under the model name.
func withModel(baseURL, model string) appOption {
	return func(s *appSpec) { s.env["OPENAI_BASE_URL"], s.env["HEARTH_MODEL"] = baseURL, model }
}

// withConfig changes the loaded configuration: for what the environment
// cannot say (a limit below what LoadConfig accepts, the kiosk's
// model-call limits).
func withConfig(change func(*app.Config)) appOption {
	return func(s *appSpec) { s.config = append(s.config, change) }
}

// withOptions changes what app.Options give the build (web server knobs,
// wrapped dependencies).
func withOptions(change func(*app.Options)) appOption {
	return func(s *appSpec) { change(&s.opts) }
}

// withMaxImport caps import uploads, and what they unpack to, at n bytes.
func withMaxImport(n int64) appOption {
	return withConfig(func(c *app.Config) { c.ImportMaxBytes = n })
}

// withClockAt starts the scheduler's fake clock at t (default: now).
func withClockAt(t time.Time) appOption {
	return func(s *appSpec) { s.clockAt = t }
}

// withAgentClock makes the database and the services reading its clock,
// the agents' memory expiry among them, run on the scheduler's fake clock.
func withAgentClock() appOption {
	return func(s *appSpec) { s.agentClock = true }
}

// withGate makes the tester agent's assignment wait in Gather until the
// test releases it (adminEnv.release).
func withGate() appOption {
	return func(s *appSpec) { s.gate = make(chan struct{}) }
}

// withLogger gives the app a logger (default: discard).
func withLogger(l *slog.Logger) appOption {
	return func(s *appSpec) { s.logger = l }
}

// newTestApp builds the real app over a fresh data directory: no demo
// household unless asked, household time UTC, a loopback address, and
// the scheduler on a fake clock. The app is closed when the test ends.
func newTestApp(tb testing.TB, opts ...appOption) *testApp {
	tb.Helper()
	dir := tb.TempDir()
	s := appSpec{env: map[string]string{"HEARTH_ADDR": "127.0.0.1:0", "HEARTH_DATA": dir, "HEARTH_DEMO": "0", "HEARTH_TZ": "UTC"},
		clockAt: time.Now()}
	for _, o := range opts {
		o(&s)
	}
	cfg, err := app.LoadConfig(nil, func(k string) string { return s.env[k] }, io.Discard)
	if err != nil {
		tb.Fatal(err)
	}
	for _, change := range s.config {
		change(&cfg)
	}
	ta := &testApp{tb: tb, dir: dir, clock: clockwork.NewFakeClockAt(s.clockAt), gate: s.gate}
	s.opts.Clock = ta.clock
	if s.agentClock {
		s.opts.Now = ta.clock.Now
	}
	a, err := app.NewWith(context.Background(), cfg, s.logger, s.opts)
	if err != nil {
		tb.Fatal(err)
	}
	ta.app = a
	tb.Cleanup(func() {
		if ta.srv == nil { // a served app was closed by Serve
			_ = a.Close()
		}
	})
	return ta
}

// serve starts the app as `hearth` does (app.Serve: the scheduler starts,
// unfinished workflow runs continue) on a loopback port; when the test
// ends it shuts down as on Ctrl-C, and a failure to stop cleanly fails the
// test.
func (ta *testApp) serve() *served {
	ta.tb.Helper()
	addr, err := ta.app.Listen()
	if err != nil {
		ta.tb.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- ta.app.Serve(ctx) }()
	ta.srv = &served{URL: "http://" + addr.String()}
	// The first answer comes once Serve has started the scheduler and
	// serves: a test that ends at once does not stop a start half-way.
	resp, err := (&http.Client{Timeout: 10 * time.Second}).Get(ta.srv.URL + "/healthz")
	if err != nil {
		cancel()
		ta.tb.Fatal(err)
	}
	_ = resp.Body.Close()
	ta.tb.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				ta.tb.Errorf("serve: %v", err)
			}
		case <-time.After(10 * time.Second):
			ta.tb.Error("the app did not stop within 10 s")
		}
	})
	return ta.srv
}

// browser is an HTTP client that keeps cookies like a browser and does
// not follow redirects; timeout bounds each request, its body included
// (0: none, for streams read as long as a test likes).
func browser(timeout time.Duration) *http.Client {
	jar, _ := cookiejar.New(nil)
	return &http.Client{Jar: jar, Timeout: timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}
