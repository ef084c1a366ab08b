package web_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"hearth/internal/agent"
	"hearth/internal/testkit"
)

// sseEvent is one event of a text/event-stream.
type sseEvent struct {
	name string
	data map[string]any
}

// readEvents reads events from an SSE body into ch until it ends.
func readEvents(t *testing.T, resp *http.Response, ch chan<- sseEvent) {
	defer close(ch)
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var ev sseEvent
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			ev.name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &ev.data); err != nil {
				t.Errorf("event data %q: %v", line, err)
			}
		case line == "" && ev.name != "":
			ch <- ev
			ev = sseEvent{}
		}
	}
}

// stepIn reports whether a snapshot event lists the step at path with status.
func stepIn(e sseEvent, path, status string) bool {
	steps, _ := e.data["steps"].([]any)
	for _, x := range steps {
		if st, _ := x.(map[string]any); st["path"] == path && st["status"] == status {
			return true
		}
	}
	return false
}

// label is "name:path" for step events, "name:status" otherwise.
func (e sseEvent) label() string {
	if p, _ := e.data["path"].(string); p != "" && e.name != "run_status" {
		return e.name + ":" + p
	}
	s, _ := e.data["status"].(string)
	return e.name + ":" + s
}

// The events stream follows a run from its start to its end: a snapshot,
// each step, the suspension, the answer, and the final snapshot, after
// which the stream ends.
func TestWorkflowEventsFollowARun(t *testing.T) {
	s := newSweepServer(t)
	srv := s.ta.serve()
	rec := s.do(swReq{method: "POST", path: "/api/workflows/weekly-review/runs", ctype: "application/json", body: []byte(`{"member":"theo"}`)})
	if rec.Code != 201 {
		t.Fatalf("start: %d %s", rec.Code, rec.Body)
	}
	var run struct{ ID int64 }
	_ = json.Unmarshal(rec.Body.Bytes(), &run)
	ctx, cancel := context.WithTimeout(context.Background(), testkit.Patience)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL+"/api/workflow-runs/"+itoa(run.ID)+"/events", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("events: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	ch := make(chan sseEvent, 64)
	go readEvents(t, resp, ch)
	var got []string
	next := func(want string) {
		t.Helper()
		for {
			select {
			case ev, ok := <-ch:
				if !ok {
					t.Fatalf("stream ended waiting for %s; got %v", want, got)
				}
				got = append(got, ev.label())
				if ev.label() == want {
					return
				}
			case <-ctx.Done():
				t.Fatalf("no %s; got %v", want, got)
			}
		}
	}
	// The stream may open before or after the first steps: it starts with
	// a snapshot of the run as it is, then follows it. A step that
	// suspended before the stream opened is in that snapshot's steps (the
	// run's own status may still read running: it changes just after).
	var first sseEvent
	select {
	case first = <-ch:
	case <-ctx.Done():
		t.Fatal("no first event")
	}
	got = append(got, first.label())
	if first.name != "snapshot" {
		t.Fatalf("the stream began with %s, want a snapshot", first.label())
	}
	if !stepIn(first, "ask", "suspended") {
		next("step_suspended:ask")
	}
	if first.label() != "snapshot:suspended" {
		next("run_status:suspended")
		next("snapshot:suspended")
	}
	rec = s.do(swReq{method: "POST", path: "/api/workflow-runs/" + itoa(run.ID) + "/resume", ctype: "application/json",
		body: []byte(`{"step":"ask","data":{"choice":"harder"}}`)})
	if rec.Code != 200 {
		t.Fatalf("resume: %d %s", rec.Code, rec.Body)
	}
	next("run_status:running")
	next("step_started:ask")
	next("step_finished:adjust")
	next("run_status:success")
	next("snapshot:success")
	if _, open := <-ch; open {
		t.Error("the stream did not end after the run succeeded")
	}
	if got[0] != "snapshot:running" && got[0] != "snapshot:suspended" {
		t.Errorf("the stream began with %s, want a snapshot", got[0])
	}
	// The answer was theo's: the engine runs are his, and so is the memory.
	rec = s.do(swReq{method: "GET", path: "/api/workflow-runs/" + itoa(run.ID)})
	var done struct {
		Status    string
		AgentRuns []int64 `json:"agent_runs"`
	}
	_ = json.Unmarshal(rec.Body.Bytes(), &done)
	if done.Status != "success" || len(done.AgentRuns) != 2 {
		t.Fatalf("run %s", rec.Body)
	}
	for _, id := range done.AgentRuns {
		r, err := s.app.Agents.Runs().Get(context.Background(), id)
		if err != nil || r.Member != "theo" || r.WorkflowRunID == nil || *r.WorkflowRunID != run.ID {
			t.Errorf("engine run %d: %+v %v", id, r, err)
		}
	}
	mem, err := s.app.Agents.Memory().Entries(context.Background(), "health-coach", "theo")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(mem, func(e agent.MemoryEntry) bool { return e.Key == "program:weekly-review" }) {
		t.Errorf("theo's memory has no weekly review: %+v", mem)
	}
}
