package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"hearth/internal/store"
)

// swTextFields are the text fields Hearth's forms and JSON bodies read.
var swTextFields = []string{"name", "title", "type", "answer", "description", "note", "text", "key", "value",
	"message", "avatar", "unit", "system_prompt", "user_template", "change_note", "content"}

// swControlPayloads are the characters of the live-stream injection class:
// "\r" ends an SSE line in the Datastar client, NUL and ESC are control
// characters no field may hold, U+2028 is ordinary text that must be kept.
var swControlPayloads = map[string]string{
	"CR":     "Oats\r\revent: datastar-patch-signals\rdata: signals {pwned: 1}\r\rx",
	"U+2028": "Oats\u2028bowl",
	"NUL":    "Oats\u0000bowl",
	"ESC":    "Oats\u001b[31mbowl",
}

// TestControlCharacterSweep posts every control-character payload in every
// text field of every state-changing route, as a form and as JSON. Nothing
// may answer 5xx, no stream may carry a "\r", and afterwards no stored text
// value may hold a "\r", NUL, ESC or invalid UTF-8 (store.FindBadText),
// while U+2028 stays ordinary text.
func TestControlCharacterSweep(t *testing.T) {
	s := newSweepServer(t)
	ctx := context.Background()
	for _, rt := range s.app.Echo.Routes() {
		switch rt.Method {
		case http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
		default:
			continue
		}
		path := s.fill(rt.Path, "")
		for name, payload := range swControlPayloads {
			form := url.Values{"weight": {"70"}, "calories": {"300"}, "duration_min": {"20"}, "prompt": {"p1"},
				"kind": {"text"}, "member": {"maya"}, "agent": {"health-coach"}, "ttl": {"1h"}}
			js := map[string]any{"weight_kg": 70, "calories": 300, "duration_min": 20, "body_fat_pct": 20, "lean_mass_kg": 50}
			for _, f := range swTextFields {
				form.Set(f, payload)
				js[f] = payload
			}
			body, _ := json.Marshal(js)
			for _, r := range []swReq{
				{ctype: "application/x-www-form-urlencoded", body: []byte(form.Encode())},
				{ctype: "application/x-www-form-urlencoded", body: []byte(form.Encode()), datastar: true},
				{ctype: "application/json", body: body},
			} {
				r.method, r.path = rt.Method, path
				rec := s.do(r)
				what := fmt.Sprintf("%s in %s %s (%s, datastar=%v)", name, rt.Method, path, r.ctype, r.datastar)
				if rec.Code >= 500 {
					t.Errorf("%s: status %d: %.300s", what, rec.Code, rec.Body.String())
				}
				if strings.Contains(rec.Header().Get("Content-Type"), "event-stream") && strings.Contains(rec.Body.String(), "\r") {
					t.Errorf("%s: the stream answer carries a CR", what)
				}
			}
		}
	}
	bad, err := store.FindBadText(ctx, s.app.DB.Read)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bad {
		t.Errorf("stored %s.%s (row %d) = %q", b.Table, b.Column, b.RowID, b.Value)
	}
	var kept int
	if err := s.app.DB.Read.QueryRow(`SELECT count(*) FROM meals WHERE name = ?`, "Oats\u2028bowl").Scan(&kept); err != nil || kept == 0 {
		t.Errorf("U+2028 must be stored as ordinary text: %d meals, %v", kept, err)
	}
	// The streams that show what was stored carry no CR either.
	for _, p := range []string{"/live/m/maya", "/live/household", "/admin/live/runs", "/admin/live/assignments"} {
		rec := s.do(swReq{method: http.MethodGet, path: p, datastar: true})
		if strings.Contains(rec.Body.String(), "\r") {
			t.Errorf("GET %s: CR in the stream", p)
		}
	}
}

// Single-line fields refuse newlines; multi-line fields normalise CRLF.
func TestTextModesOnTheAPI(t *testing.T) {
	s := newSweepServer(t)
	post := func(path, body string) int {
		return s.do(swReq{method: http.MethodPost, path: path, ctype: "application/json", body: []byte(body)}).Code
	}
	if c := post("/api/v1/members/maya/meals", `{"name":"Oats\nand more","calories":1}`); c != http.StatusBadRequest {
		t.Errorf("meal name with a newline: %d, want 400", c)
	}
	if c := post("/api/v1/members/maya/meals", "{\"name\":\"Oats\xff\",\"calories\":1}"); c != http.StatusBadRequest {
		t.Errorf("meal name with invalid UTF-8: %d, want 400", c)
	}
	if c := post("/api/v1/members/maya/meals", `{"name":"Oats \u2028 bowl","calories":1}`); c != http.StatusCreated {
		t.Errorf("meal name with U+2028: %d, want 201", c)
	}
	rec := s.do(swReq{method: http.MethodPost, path: "/m/maya/meal", ctype: "application/x-www-form-urlencoded",
		body: []byte(url.Values{"name": {"Tea\xfe"}, "calories": {"1"}}.Encode())})
	if rec.Code != http.StatusBadRequest {
		t.Errorf("kiosk form with invalid UTF-8: %d, want 400", rec.Code)
	}
}
