package hatest

import (
	"encoding/json"
	"io"
	"maps"
	"mime"
	"net/http"
	"slices"
	"strings"
	"time"

	"hearth/internal/homeassistant"
)

// maxBody is what the fake reads of a request body (HA's own limit is
// 16 MB; tests send a few bytes).
const maxBody = 1 << 20

// serve records the request, applies the faults, checks the token as HA's
// auth middleware does for every /api/ path, then routes.
func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	authorized := r.Header.Get("Authorization") == "Bearer "+s.token
	s.mu.Lock()
	s.requests = append(s.requests, Request{Method: r.Method, Path: r.URL.Path, Authorized: authorized})
	hang, fail := s.hang, s.failWith
	s.mu.Unlock()

	if hang != nil {
		select {
		case <-hang:
		case <-r.Context().Done():
			return
		}
	}
	if fail != 0 {
		writePlain(w, fail)
		return
	}
	path := r.URL.Path
	// Service calls are recorded before the token check so a test can
	// assert that one with a wrong token was refused.
	if r.Method == http.MethodPost && strings.HasPrefix(path, "/api/services/") {
		s.services(w, r, authorized)
		return
	}
	if !authorized {
		writePlain(w, http.StatusUnauthorized)
		return
	}
	switch {
	case path == "/api/" && r.Method == http.MethodGet:
		// GET /api/ (the trailing slash is required — rest.md).
		writeMessage(w, http.StatusOK, "API running.")
	case path == "/api/config" && r.Method == http.MethodGet:
		s.config(w)
	case path == "/api/states" && r.Method == http.MethodGet:
		s.states(w)
	case strings.HasPrefix(path, "/api/states/") && r.Method == http.MethodGet:
		s.state(w, strings.TrimPrefix(path, "/api/states/"))
	case path == "/api/template" && r.Method == http.MethodPost:
		s.template(w, r)
	case (path == "/api/history/period" || strings.HasPrefix(path, "/api/history/period/")) && r.Method == http.MethodGet:
		s.history(w, r, strings.TrimPrefix(strings.TrimPrefix(path, "/api/history/period"), "/"))
	case path == "/api/" || path == "/api/config" || path == "/api/states" || path == "/api/template" || strings.HasPrefix(path, "/api/states/"):
		writePlain(w, http.StatusMethodNotAllowed)
	default:
		writePlain(w, http.StatusNotFound)
	}
}

// config answers GET /api/config with the keys of HA-core's
// Config.as_dict (homeassistant/core_config.py) a client may read.
func (s *Server) config(w http.ResponseWriter) {
	writeJSON(w, http.StatusOK, map[string]any{
		"components":    []string{"api", "history", "http", "light", "switch", "climate", "sensor"},
		"config_dir":    "/config",
		"country":       "GB",
		"currency":      "GBP",
		"elevation":     25,
		"language":      "en",
		"latitude":      51.5,
		"location_name": "Home",
		"longitude":     -0.12,
		"radius":        100,
		"recovery_mode": false,
		"safe_mode":     false,
		"state":         "RUNNING",
		"time_zone":     "Europe/London",
		"unit_system": map[string]string{
			"length": "km", "accumulated_precipitation": "mm", "mass": "g", "pressure": "Pa",
			"temperature": "°C", "volume": "L", "wind_speed": "m/s",
		},
		"version": Version,
	})
}

// states answers GET /api/states: every entity's state, in id order.
func (s *Server) states(w http.ResponseWriter) {
	s.mu.Lock()
	ids := slices.Sorted(maps.Keys(s.entities))
	out := make([]wireState, 0, len(ids))
	for i, id := range ids {
		out = append(out, toWire(s.entities[id].current(), i))
	}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, out)
}

// state answers GET /api/states/<entity_id>; 404 {"message": "Entity not
// found."} for an unknown one (HA-core APIEntityStateView.get).
func (s *Server) state(w http.ResponseWriter, id string) {
	s.mu.Lock()
	en := s.entities[id]
	var st homeassistant.State
	if en != nil {
		st = cloneState(en.current())
	}
	s.mu.Unlock()
	if en == nil {
		writeMessage(w, http.StatusNotFound, "Entity not found.")
		return
	}
	writeJSON(w, http.StatusOK, toWire(st, 0))
}

// readJSON reads an optional JSON object body as HA-core's views do:
// empty is nil; anything not a JSON object is "Data should be valid
// JSON." (APIDomainServicesView.post). The fake also insists on
// Content-Type application/json with a body, as rest.md tells clients to
// send it.
func readJSON(w http.ResponseWriter, r *http.Request) (map[string]any, bool) {
	raw, err := io.ReadAll(io.LimitReader(r.Body, maxBody))
	if err != nil {
		writeMessage(w, http.StatusBadRequest, "Data should be valid JSON.")
		return nil, false
	}
	if len(strings.TrimSpace(string(raw))) == 0 {
		return nil, true
	}
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
		writeMessage(w, http.StatusBadRequest, "Data should be valid JSON.")
		return nil, false
	}
	var data map[string]any
	if err := json.Unmarshal(raw, &data); err != nil || data == nil {
		writeMessage(w, http.StatusBadRequest, "Data should be valid JSON.")
		return nil, false
	}
	return data, true
}

// template answers POST /api/template. It renders exactly
// homeassistant.AreasTemplate (as text/plain, like the real endpoint);
// any other template is a render error. A non-admin token gets 401
// (@require_admin in HA-core).
func (s *Server) template(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	admin := s.admin
	s.mu.Unlock()
	if !admin {
		writePlain(w, http.StatusUnauthorized)
		return
	}
	data, ok := readJSON(w, r)
	if !ok {
		return
	}
	if tpl, _ := data["template"].(string); tpl != homeassistant.AreasTemplate {
		writeMessage(w, http.StatusBadRequest, "Error rendering template: TemplateError: the fake Home Assistant renders only homeassistant.AreasTemplate")
		return
	}
	s.mu.Lock()
	out := make([]homeassistant.Area, 0, len(s.areas))
	for _, a := range s.areas {
		ents := []string{}
		for _, id := range slices.Sorted(maps.Keys(s.entities)) {
			if s.entities[id].area == a.id {
				ents = append(ents, id)
			}
		}
		out = append(out, homeassistant.Area{ID: a.id, Name: a.name, Entities: ents})
	}
	s.mu.Unlock()
	raw, _ := json.Marshal(out)
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	_, _ = w.Write(raw)
}

// history answers GET /api/history/period/<start>?filter_entity_id=…
// [&end_time=…] (rest.md; HA-core components/history/__init__.py): one
// list per entity that has states in the period, oldest first, the first
// being the state in force at start with its last_changed and
// last_updated clamped to start (include_start_time_state).
func (s *Server) history(w http.ResponseWriter, r *http.Request, rawStart string) {
	s.mu.Lock()
	now := s.now()
	s.mu.Unlock()
	start := now.Add(-24 * time.Hour)
	if rawStart != "" {
		t, err := parseTime(rawStart)
		if err != nil {
			writeMessage(w, http.StatusBadRequest, "Invalid datetime")
			return
		}
		start = t
	}
	end := start.Add(24 * time.Hour)
	if raw := r.URL.Query().Get("end_time"); raw != "" {
		t, err := parseTime(raw)
		if err != nil {
			writeMessage(w, http.StatusBadRequest, "Invalid end_time")
			return
		}
		end = t
	}
	filter := strings.TrimSpace(r.URL.Query().Get("filter_entity_id"))
	if filter == "" {
		writeMessage(w, http.StatusBadRequest, "filter_entity_id is missing")
		return
	}
	ids := strings.Split(strings.ToLower(filter), ",")
	for _, id := range ids {
		if homeassistant.CheckEntityID(id) != nil {
			writeMessage(w, http.StatusBadRequest, "Invalid filter_entity_id")
			return
		}
	}
	out := [][]wireState{}
	s.mu.Lock()
	for _, id := range ids {
		en := s.entities[id]
		if en == nil {
			continue
		}
		var series []wireState
		for i, st := range en.history {
			next := time.Time{}
			if i+1 < len(en.history) {
				next = en.history[i+1].LastUpdated
			}
			switch {
			case st.LastUpdated.After(end):
			case !st.LastUpdated.After(start):
				// In force at start when the next one came after it.
				if next.IsZero() || next.After(start) {
					c := cloneState(st)
					c.LastChanged, c.LastUpdated = start.UTC(), start.UTC()
					series = append(series, toWire(c, i))
				}
			default:
				series = append(series, toWire(cloneState(st), i))
			}
		}
		if len(series) > 0 {
			out = append(out, series)
		}
	}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, out)
}

// parseTime reads an RFC 3339 timestamp. A "+02:00" sent unescaped in
// the query arrives as " 02:00" and fails, as it does on a real instance.
func parseTime(raw string) (time.Time, error) {
	return time.Parse(time.RFC3339Nano, raw)
}
