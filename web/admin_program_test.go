package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"hearth/internal/program"
)

// Admin → Household → a member: the same program controls as the kiosk,
// and the coach's messages to the member; Admin → Messages lists them all.
func TestAdminProgramControlsAndMessages(t *testing.T) {
	s := newSweepServer(t)
	ctx := context.Background()
	page := s.do(swReq{method: http.MethodGet, path: "/admin/household/maya"})
	body := page.Body.String()
	for _, want := range []string{`id="program"`, "Ember Core 30", "Pause", "Messages from the coach", "Hydration reminder"} {
		if page.Code != 200 || !strings.Contains(body, want) {
			t.Fatalf("member page (%d) lacks %q", page.Code, want)
		}
	}
	post := func(form url.Values) (int, string) {
		rec := s.do(swReq{method: http.MethodPost, path: "/admin/household/maya/program", ctype: "application/x-www-form-urlencoded",
			body: []byte(form.Encode())})
		return rec.Code, rec.Body.String()
	}
	if code, body := post(url.Values{"op": {"pause"}}); code != 200 || !strings.Contains(body, "Program paused") {
		t.Fatalf("pause: %d", code)
	}
	if st, _ := s.app.Programs.Current(ctx, "maya"); st.Status != program.Paused {
		t.Fatalf("after pause: %+v", st)
	}
	if code, body := post(url.Values{"op": {"pause"}}); code != 400 || !strings.Contains(body, "already") && !strings.Contains(body, "paused") {
		t.Fatalf("pause twice: %d", code)
	}
	if code, _ := post(url.Values{"op": {"switch"}, "program": {"tideline-yoga-21"}}); code != 200 {
		t.Fatalf("switch: %d", code)
	}
	if st, _ := s.app.Programs.Current(ctx, "maya"); st.ProgramID != "tideline-yoga-21" || st.Status != program.Active {
		t.Fatalf("after switch: %+v", st)
	}
	list := s.do(swReq{method: http.MethodGet, path: "/admin/messages"})
	if list.Code != 200 || !strings.Contains(list.Body.String(), "Hydration reminder") || !strings.Contains(list.Body.String(), `href="/admin/household/maya"`) {
		t.Fatalf("/admin/messages: %d", list.Code)
	}
}
