package agent_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"hearth/internal/agent"
	"hearth/internal/agent/llm"
	"hearth/internal/agent/llm/llmtest"
	"hearth/internal/apperr"
	"hearth/internal/store"
	"hearth/internal/testkit"
)

func TestSimultaneousRequestsShareOneRun(t *testing.T) {
	f := newFixture(t, fixtureOpts{model: true})
	slow := jsonOut("slow", 1)
	slow.Delay = 300 * time.Millisecond
	f.srv.Push(slow)

	req := agent.Request{Agent: "tester", Assignment: "daily", Member: "ada", Trigger: agent.TriggerManual}
	var wg sync.WaitGroup
	runs := make([]agent.Run, 2)
	errs := make([]error, 2)
	start := make(chan struct{})
	for i := range 2 {
		wg.Go(func() {
			<-start
			runs[i], errs[i] = f.orch.Run(context.Background(), req)
		})
	}
	close(start)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if runs[0].ID != runs[1].ID || runs[0].Status != agent.StatusSucceeded || runs[1].Status != agent.StatusSucceeded {
		t.Fatalf("runs: %s / %s", fmtRun(runs[0]), fmtRun(runs[1]))
	}
	all, _ := f.orch.Runs().List(context.Background(), agent.RunFilter{Agent: "tester"})
	mustEqual(t, "runs recorded", len(all), 1)
	mustEqual(t, "model requests", len(f.srv.ChatRequests()), 1)
	mustEqual(t, "trigger", all[0].Trigger, agent.TriggerManual)
}

func TestBackgroundRunReturnsQueuedAtOnce(t *testing.T) {
	f := newFixture(t, fixtureOpts{model: true})
	slow := jsonOut("later", 1)
	slow.Delay = 200 * time.Millisecond
	f.srv.Push(slow)
	ctx := context.Background()
	req := agent.Request{Agent: "tester", Assignment: "daily", Member: "ada"}
	r, err := f.orch.Start(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != agent.StatusQueued || r.ID == 0 || r.Trigger != agent.TriggerAPI {
		t.Fatal(fmtRun(r))
	}
	again, err := f.orch.Start(ctx, req)
	if err != nil || again.ID != r.ID {
		t.Fatalf("second start = %v, %v", again.ID, err)
	}
	done, err := f.orch.Wait(ctx, r.ID)
	if err != nil || done.Status != agent.StatusSucceeded {
		t.Fatalf("%s %v", fmtRun(done), err)
	}
	// Waiting for a finished run reads it from the store.
	if stored, err := f.orch.Wait(ctx, r.ID); err != nil || stored.Status != agent.StatusSucceeded {
		t.Fatalf("%s %v", fmtRun(stored), err)
	}
}

func TestFanOutToAllMembersWithBoundedModelCalls(t *testing.T) {
	f := newFixture(t, fixtureOpts{model: true, members: []string{"cy", "ada", "bob"},
		opts: agent.Options{MaxConcurrentRuns: 3, MaxConcurrentModelCalls: 1}})
	f.srv.Otherwise(func(llmtest.Request) llmtest.Reply {
		r := jsonOut("hello", 1)
		r.Delay = 50 * time.Millisecond
		return r
	})
	runs, err := f.orch.RunEach(context.Background(), agent.Request{Agent: "tester", Assignment: "daily", Trigger: agent.TriggerSchedule})
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 3 || runs[0].Member != "ada" || runs[1].Member != "bob" || runs[2].Member != "cy" {
		t.Fatalf("runs = %+v", runs)
	}
	for _, r := range runs {
		if r.Status != agent.StatusSucceeded || r.Trigger != agent.TriggerSchedule {
			t.Fatal(fmtRun(r))
		}
	}
	mustEqual(t, "model calls in flight at most", f.srv.MaxConcurrent(), 1)
	if _, err := f.orch.RunEach(context.Background(), agent.Request{Agent: "tester", Assignment: "nope", Trigger: agent.TriggerSchedule}); !apperr.Is(err, apperr.NotFound) {
		t.Fatalf("unknown assignment: %v", err)
	}
}

func TestMarkInterrupted(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	done := f.run(t, "ada")
	now := store.FormatTime(time.Now())
	for _, st := range []string{"running", "queued"} {
		if _, err := f.db.Write.Exec(`INSERT INTO agent_runs (agent_id, assignment_id, member_id, triggered_by, status, created_at)
			VALUES ('tester', ?, 'ada', 'schedule', ?, ?)`, st+"-job", st, now); err != nil {
			t.Fatal(err)
		}
	}
	n, err := f.orch.MarkInterrupted(context.Background())
	if err != nil || n != 2 {
		t.Fatalf("marked %d, %v", n, err)
	}
	runs, _ := f.orch.Runs().List(context.Background(), agent.RunFilter{Status: agent.StatusInterrupted})
	if len(runs) != 2 || runs[0].FinishedAt == nil || runs[0].Error == "" {
		t.Fatalf("interrupted runs = %+v", runs)
	}
	if r, _ := f.orch.Runs().Get(context.Background(), done.ID); r.Status != agent.StatusSucceeded {
		t.Fatalf("finished run changed: %s", fmtRun(r))
	}
}

func TestCloseInterruptsRunningRuns(t *testing.T) {
	f := newFixture(t, fixtureOpts{model: true})
	f.srv.Push(llmtest.Reply{Hang: true})
	r, err := f.orch.Start(context.Background(), agent.Request{Agent: "tester", Assignment: "daily", Member: "ada"})
	if err != nil {
		t.Fatal(err)
	}
	testkit.WaitFor(t, testkit.Patience, "the run to ask the model", func() bool { return len(f.srv.ChatRequests()) > 0 })
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if err := f.orch.Close(ctx); err != nil {
		t.Fatal(err)
	}
	got, _ := f.orch.Runs().Get(ctx, r.ID)
	if got.Status != agent.StatusInterrupted {
		t.Fatal(fmtRun(got))
	}
	if _, err := f.orch.Start(ctx, agent.Request{Agent: "tester", Assignment: "daily", Member: "ada"}); !apperr.Is(err, apperr.Conflict) {
		t.Fatalf("start after close: %v", err)
	}
}

func TestAgentsListingAndRunFilters(t *testing.T) {
	f := newFixture(t, fixtureOpts{extraTools: []agent.ToolFactory{agent.MemoryTools()}})
	agents := f.orch.Agents()
	if len(agents) != 1 || agents[0].ID != "tester" || len(agents[0].Assignments) != 1 ||
		agents[0].Assignments[0] != (agent.AssignmentInfo{ID: "daily", Description: "Daily summary", Schedule: "0 4 * * *"}) ||
		len(agents[0].Tools) != 3 {
		t.Fatalf("agents = %+v", agents)
	}
	if _, err := f.orch.Agent("nope"); !apperr.Is(err, apperr.NotFound) {
		t.Fatalf("unknown agent: %v", err)
	}
	if err := f.orch.Register(agent.Agent{ID: "tester"}); err == nil {
		t.Fatal("duplicate agent registered")
	}
	if err := f.orch.Register(agent.Agent{ID: "two", Assignments: []agent.Assignment{f.asg, f.asg}}); err == nil {
		t.Fatal("duplicate assignment registered")
	}

	a1 := f.run(t, "ada")
	b1 := f.run(t, "bob")
	a2 := f.run(t, "ada")
	ctx := context.Background()
	list := func(flt agent.RunFilter) []int64 {
		t.Helper()
		runs, err := f.orch.Runs().List(ctx, flt)
		if err != nil {
			t.Fatal(err)
		}
		var ids []int64
		for _, r := range runs {
			ids = append(ids, r.ID)
		}
		return ids
	}
	if ids := list(agent.RunFilter{Member: "ada"}); len(ids) != 2 || ids[0] != a2.ID || ids[1] != a1.ID {
		t.Fatalf("ada runs = %v", ids)
	}
	if ids := list(agent.RunFilter{Agent: "tester", Assignment: "daily", Status: agent.StatusSucceeded, Limit: 1}); len(ids) != 1 || ids[0] != a2.ID {
		t.Fatalf("limited = %v", ids)
	}
	if ids := list(agent.RunFilter{BeforeID: a2.ID}); len(ids) != 2 || ids[0] != b1.ID {
		t.Fatalf("before = %v", ids)
	}
	if ids := list(agent.RunFilter{Assignment: "other"}); len(ids) != 0 {
		t.Fatalf("other assignment = %v", ids)
	}
	if _, err := f.orch.Runs().List(ctx, agent.RunFilter{Status: "bogus"}); !apperr.Is(err, apperr.Invalid) {
		t.Fatalf("bad status: %v", err)
	}
}

func TestNewOrchestratorNeedsHeuristic(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	if _, err := agent.NewOrchestrator(f.db, agent.Runtimes{Model: llm.Heuristic{}}, nil, nil, nil, agent.Options{}); err == nil {
		t.Fatal("want an error without a heuristic runtime")
	}
}
