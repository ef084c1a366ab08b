package hatest

import (
	"net/http"
	"reflect"
	"strings"
)

// knownServices are the services the fake has (a real instance lists its
// own at GET /api/services). Names from HA-core's services.yaml files;
// see /work/shared/notes/integrations.md §1 "Common domains / services".
var knownServices = map[string][]string{
	"homeassistant":           {"turn_on", "turn_off", "toggle", "restart", "stop", "reload_all", "reload_core_config"},
	"light":                   {"turn_on", "turn_off", "toggle"},
	"switch":                  {"turn_on", "turn_off", "toggle"},
	"fan":                     {"turn_on", "turn_off", "toggle"},
	"climate":                 {"set_temperature", "set_hvac_mode", "turn_on", "turn_off"},
	"lock":                    {"lock", "unlock", "open"},
	"alarm_control_panel":     {"alarm_arm_away", "alarm_arm_home", "alarm_disarm"},
	"cover":                   {"open_cover", "close_cover", "stop_cover", "toggle"},
	"script":                  {"turn_on", "turn_off", "toggle", "reload"},
	"automation":              {"turn_on", "turn_off", "toggle", "trigger", "reload"},
	"scene":                   {"turn_on", "reload"},
	"media_player":            {"turn_on", "turn_off", "media_play", "media_pause"},
	"hassio":                  {"host_reboot", "host_shutdown", "backup_full"},
	"persistent_notification": {"create", "dismiss"},
}

// services answers POST /api/services/<domain>/<service> as HA-core's
// APIDomainServicesView.post: the body (optional) is the service data;
// not JSON → 400 "Data should be valid JSON."; an unknown service → 400
// (aiohttp HTTPBadRequest, plain text); otherwise the states the call
// changed, as a JSON array. Every call is recorded, with or without the
// right token.
func (s *Server) services(w http.ResponseWriter, r *http.Request, authorized bool) {
	domain, service, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/api/services/"), "/")
	call := Call{Domain: domain, Service: service, Authorized: authorized}
	if !authorized {
		s.record(call)
		writePlain(w, http.StatusUnauthorized)
		return
	}
	data, ok := readJSON(w, r)
	call.Data = data
	s.record(call)
	if !ok {
		return
	}
	if !known(domain, service) {
		writePlain(w, http.StatusBadRequest)
		return
	}
	if domain == "climate" && service == "set_temperature" {
		if _, ok := number(data["temperature"]); !ok {
			// vol.Invalid from the service schema → HTTPBadRequest.
			writePlain(w, http.StatusBadRequest)
			return
		}
	}
	changed := s.apply(domain, service, data)
	s.mu.Lock()
	deferred := s.deferred
	s.mu.Unlock()
	if deferred {
		changed = []wireState{}
	}
	writeJSON(w, http.StatusOK, changed)
}

func (s *Server) record(c Call) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls = append(s.calls, c)
}

func known(domain, service string) bool {
	for _, sv := range knownServices[domain] {
		if sv == service {
			return true
		}
	}
	return false
}

// apply changes the targeted entities' states: on/off/toggle for any
// entity whose state is on or off, set_temperature's target on a climate
// entity, lock/unlock on a lock. Other services change nothing (a real
// device might report later).
func (s *Server) apply(domain, service string, data map[string]any) []wireState {
	s.mu.Lock()
	defer s.mu.Unlock()
	changed := []wireState{}
	for _, id := range targets(data["entity_id"]) {
		en := s.entities[id]
		if en == nil {
			continue // HA ignores unknown entity ids in service data
		}
		cur := en.current()
		if domain != "homeassistant" && domain != cur.Domain() {
			continue
		}
		state, attrs := cur.State, cloneState(cur).Attributes
		switch service {
		case "turn_on":
			state = "on"
			if b, ok := number(data["brightness"]); ok {
				attrs["brightness"] = b
			}
		case "turn_off":
			state = "off"
		case "toggle":
			state = map[string]string{"on": "off", "off": "on"}[cur.State]
		case "set_temperature":
			t, _ := number(data["temperature"])
			attrs["temperature"] = t
		case "lock":
			state = "locked"
		case "unlock":
			state = "unlocked"
		}
		if state == "" {
			state = cur.State
		}
		if state == cur.State && equalAttrs(attrs, cur.Attributes) {
			continue
		}
		s.setLocked(id, state, attrs, s.now())
		changed = append(changed, toWire(cloneState(en.current()), len(en.history)))
	}
	return changed
}

// targets reads service data's entity_id: one id, a comma-separated
// string or a list (cv.comp_entity_ids).
func targets(v any) []string {
	var out []string
	switch t := v.(type) {
	case string:
		for _, id := range strings.Split(t, ",") {
			out = append(out, strings.ToLower(strings.TrimSpace(id)))
		}
	case []any:
		for _, x := range t {
			if id, ok := x.(string); ok {
				out = append(out, strings.ToLower(strings.TrimSpace(id)))
			}
		}
	}
	return out
}

func number(v any) (float64, bool) {
	f, ok := v.(float64)
	return f, ok
}

// equalAttrs compares attribute maps, which may hold lists (hvac_modes).
func equalAttrs(a, b map[string]any) bool { return reflect.DeepEqual(a, b) }
