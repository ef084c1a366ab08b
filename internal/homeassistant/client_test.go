package homeassistant_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"hearth/internal/apperr"
	"hearth/internal/homeassistant"
	"hearth/internal/homeassistant/hatest"
)

const token = "llat-test-token-0123456789"

func TestPingReadsTheVersion(t *testing.T) {
	ha := hatest.New(t, token)
	info, err := ha.Client(t).Ping(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if info.Version != hatest.Version || info.LocationName != "Home" || info.TimeZone != "Europe/London" {
		t.Fatalf("info = %+v", info)
	}
	for _, r := range ha.Requests() {
		if !r.Authorized {
			t.Errorf("%s %s went without the token", r.Method, r.Path)
		}
	}
	if got := len(ha.Requests()); got != 2 {
		t.Errorf("%d requests, want GET /api/ and GET /api/config", got)
	}
}

func TestStatesAndState(t *testing.T) {
	ha := hatest.New(t, token)
	ha.Add(hatest.Entity{ID: "sensor.scale_weight", Name: "Scale", State: "72.4", Unit: "kg"})
	ha.Add(hatest.Entity{ID: "light.lamp", Name: "Lamp", State: "off"})
	c := ha.Client(t)
	ctx := context.Background()

	all, err := c.States(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 2 || all[0].EntityID != "light.lamp" || all[1].Unit() != "kg" || all[1].Name() != "Scale" {
		t.Fatalf("states = %+v", all)
	}
	st, err := c.State(ctx, "sensor.scale_weight")
	if err != nil {
		t.Fatal(err)
	}
	if st.State != "72.4" || st.Domain() != "sensor" || st.LastChanged.IsZero() {
		t.Fatalf("state = %+v", st)
	}
}

func TestUnknownEntityIsNotFound(t *testing.T) {
	ha := hatest.New(t, token)
	_, err := ha.Client(t).State(context.Background(), "light.nowhere")
	if !errors.Is(err, homeassistant.ErrNotFound) || !strings.Contains(err.Error(), "Entity not found.") {
		t.Fatalf("err = %v, want ErrNotFound with HA's message", err)
	}
}

func TestBadTokenIsUnauthorized(t *testing.T) {
	ha := hatest.New(t, token)
	c, err := homeassistant.New(homeassistant.Config{URL: ha.URL(), Token: "wrong"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Ping(context.Background())
	if !errors.Is(err, homeassistant.ErrUnauthorized) {
		t.Fatalf("err = %v, want ErrUnauthorized", err)
	}
	if strings.Contains(err.Error(), "wrong") {
		t.Fatalf("the error shows the token: %v", err)
	}
}

func TestClosedServerIsUnreachableQuickly(t *testing.T) {
	ha := hatest.New(t, token)
	c := ha.Client(t)
	ha.Close()
	start := time.Now()
	_, err := c.Ping(context.Background())
	if !errors.Is(err, homeassistant.ErrUnreachable) {
		t.Fatalf("err = %v, want ErrUnreachable", err)
	}
	// A refused connection must not wait for the request timeout.
	if d := time.Since(start); d > homeassistant.DefaultTimeout/2 {
		t.Fatalf("took %s", d)
	}
}

func TestOnlyHTTPURLsAreAccepted(t *testing.T) {
	for _, u := range []string{"ftp://ha.local", "file:///etc/passwd", "javascript:alert(1)", "ha.local:8123", "http://user:pw@ha.local", "http://ha.local/?x=1"} {
		_, err := homeassistant.New(homeassistant.Config{URL: u, Token: token})
		if !apperr.Is(err, apperr.Invalid) {
			t.Errorf("New(%q) = %v, want Invalid", u, err)
		}
	}
	if _, err := homeassistant.New(homeassistant.Config{URL: "https://ha.local:8123/api/", Token: token}); err != nil {
		t.Errorf("https URL with /api/ refused: %v", err)
	}
	if _, err := homeassistant.New(homeassistant.Config{}); !errors.Is(err, homeassistant.ErrNotConfigured) {
		t.Errorf("empty config: %v, want ErrNotConfigured", err)
	}
}

// authRecorder is another host that records what Authorization headers
// reached it.
type authRecorder struct {
	mu   sync.Mutex
	seen []string
}

func (a *authRecorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	a.mu.Lock()
	a.seen = append(a.seen, r.Header.Get("Authorization"))
	a.mu.Unlock()
	_, _ = w.Write([]byte(`{"message":"API running."}`))
}

func TestRedirectToAnotherHostIsRefusedAndTheTokenStays(t *testing.T) {
	other := &authRecorder{}
	evil := httptest.NewServer(other)
	t.Cleanup(evil.Close)
	redirector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, evil.URL+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	t.Cleanup(redirector.Close)

	c, err := homeassistant.New(homeassistant.Config{URL: redirector.URL, Token: token})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Ping(context.Background())
	if !errors.Is(err, homeassistant.ErrRedirect) || errors.Is(err, homeassistant.ErrUnreachable) {
		t.Fatalf("err = %v, want ErrRedirect (not unreachable)", err)
	}
	other.mu.Lock()
	defer other.mu.Unlock()
	if len(other.seen) != 0 {
		t.Fatalf("the other host was asked %d times (Authorization %q)", len(other.seen), other.seen)
	}
}

func TestAreas(t *testing.T) {
	ha := hatest.New(t, token)
	ha.AddArea("living_room", "Living Room")
	ha.AddArea("bedroom", "Bedroom")
	ha.Add(hatest.Entity{ID: "light.lamp", State: "off", Area: "living_room"})
	ha.Add(hatest.Entity{ID: "light.ceiling", State: "off", Area: "living_room"})
	ha.Add(hatest.Entity{ID: "light.hall", State: "off"})
	c := ha.Client(t)

	areas, err := c.Areas(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(areas) != 2 || areas[0].Name != "Living Room" || strings.Join(areas[0].Entities, ",") != "light.ceiling,light.lamp" || len(areas[1].Entities) != 0 {
		t.Fatalf("areas = %+v", areas)
	}

	ha.SetAdmin(false)
	if _, err := c.Areas(context.Background()); !errors.Is(err, homeassistant.ErrUnauthorized) {
		t.Fatalf("non-admin token: %v, want ErrUnauthorized", err)
	}
}

func TestHistoryStartsWithTheStateInForceAndKeepsUnavailable(t *testing.T) {
	ha := hatest.New(t, token)
	t0 := time.Date(2026, 11, 20, 6, 0, 0, 0, time.UTC)
	ha.SetState("sensor.scale_weight", "72.0", map[string]any{"unit_of_measurement": "kg"}, t0)
	ha.SetState("sensor.scale_weight", "72.4", nil, t0.Add(24*time.Hour))
	ha.SetState("sensor.scale_weight", "unavailable", nil, t0.Add(30*time.Hour))
	ha.SetState("sensor.scale_weight", "71.9", nil, t0.Add(48*time.Hour))
	ha.SetState("sensor.scale_weight", "71.5", nil, t0.Add(96*time.Hour)) // after the period

	since := t0.Add(12 * time.Hour)
	states, err := ha.Client(t).History(context.Background(), "sensor.scale_weight", since, t0.Add(72*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range states {
		got = append(got, s.State)
	}
	if strings.Join(got, ",") != "72.0,72.4,unavailable,71.9" {
		t.Fatalf("states = %v", got)
	}
	if !states[0].LastChanged.Equal(since) {
		t.Errorf("first state's last_changed = %s, want clamped to %s", states[0].LastChanged, since)
	}
	if !states[2].Unavailable() || states[3].Unavailable() {
		t.Errorf("unavailable flags wrong: %+v", states)
	}
	if states[1].Unit() != "kg" || !states[1].LastChanged.Equal(t0.Add(24*time.Hour)) {
		t.Errorf("second state = %+v", states[1])
	}
}

func TestHungServerTimesOut(t *testing.T) {
	ha := hatest.New(t, token)
	ha.Hang()
	cfg := ha.Config()
	cfg.Timeout = 50 * time.Millisecond
	c, err := homeassistant.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.States(context.Background())
	if !errors.Is(err, homeassistant.ErrUnreachable) || !strings.Contains(err.Error(), "no answer in time") {
		t.Fatalf("err = %v, want ErrUnreachable: no answer in time", err)
	}
}

func TestServerErrorSaysSo(t *testing.T) {
	ha := hatest.New(t, token)
	ha.FailWith(http.StatusInternalServerError)
	_, err := ha.Client(t).States(context.Background())
	if err == nil || !strings.Contains(err.Error(), "500") || errors.Is(err, homeassistant.ErrUnreachable) {
		t.Fatalf("err = %v, want a 500 error", err)
	}
}

func TestCallServiceChangesTheStateAndIsRecorded(t *testing.T) {
	ha := hatest.New(t, token)
	ha.Add(hatest.Entity{ID: "light.lamp", Name: "Lamp", State: "off"})
	changed, err := ha.Client(t).CallService(context.Background(), "light", "turn_on", map[string]any{"entity_id": "light.lamp", "brightness": 128})
	if err != nil {
		t.Fatal(err)
	}
	if len(changed) != 1 || changed[0].State != "on" {
		t.Fatalf("changed = %+v", changed)
	}
	calls := ha.Calls()
	if len(calls) != 1 || calls[0].Domain != "light" || calls[0].Service != "turn_on" || calls[0].Data["entity_id"] != "light.lamp" || !calls[0].Authorized {
		t.Fatalf("calls = %+v", calls)
	}
	if _, err := ha.Client(t).CallService(context.Background(), "light", "blink", nil); err == nil || !strings.Contains(err.Error(), "400") {
		t.Fatalf("unknown service: %v, want 400", err)
	}
}
