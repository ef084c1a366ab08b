// Package hatest is a fake Home Assistant for tests: an httptest server
// that speaks the documented REST API
// (https://developers.home-assistant.io/docs/api/rest/, source
// docs/api/rest.md in home-assistant/developers.home-assistant) with the
// status codes and bodies HA-core produces
// (homeassistant/components/api/__init__.py,
// homeassistant/components/history/__init__.py; see
// /work/shared/notes/integrations.md §1).
//
// It checks the bearer token on every request and the request shapes a
// real instance insists on, keeps entity states (with history) and areas
// that tests seed, applies the common on/off and thermostat services, and
// records every service call so a test can assert what Hearth asked for.
//
//	ha := hatest.New(t, "token")
//	ha.AddArea("living_room", "Living Room")
//	ha.Add(hatest.Entity{ID: "light.lamp", Name: "Lamp", State: "off", Area: "living_room"})
//	client := ha.Client(t) // a *homeassistant.Client with the right token
//	…
//	calls := ha.Calls() // [{Domain: "light", Service: "turn_on", Data: {"entity_id": "light.lamp"}, Authorized: true}]
//
// Faults: FailWith(500) answers every request with that status; Hang()
// holds every request until the client gives up (or release is called);
// SetAdmin(false) makes the token a non-admin user's (POST /api/template
// answers 401); DeferStates(true) answers service calls with [] as a
// device that reports its new state later does.
//
// All methods are safe for concurrent use with the server's handlers.
package hatest

import (
	"context"
	"maps"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"hearth/internal/homeassistant"
)

// Version is the version GET /api/config reports.
const Version = "2026.11.2"

// Server is a fake Home Assistant instance.
type Server struct {
	srv   *httptest.Server
	token string

	mu       sync.Mutex
	admin    bool
	failWith int
	hang     chan struct{} // non-nil while Hang is in force
	deferred bool
	now      func() time.Time
	areas    []area
	entities map[string]*entity
	calls    []Call
	requests []Request
}

type area struct{ id, name string }

type entity struct {
	area    string
	history []homeassistant.State // oldest first; the last is the current state
}

// Entity seeds one entity. Name and Unit become the friendly_name and
// unit_of_measurement attributes; Area is an area id given to AddArea.
type Entity struct {
	ID         string
	Name       string
	State      string
	Unit       string
	Area       string
	Attributes map[string]any
}

// Call is one POST /api/services/<domain>/<service> the fake received.
type Call struct {
	Domain  string
	Service string
	// Data is the decoded JSON body (nil when there was none or it was
	// not JSON).
	Data map[string]any
	// Authorized says the request carried "Authorization: Bearer <token>"
	// with the server's token.
	Authorized bool
}

// Request is any request the fake received (for asserting that the token
// was on every one, or that none arrived).
type Request struct {
	Method     string
	Path       string
	Authorized bool
}

// New starts a fake instance that accepts token, closed when t ends. The
// token is an admin user's; the clock is time.Now until SetClock.
func New(t testing.TB, token string) *Server {
	t.Helper()
	s := &Server{token: token, admin: true, now: time.Now, entities: map[string]*entity{}}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.srv.Close)
	// Cleanups run last-first: release hung requests before Close waits
	// for them.
	t.Cleanup(func() { s.release() })
	return s
}

// URL is the instance's base address (http://127.0.0.1:port).
func (s *Server) URL() string { return s.srv.URL }

// Config is a client configuration for this instance with the right token.
func (s *Server) Config() homeassistant.Config {
	return homeassistant.Config{URL: s.srv.URL, Token: s.token}
}

// Client is a client for this instance with the right token.
func (s *Server) Client(t testing.TB) *homeassistant.Client {
	t.Helper()
	c, err := homeassistant.New(s.Config())
	if err != nil {
		t.Fatalf("hatest: client: %v", err)
	}
	return c
}

// Connect is a homeassistant.Connect that always returns a client for
// this instance.
func (s *Server) Connect() homeassistant.Connect {
	cfg := s.Config()
	return func(ctx context.Context) (*homeassistant.Client, error) { return homeassistant.New(cfg) }
}

// Close stops the server now (later requests get "connection refused");
// New's cleanup also closes it.
func (s *Server) Close() {
	s.release()
	s.srv.Close()
}

// SetClock sets where the fake's time comes from (Add's last_changed, the
// history endpoint's default period).
func (s *Server) SetClock(now func() time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.now = now
}

// SetAdmin says whether the token is an admin user's (true by default).
// A non-admin token gets 401 from POST /api/template, as in HA-core.
func (s *Server) SetAdmin(admin bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.admin = admin
}

// FailWith makes every request answer status (e.g. 500) with aiohttp's
// plain-text body; 0 restores normal answers.
func (s *Server) FailWith(status int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failWith = status
}

// Hang holds every request from now on until the client goes away or
// release is called (for timeout tests: no sleeping needed, the client's
// own timeout ends the request).
func (s *Server) Hang() (release func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.hang == nil {
		s.hang = make(chan struct{})
	}
	return s.release
}

func (s *Server) release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.hang != nil {
		close(s.hang)
		s.hang = nil
	}
}

// DeferStates makes service calls apply their change but answer [] — what
// Home Assistant does when a device reports its new state after the call
// returns.
func (s *Server) DeferStates(deferred bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.deferred = deferred
}

// AddArea adds an area (the template functions areas(), area_name() and
// area_entities() answer from these, in the order added).
func (s *Server) AddArea(id, name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.areas = append(s.areas, area{id: id, name: name})
}

// Add seeds an entity whose state is e.State since now.
func (s *Server) Add(e Entity) {
	attrs := maps.Clone(e.Attributes)
	if attrs == nil {
		attrs = map[string]any{}
	}
	if e.Name != "" {
		attrs["friendly_name"] = e.Name
	}
	if e.Unit != "" {
		attrs["unit_of_measurement"] = e.Unit
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	en := s.entities[e.ID]
	if en == nil {
		en = &entity{}
		s.entities[e.ID] = en
	}
	en.area = e.Area
	s.setLocked(e.ID, e.State, attrs, s.now())
}

// SetState gives entityID the state and attributes at time at, appending
// to its history (at should not be before the last state's time). Nil
// attrs keep the current attributes; the entity is created when new.
func (s *Server) SetState(entityID, state string, attrs map[string]any, at time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.entities[entityID] == nil {
		s.entities[entityID] = &entity{}
	}
	s.setLocked(entityID, state, maps.Clone(attrs), at)
}

// setLocked appends a state as Home Assistant's State does: last_changed
// moves only when the state string changes, last_updated on any change.
func (s *Server) setLocked(id, state string, attrs map[string]any, at time.Time) {
	en := s.entities[id]
	at = at.UTC()
	next := homeassistant.State{EntityID: id, State: state, Attributes: attrs, LastChanged: at, LastUpdated: at}
	if n := len(en.history); n > 0 {
		cur := en.history[n-1]
		if attrs == nil {
			next.Attributes = maps.Clone(cur.Attributes)
		}
		if cur.State == state {
			next.LastChanged = cur.LastChanged
		}
	}
	if next.Attributes == nil {
		next.Attributes = map[string]any{}
	}
	en.history = append(en.history, next)
}

// State is an entity's current state as the fake holds it.
func (s *Server) State(entityID string) (homeassistant.State, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	en := s.entities[entityID]
	if en == nil {
		return homeassistant.State{}, false
	}
	return cloneState(en.current()), true
}

// Calls lists the service calls received, oldest first.
func (s *Server) Calls() []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Call, len(s.calls))
	for i, c := range s.calls {
		out[i] = Call{Domain: c.Domain, Service: c.Service, Data: maps.Clone(c.Data), Authorized: c.Authorized}
	}
	return out
}

// Requests lists every request received, oldest first.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.requests)
}

func (e *entity) current() homeassistant.State { return e.history[len(e.history)-1] }

func cloneState(st homeassistant.State) homeassistant.State {
	st.Attributes = maps.Clone(st.Attributes)
	return st
}
