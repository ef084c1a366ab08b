package web_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// fakeHA is a minimal Home Assistant REST API for the integrations tests,
// shaped after the documentation (https://developers.home-assistant.io/docs/api/rest/,
// developers.home-assistant docs/api/rest.md; notes in
// /work/shared/notes/integrations.md §1): every call needs
// "Authorization: Bearer <long-lived token>", else 401 with aiohttp's
// plain-text body; GET /api/ (trailing slash) answers {"message": "API
// running."}; GET /api/config the configuration with "version"; GET
// /api/states an array of state objects (state always a string).
type fakeHA struct {
	*httptest.Server
	token    string
	entities int

	mu   sync.Mutex
	auth []string // Authorization headers received
}

func newFakeHA(t *testing.T, token string, entities int) *fakeHA {
	t.Helper()
	f := &fakeHA{token: token, entities: entities}
	f.Server = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.Close)
	return f
}

const fakeHAVersion = "2026.8.1"

func (f *fakeHA) serve(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	f.auth = append(f.auth, r.Header.Get("Authorization"))
	f.mu.Unlock()
	if r.Header.Get("Authorization") != "Bearer "+f.token {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = w.Write([]byte("401: Unauthorized"))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	switch {
	case r.Method == http.MethodGet && r.URL.Path == "/api/":
		_, _ = w.Write([]byte(`{"message": "API running."}`))
	case r.Method == http.MethodGet && r.URL.Path == "/api/config":
		_ = json.NewEncoder(w).Encode(map[string]any{"location_name": "Home", "time_zone": "Europe/Berlin",
			"version": fakeHAVersion, "components": []string{"api", "light"}, "unit_system": map[string]string{"mass": "kg"}})
	case r.Method == http.MethodGet && r.URL.Path == "/api/states":
		states := make([]map[string]any, f.entities)
		for i := range states {
			states[i] = map[string]any{"entity_id": fmt.Sprintf("light.lamp_%d", i), "state": "off",
				"attributes":   map[string]any{"friendly_name": fmt.Sprintf("Lamp %d", i)},
				"last_changed": "2026-05-01T18:02:11.123456+00:00", "last_updated": "2026-05-01T18:02:11.123456+00:00",
				"context": map[string]any{"id": "01JABCDEF", "parent_id": nil, "user_id": nil}}
		}
		_ = json.NewEncoder(w).Encode(states)
	default:
		w.WriteHeader(http.StatusNotFound)
		_, _ = w.Write([]byte(`{"message": "Entity not found."}`))
	}
}

// sawToken reports whether a request carried the token.
func (f *fakeHA) sawToken() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, a := range f.auth {
		if a == "Bearer "+f.token {
			return true
		}
	}
	return false
}
