package web_test

import (
	"context"
	"hearth/internal/testkit"
	"net/http"
	"net/url"
	"runtime"
	"strings"
	"testing"
	"time"

	"hearth/internal/agent"
	"hearth/internal/live"
)

func TestRunNowFromTheAdminPageShowsLiveProgress(t *testing.T) {
	env := newAdminEnv(t, withGate())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := env.openLive(ctx, "/admin/live/assignments")
	s.waitEvent(t, 2*time.Second, `id="runs-live"`, "No runs yet")

	// Run now (Datastar form post): the answer is a flash; progress comes
	// over the page's stream.
	resp, body := env.form("/admin/assignments/tester/note/run", url.Values{"member": {"ada"}}, true)
	if resp.StatusCode != 200 || !strings.Contains(resp.Header.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("run now: %d %s", resp.StatusCode, body)
	}
	mustContain(t, "run now answer", body, `id="flash"`, "Run #1 of note for ada is queued")
	// Gated in gather: the card shows the run going, phase by phase.
	ev := s.waitEvent(t, 3*time.Second, `id="run-1"`, `data-status="running"`, "phase-current")
	mustContain(t, "running card", ev, "load_memory", "phase-done", "gather")
	env.release()
	ev = s.waitEvent(t, 3*time.Second, `id="run-1"`, `data-status="succeeded"`)
	mustContain(t, "finished card", ev, "heuristic", "save_memory", "Attempts", "Cost", "$0")
	mustNotContain(t, "finished card", ev, "phase-current", "phase-pending")

	// For all members: two runs; a plain form post redirects home.
	resp, _ = env.form("/admin/assignments/tester/note/run", url.Values{"member": {"all"}}, false)
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/admin" {
		t.Fatalf("run for all: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	s.waitEvent(t, 3*time.Second, `id="run-2"`, `id="run-3"`)
	testkit.WaitFor(t, testkit.Patience, "both runs to finish", func() bool {
		runs, _ := env.orch.Runs().List(ctx, agent.RunFilter{Status: agent.StatusSucceeded})
		return len(runs) == 3
	})
	// One member, plain form: to the run page.
	resp, _ = env.form("/admin/assignments/tester/note/run", url.Values{"member": {"bo"}}, false)
	if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(loc, "/admin/runs/") {
		t.Fatalf("run for bo: %d %q", resp.StatusCode, loc)
	}
	// No member chosen (not our form): refused.
	if resp, _ := env.form("/admin/assignments/tester/note/run", nil, false); resp.StatusCode != 400 {
		t.Fatalf("run without a member: %d", resp.StatusCode)
	}
	// Unknown assignment or member: 404, nothing started.
	if resp, _ := env.form("/admin/assignments/tester/nothing/run", url.Values{"member": {"ada"}}, false); resp.StatusCode != 404 {
		t.Fatalf("unknown assignment: %d", resp.StatusCode)
	}
	_, body = env.form("/admin/assignments/tester/note/run", url.Values{"member": {"zed"}}, true)
	mustContain(t, "unknown member (Datastar)", body, `id="flash"`, "zed")
}

func TestRunHistoryAndDetailPages(t *testing.T) {
	env := newAdminEnv(t)
	ctx := context.Background()
	for _, m := range []string{"ada", "bo"} {
		if _, err := env.orch.Run(ctx, agent.Request{Agent: "tester", Assignment: "note", Member: m}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := env.orch.Run(ctx, agent.Request{Agent: "tester", Member: "ada", Message: "hello"}); err != nil {
		t.Fatal(err)
	}
	code, body := env.page("/admin/runs")
	if code != 200 || strings.Count(body, `<tr id="row-`) != 3 {
		t.Fatalf("history: %d, rows %d", code, strings.Count(body, `<tr id="row-`))
	}
	mustContain(t, "history", body, "/admin/live/runs", "chat")
	_, body = env.page("/admin/runs?member=bo&assignment=note&status=succeeded")
	if n := strings.Count(body, `<tr id="row-`); n != 1 || !strings.Contains(body, `id="row-2"`) {
		t.Fatalf("filtered history has %d rows:\n%s", n, body)
	}
	// The filter reaches the live stream as hidden form fields, never inside
	// a Datastar expression.
	mustContain(t, "stream filter", body, `<form id="runs-live" hidden>`, `name="member" value="bo"`, `selector: &#39;#runs-live&#39;`)
	for _, bad := range []string{"agent=nobody", "assignment=nope", "member=zed"} {
		if code, _ := env.page("/admin/runs?" + bad); code != 400 {
			t.Errorf("unknown filter %s: %d, want 400", bad, code)
		}
	}
	_, body = env.page("/admin/runs?limit=1")
	mustContain(t, "paged history", body, "Older runs", "before=3")
	if code, _ := env.page("/admin/runs?status=nope"); code != 400 {
		t.Fatalf("bad status filter: %d", code)
	}

	code, body = env.page("/admin/runs/1")
	if code != 200 {
		t.Fatalf("run page: %d", code)
	}
	mustContain(t, "run page", body, "Run #1", "You write notes.", "Note for", "Keep going, ada!", "Every output was valid",
		"No tool calls", "/admin/live/runs/1", `data-status="succeeded"`)
	for _, p := range []string{"/admin/runs/999", "/admin/runs/x"} {
		if code, _ := env.page(p); code != 404 {
			t.Errorf("GET %s: %d, want 404", p, code)
		}
	}
}

func TestRunHistoryStreamFollowsItsFilter(t *testing.T) {
	env := newAdminEnv(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := env.openLive(ctx, "/admin/live/runs?agent=&assignment=&member=bo&status=&limit=50")
	s.waitEvent(t, 2*time.Second, `id="runs-table"`, "No runs match")
	if _, err := env.orch.Run(ctx, agent.Request{Agent: "tester", Assignment: "note", Member: "ada"}); err != nil {
		t.Fatal(err)
	}
	if _, err := env.orch.Run(ctx, agent.Request{Agent: "tester", Assignment: "note", Member: "bo"}); err != nil {
		t.Fatal(err)
	}
	ev := s.waitEvent(t, 3*time.Second, `id="row-2"`, `data-status="succeeded"`)
	mustNotContain(t, "bo's history", ev, `id="row-1"`)
}

func TestAdminStreamEndsWhenClientGoes(t *testing.T) {
	env := newAdminEnv(t)
	for _, path := range []string{"/admin/live/assignments", "/admin/live/schedules", "/admin/live/todos", "/admin/live/memory/tester/ada"} {
		t.Run(path, func(t *testing.T) {
			env.client.CloseIdleConnections()
			runtime.GC()
			before := runtime.NumGoroutine()
			ctx, cancel := context.WithCancel(context.Background())
			s := env.openLive(ctx, path)
			s.waitEvent(t, 2*time.Second, "datastar-patch-elements")
			s.waitEvent(t, 2*time.Second, "datastar-patch-signals", `"_ka":`) // keep-alive the page watches
			if n := env.hub.Subscribers(live.TopicAdmin); n != 1 {
				t.Fatalf("admin subscribers = %d, want 1", n)
			}
			cancel()
			env.client.CloseIdleConnections()
			testkit.WaitFor(t, testkit.Patience, "the stream to unsubscribe", func() bool { return env.hub.Subscribers(live.TopicAdmin) == 0 })
			testkit.WaitFor(t, testkit.Patience, "goroutines to end", func() bool { return runtime.NumGoroutine() <= before })
		})
	}
	// Hub shutdown ends open streams too.
	s := env.openLive(context.Background(), "/admin/live/assignments")
	s.waitEvent(t, 2*time.Second, "datastar-patch-elements")
	env.hub.Close()
	testkit.WaitFor(t, testkit.Patience, "the stream to end at shutdown", func() bool {
		for {
			select {
			case _, ok := <-s.ch:
				if !ok {
					return true
				}
			default:
				return false
			}
		}
	})
}
