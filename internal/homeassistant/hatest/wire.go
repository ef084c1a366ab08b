package hatest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"hearth/internal/homeassistant"
)

// wireState is a state object as HA-core's State._as_dict writes it
// (homeassistant/core.py), including last_reported and context, which the
// examples in docs/api/rest.md leave out.
type wireState struct {
	EntityID     string         `json:"entity_id"`
	State        string         `json:"state"`
	Attributes   map[string]any `json:"attributes"`
	LastChanged  string         `json:"last_changed"`
	LastReported string         `json:"last_reported"`
	LastUpdated  string         `json:"last_updated"`
	Context      wireContext    `json:"context"`
}

type wireContext struct {
	ID       string  `json:"id"`
	ParentID *string `json:"parent_id"`
	UserID   *string `json:"user_id"`
}

func toWire(st homeassistant.State, seq int) wireState {
	return wireState{
		EntityID:     st.EntityID,
		State:        st.State,
		Attributes:   st.Attributes,
		LastChanged:  isoformat(st.LastChanged),
		LastReported: isoformat(st.LastUpdated),
		LastUpdated:  isoformat(st.LastUpdated),
		// A ULID in HA; any unique string will do for a client.
		Context: wireContext{ID: fmt.Sprintf("01HEARTHFAKE%014d", seq)},
	}
}

// isoformat writes a time as Python's datetime.isoformat() does for an
// aware UTC datetime: "2026-05-01T18:02:11.123456+00:00", without the
// fraction when the microseconds are zero.
func isoformat(t time.Time) string {
	t = t.UTC()
	if t.Nanosecond()/1000 == 0 {
		return t.Format("2006-01-02T15:04:05+00:00")
	}
	return t.Format("2006-01-02T15:04:05.000000+00:00")
}

// writeJSON answers as HomeAssistantView.json does.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// writeMessage answers as HomeAssistantView.json_message does:
// {"message": "..."}.
func writeMessage(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"message": msg})
}

// writePlain answers as an aiohttp HTTPException without text does: the
// body "<status>: <reason>" as text/plain (aiohttp/web_exceptions.py,
// HTTPException.__init__). HA's auth middleware and the service view's
// unknown-service check raise these.
func writePlain(w http.ResponseWriter, status int) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(status)
	fmt.Fprintf(w, "%d: %s", status, http.StatusText(status))
}
