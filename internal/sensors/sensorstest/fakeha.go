// Package sensorstest is a fake Home Assistant for the sensors' tests.
package sensorstest

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"hearth/internal/homeassistant"
)

// HA answers Home Assistant's REST API as documented at
// https://developers.home-assistant.io/docs/api/rest/ (docs/api/rest.md in
// home-assistant/developers.home-assistant): GET /api/states, and GET
// /api/history/period/<timestamp>?filter_entity_id=…&end_time=…, which
// answers an array of one array of state objects per entity, oldest first.
// As Home Assistant's history does, the state in force at the start comes
// first with last_changed clamped to the start. Every request must carry
// "Authorization: Bearer <token>" (401 otherwise). Until the shared fake
// (internal/homeassistant/hatest) reaches main, this is the sensors' own;
// it answers only what the poller and the admin's picker ask.
type HA struct {
	t     testing.TB
	token string
	// Srv is the server; Srv.URL is the instance's address.
	Srv *httptest.Server

	mu       sync.Mutex
	states   map[string][]homeassistant.State // entity → its changes, oldest first
	fail     int                              // answer every request with this status (0: answer)
	requests []string                         // path?query of each request
}

// New starts a fake instance that accepts token.
func New(t testing.TB, token string) *HA {
	f := &HA{t: t, token: token, states: map[string][]homeassistant.State{}}
	f.Srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.Srv.Close)
	return f
}

// Connect is a homeassistant.Connect for the fake.
func (f *HA) Connect() homeassistant.Connect {
	return func(context.Context) (*homeassistant.Client, error) {
		return homeassistant.New(homeassistant.Config{URL: f.Srv.URL, Token: f.token})
	}
}

// Add records a state change of entity at t, with its unit.
func (f *HA) Add(entity, state, unit string, at time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	attrs := map[string]any{"friendly_name": entity}
	if unit != "" {
		attrs["unit_of_measurement"] = unit
	}
	f.states[entity] = append(f.states[entity], homeassistant.State{EntityID: entity, State: state, Attributes: attrs,
		LastChanged: at.UTC(), LastUpdated: at.UTC()})
}

// SetFail makes every answer status (0: answer again).
func (f *HA) SetFail(status int) {
	f.mu.Lock()
	f.fail = status
	f.mu.Unlock()
}

// HistoryRequests are the history requests so far (path?query).
func (f *HA) HistoryRequests() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for _, r := range f.requests {
		if strings.HasPrefix(r, "/api/history/period/") {
			out = append(out, r)
		}
	}
	return out
}

func (f *HA) serve(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.requests = append(f.requests, r.URL.Path+"?"+r.URL.RawQuery)
	if r.Header.Get("Authorization") != "Bearer "+f.token {
		http.Error(w, "401: Unauthorized", http.StatusUnauthorized)
		return
	}
	if f.fail != 0 {
		http.Error(w, "500 Internal Server Error\n\nServer got itself in trouble", f.fail)
		return
	}
	switch {
	case r.Method == http.MethodGet && r.URL.Path == "/api/states":
		var all []homeassistant.State
		for _, ss := range f.states {
			all = append(all, ss[len(ss)-1])
		}
		writeJSON(w, wireAll(all))
	case r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/api/history/period/"):
		f.history(w, r)
	default:
		http.Error(w, "404: Not Found", http.StatusNotFound)
	}
}

func (f *HA) history(w http.ResponseWriter, r *http.Request) {
	raw := strings.TrimPrefix(r.URL.Path, "/api/history/period/")
	start, err := time.Parse(time.RFC3339, raw)
	if err != nil {
		http.Error(w, "Invalid datetime", http.StatusBadRequest)
		return
	}
	end := start.Add(24 * time.Hour) // the documented default
	if e := r.URL.Query().Get("end_time"); e != "" {
		if end, err = time.Parse(time.RFC3339, e); err != nil {
			http.Error(w, "Invalid end_time", http.StatusBadRequest)
			return
		}
	}
	ids := r.URL.Query().Get("filter_entity_id")
	if ids == "" {
		http.Error(w, "filter_entity_id is missing", http.StatusBadRequest)
		return
	}
	out := [][]map[string]any{}
	for _, id := range strings.Split(ids, ",") {
		var series []homeassistant.State
		for _, s := range f.states[id] {
			switch {
			case !s.LastChanged.After(start): // the state in force at the start, clamped
				s.LastChanged, s.LastUpdated = start, start
				series = []homeassistant.State{s}
			case !s.LastChanged.After(end):
				series = append(series, s)
			}
		}
		if len(series) > 0 {
			out = append(out, wireAll(series))
		}
	}
	writeJSON(w, out)
}

// haTime is how Home Assistant writes times (Python's isoformat, UTC
// offset "+00:00"), as in the documented examples.
const haTime = "2006-01-02T15:04:05.000000-07:00"

// wire is a state object as Home Assistant sends it.
func wire(s homeassistant.State) map[string]any {
	return map[string]any{"entity_id": s.EntityID, "state": s.State, "attributes": s.Attributes,
		"last_changed": s.LastChanged.UTC().Format(haTime), "last_updated": s.LastUpdated.UTC().Format(haTime)}
}

func wireAll(ss []homeassistant.State) []map[string]any {
	out := []map[string]any{}
	for _, s := range ss {
		out = append(out, wire(s))
	}
	return out
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// SinceOf is the start time of a history request.
func SinceOf(t *testing.T, req string) time.Time {
	t.Helper()
	p, _, _ := strings.Cut(strings.TrimPrefix(req, "/api/history/period/"), "?")
	p, _ = url.PathUnescape(p)
	at, err := time.Parse(time.RFC3339, p)
	if err != nil {
		t.Fatalf("history request %q: %v", req, err)
	}
	return at
}
