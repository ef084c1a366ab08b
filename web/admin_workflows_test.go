package web_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"hearth/internal/schedule"
)

func formBody(kv ...string) []byte {
	v := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		v.Set(kv[i], kv[i+1])
	}
	return []byte(v.Encode())
}

// Admin → Workflows lists everything waiting for a person (the coach's
// task waiting for approval, a weekly review's question), and a tap on an
// option answers the question and the run goes on.
func TestAdminWorkflowsWaitingListAndAnswer(t *testing.T) {
	s := newSweepServer(t)
	ctx := context.Background()
	if _, err := s.app.Schedule.Create(ctx, schedule.TaskInput{Description: "Stretch every evening", Kind: schedule.KindRecurring,
		Schedule: "0 20 * * *", AgentID: "health-coach", MemberID: "maya", Prompt: "Remind maya to stretch"}, schedule.ByAgent); err != nil {
		t.Fatal(err)
	}
	ctype := "application/x-www-form-urlencoded"
	// The demo's first plans ran as daily-dashboard workflows before.
	base := lastWorkflowRun(t, s)
	first, second := base+1, base+2
	runPath := func(id int64, rest string) string { return fmt.Sprintf("/admin/workflow-runs/%d%s", id, rest) }
	rec := s.do(swReq{method: "POST", path: "/admin/workflows/weekly-review/start", ctype: ctype, body: formBody("member", "maya")})
	if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != runPath(first, "") {
		t.Fatalf("start: %d %s", rec.Code, rec.Header().Get("Location"))
	}
	waitWorkflowRun(t, s, first, "suspended")

	page := s.do(swReq{method: "GET", path: "/admin/workflows"}).Body.String()
	for _, want := range []string{"Waiting for a person", "Stretch every evening", "How did this week feel?",
		`value="easier"`, ">Easier</button>", fmt.Sprintf("weekly-review #%d", first)} {
		if !strings.Contains(page, want) {
			t.Errorf("the page has no %q", want)
		}
	}
	run := s.do(swReq{method: "GET", path: runPath(first, "")}).Body.String()
	for _, want := range []string{"Waiting for an answer", "summarise", "wf-status-suspended", "Pause"} {
		if !strings.Contains(run, want) {
			t.Errorf("the run page has no %q", want)
		}
	}

	rec = s.do(swReq{method: "POST", path: runPath(first, "/resume"), ctype: ctype,
		body: formBody("step", "ask", "field", "choice", "value", "easier")})
	if rec.Code != http.StatusSeeOther {
		t.Fatalf("answer: %d %s", rec.Code, rec.Body)
	}
	waitWorkflowRun(t, s, first, "success")
	// A second tap (another screen, a retried form) is refused, politely.
	rec = s.do(swReq{method: "POST", path: runPath(first, "/resume"), ctype: ctype,
		body: formBody("step", "ask", "field", "choice", "value", "harder")})
	if rec.Code != http.StatusConflict || !strings.Contains(rec.Body.String(), "not suspended") {
		t.Errorf("second answer: %d", rec.Code)
	}
	// An answer outside the step's schema is refused and changes nothing.
	s.do(swReq{method: "POST", path: "/admin/workflows/weekly-review/start", ctype: ctype, body: formBody("member", "theo")})
	waitWorkflowRun(t, s, second, "suspended")
	before := s.digest(t)
	rec = s.do(swReq{method: "POST", path: runPath(second, "/resume"), ctype: ctype,
		body: formBody("step", "ask", "data", `{"choice":"twice as hard"}`)})
	if rec.Code != http.StatusBadRequest || s.digest(t) != before {
		t.Errorf("bad answer: %d (changed: %v)", rec.Code, s.digest(t) != before)
	}
	if rec := s.do(swReq{method: "POST", path: runPath(second, "/pause"), ctype: ctype}); rec.Code != http.StatusSeeOther {
		t.Errorf("pause: %d", rec.Code)
	}
	waitWorkflowRun(t, s, second, "paused")
	if rec := s.do(swReq{method: "POST", path: runPath(second, "/restart"), ctype: ctype}); rec.Code != http.StatusSeeOther {
		t.Errorf("restart: %d", rec.Code)
	}
	waitWorkflowRun(t, s, second, "suspended")
	if rec := s.do(swReq{method: "POST", path: runPath(second, "/explode"), ctype: ctype}); rec.Code != http.StatusNotFound {
		t.Errorf("unknown action: %d", rec.Code)
	}
}
