package agent_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"hearth/internal/agent"
)

// fakeDurable runs the assignment as a driven run that waits for release,
// like a workflow attempt, and counts the requests routed to it.
type fakeDurable struct {
	orch    *agent.Orchestrator
	release chan struct{}
	mu      sync.Mutex
	reqs    []agent.Request
}

func (d *fakeDurable) StartDurable(ctx context.Context, req agent.Request) (agent.Run, error) {
	d.mu.Lock()
	d.reqs = append(d.reqs, req)
	d.mu.Unlock()
	return d.orch.StartExecute(ctx, agent.TaskRequest{Agent: req.Agent, Assignment: req.Assignment, Member: req.Member,
		Trigger: req.Trigger, Origin: req.Origin}, func(ctx context.Context, x *agent.Exec) (json.RawMessage, error) {
		<-d.release
		return json.RawMessage(`{"durable": true}`), nil
	})
}

func (d *fakeDurable) count() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.reqs)
}

// An assignment with a durable route starts through it on every Start, a
// second Start while its run is active joins that run, and a BuiltIn
// request still runs the plain assignment.
func TestDurableRouteStartsAndJoins(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	d := &fakeDurable{orch: f.orch, release: make(chan struct{})}
	if err := f.orch.SetDurable("tester", "daily", d); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	req := agent.Request{Agent: "tester", Assignment: "daily", Member: "ada", Trigger: agent.TriggerSchedule, Origin: "task:7"}
	first, err := f.orch.Start(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	again, err := f.orch.Start(ctx, req)
	if err != nil || again.ID != first.ID {
		t.Fatalf("second start: run %d (%v), want to join %d", again.ID, err, first.ID)
	}
	mustEqual(t, "requests routed", d.count(), 1)
	close(d.release)
	done, err := f.orch.Wait(ctx, first.ID)
	if err != nil || done.Status != agent.StatusSucceeded || done.Origin != "task:7" || done.Trigger != agent.TriggerSchedule {
		t.Fatalf("%s %v", fmtRun(done), err)
	}

	plain, err := f.orch.Run(ctx, agent.Request{Agent: "tester", Assignment: "daily", Member: "bob", BuiltIn: true})
	if err != nil || plain.Status != agent.StatusSucceeded || string(plain.Output) == `{"durable": true}` {
		t.Fatalf("built-in run: %s %v", fmtRun(plain), err)
	}
	mustEqual(t, "requests routed", d.count(), 1)
}
