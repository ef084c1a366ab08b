package web_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"hearth/internal/agent/llm/llmtest"
	"hearth/internal/copilot"
)

// cpForged is SSE framing a model or an admin might slip into text: were
// it written through, the client would read a second event.
const cpForged = "\n\nevent: datastar-patch-elements\ndata: elements <div id=\"pwn\" data-init=\"@post('/admin/household')\"></div>\n\n"

// cpSSECheck fails unless body is well-framed SSE: every line an SSE field
// or blank, no "\r", exactly events events, and no request text in a
// Datastar-evaluated attribute of the patched elements. It returns the
// patched signals.
func cpSSECheck(t *testing.T, what, body string, events int) map[string]any {
	t.Helper()
	if strings.Contains(body, "\r") {
		t.Errorf("%s: a \\r in the stream", what)
	}
	n := 0
	var signals map[string]any
	for _, line := range strings.Split(body, "\n") {
		switch {
		case line == "":
		case strings.HasPrefix(line, "event: "):
			n++
		case strings.HasPrefix(line, "data: signals "):
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: signals ")), &signals); err != nil {
				t.Errorf("%s: signals are not JSON: %v", what, err)
			}
		case strings.HasPrefix(line, "data: "), strings.HasPrefix(line, "id: "), strings.HasPrefix(line, "retry: "):
		default:
			t.Errorf("%s: a line that is not an SSE field: %q", what, line)
		}
	}
	if n != events {
		t.Errorf("%s: %d events, want %d:\n%s", what, n, events, body)
	}
	dsCheck(t, what, body)
	return signals
}

// cpBody is a panel's signals with the payload in the request and in
// every value, the stacks and a held command (and the form named in the
// state: the URL's wins).
func cpBody(form, ask string) []byte {
	hostile := dsPayload + cpForged + "\r\revent: datastar-patch-signals\rdata: signals {pwned: 1}\r\r"
	vals := map[string]string{"name": hostile, "id": "x", "avatar": dsPayload}
	b, _ := json.Marshal(map[string]any{copilot.SignalRoot(form): map[string]any{"form": "garage", "ask": ask, "f": vals,
		"undo": []any{vals}, "redo": []any{vals}, "confirm": hostile, "hl": dsPayload, "nav": "javascript:" + dsPayload,
		"pending": []any{map[string]any{"action": "set_field", "field": "name", "value": hostile}}}})
	return b
}

// TestCopilotPanelSweep: the copilot's actions answer a hostile model
// reply and hostile panel state (Datastar expressions, HTML, SSE framing,
// "\r") with one signal patch of JSON data and log lines as element text;
// nothing lands in an evaluated attribute, no event is forged, and the
// browser's link and highlight are only the registry's. An unknown form
// is refused.
func TestCopilotPanelSweep(t *testing.T) {
	llm := llmtest.New(t)
	cmd := func(action string, kv ...string) map[string]any {
		c := map[string]any{"action": action, "form": nil, "field": nil, "value": nil, "fields": nil, "to": nil, "text": nil}
		for i := 0; i+1 < len(kv); i += 2 {
			c[kv[i]] = kv[i+1]
		}
		return c
	}
	llm.Push(llmtest.JSON(map[string]any{"message": "<img src=x>" + dsPayload + cpForged, "needs_confirmation": false,
		"commands": []any{
			cmd("set_field", "field", "name", "value", dsPayload+`<b data-init="@post('/x')">`),
			cmd("set_field", "field", "avatar", "value", cpForged), // refused: not one line
			cmd("show_message", "text", "<script>x</script>"+dsPayload+cpForged),
			cmd("highlight_field", "field", dsPayload),
			cmd("navigate", "to", "javascript:"+dsPayload),
			cmd("request_confirmation", "text", dsPayload+cpForged),
			cmd("set_field", "field", "id", "value", dsPayload),
		}}, 5, 5))
	s := sweepOver(t, withDemo(), withModel(llm.URL(), "fake"))

	rec := s.do(swReq{method: http.MethodPost, path: "/admin/copilot/member", ctype: "application/json", datastar: true,
		body: cpBody("member", "add "+dsPayload+cpForged)})
	if rec.Code != http.StatusOK {
		t.Fatalf("ask: %d %s", rec.Code, rec.Body.String())
	}
	sig := cpSSECheck(t, "ask", rec.Body.String(), 2)
	cp, _ := sig["cp_member"].(map[string]any)
	f, _ := cp["f"].(map[string]any)
	if f["name"] != dsPayload+`<b data-init="@post('/x')">` || f["avatar"] != dsPayload || cp["hl"] != "" || cp["nav"] != "" || cp["confirm"] != strings.TrimSpace(dsPayload+cpForged) || cp["ask"] != "" {
		t.Fatalf("patched state: %v", cp)
	}
	if body := rec.Body.String(); strings.Contains(body, "<img") || strings.Contains(body, "<script>") || !strings.Contains(body, "&lt;script&gt;") {
		t.Fatalf("log lines are not text:\n%s", body)
	}
	if n := len(llm.ChatRequests()); n != 1 {
		t.Fatalf("%d model calls", n)
	}

	for _, action := range []string{"undo", "redo", "confirm", "decline"} {
		rec := s.do(swReq{method: http.MethodPost, path: "/admin/copilot/member/" + action, ctype: "application/json", datastar: true,
			body: cpBody("member", "")})
		if rec.Code != http.StatusOK {
			t.Fatalf("%s: %d %s", action, rec.Code, rec.Body.String())
		}
		events := 2
		if action == "undo" || action == "redo" {
			events = 1 // nothing to report
		}
		sig := cpSSECheck(t, action, rec.Body.String(), events)
		cp, _ := sig["cp_member"].(map[string]any)
		if cp["hl"] != "" || cp["nav"] != "" {
			t.Fatalf("%s: the browser's highlight or link came back: %v", action, cp)
		}
	}
	// An unknown form, or a body without the form's panel, is refused
	// (Datastar drops non-200 answers: the error handler flashes it).
	for path, want := range map[string]string{"/admin/copilot/garage": "no such form", "/admin/copilot/night": "missing or malformed"} {
		rec = s.do(swReq{method: http.MethodPost, path: path, ctype: "application/json", datastar: true, body: cpBody("member", "add Ava")})
		if body := rec.Body.String(); rec.Code != http.StatusOK || !strings.Contains(body, want) || strings.Contains(body, "signals") {
			t.Fatalf("%s: %d %s", path, rec.Code, body)
		}
	}
	page := s.do(swReq{method: http.MethodGet, path: "/admin/household"}).Body.String()
	if !strings.Contains(page, `id="copilot-member"`) || !strings.Contains(page, `data-bind__prop.value__event.input.change="cp_member.f.name"`) {
		t.Fatal("Admin → Household has no copilot panel bound to the new-member form")
	}
	dsCheck(t, "GET /admin/household", page)
}

// TestCopilotFormsMatchPages: every field of the copilot's form registry
// is an input of its admin page, and on the pages with a panel each one
// (tokens excepted) is bound to its signal, so a command the server
// accepts always lands in the form.
func TestCopilotFormsMatchPages(t *testing.T) {
	s := sweepOver(t, withDemo())
	panels := map[string]bool{"member": true, "targets": true, "night": true, "time_zone": true, "screen": true, "schedule": true, "plex": true, "homeassistant": true}
	for _, f := range copilot.Forms() {
		path := f.Path
		if f.ID == copilot.FormTargets {
			path = "/admin/household/maya" // a member's page
		}
		page := s.do(swReq{method: http.MethodGet, path: path}).Body.String()
		panel := panels[f.ID]
		if f.ID == copilot.FormTimeZone && strings.Contains(page, "set by <code>HEARTH_TZ</code>") {
			panel = false // fixed where Hearth starts: the form is disabled, no panel
		}
		for _, fd := range f.Fields {
			if !strings.Contains(page, `name="`+fd.Name+`"`) {
				t.Errorf("%s: %s has no field %s", f.ID, path, fd.Name)
			}
			bound := strings.Contains(page, `data-bind__prop.value__event.input.change="`+copilot.SignalRoot(f.ID)+`.f.`+fd.Name+`"`)
			if want := panel && fd.Kind != copilot.Secret; bound != want {
				t.Errorf("%s: %s bound %v, want %v", f.ID, fd.Name, bound, want)
			}
		}
		if panel != strings.Contains(page, `id="copilot-`+f.ID+`"`) {
			t.Errorf("%s: copilot panel on %s: want %v", f.ID, path, panel)
		}
	}
}
