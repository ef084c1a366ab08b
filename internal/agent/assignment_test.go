package agent_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"hearth/internal/agent"
	"hearth/internal/apperr"
)

func TestPhaseOrderAndMemoryWrittenInActIsSaved(t *testing.T) {
	f := newFixture(t, fixtureOpts{model: true})
	ctx := context.Background()
	if _, err := f.orch.Memory().Set(ctx, "tester", "ada", "style", "direct", 0, agent.AdminActor("eve")); err != nil {
		t.Fatal(err)
	}
	f.asg.actMemory = map[string]string{"last_title": "Good day"}
	f.srv.Push(jsonOut("Good day", 7))
	f.log.take()

	r := f.run(t, "ada")
	mustEqual(t, "status", r.Status, agent.StatusSucceeded)

	want := []string{
		"phase:load_memory", "phase:prune", "phase:gather", "gather", "phase:prompt", "prompt",
		"phase:reason", "phase:validate", "validate_domain", "phase:act", "act", "phase:save_memory",
	}
	if got := f.log.take(); !slices.Equal(got, want) {
		t.Fatalf("order:\n got %v\nwant %v", got, want)
	}
	var phases []string
	for _, p := range r.Timings {
		phases = append(phases, p.Phase)
	}
	if want := []string{"load_memory", "prune", "gather", "prompt", "reason", "validate", "act", "save_memory"}; !slices.Equal(phases, want) {
		t.Fatalf("timings %v", phases)
	}

	mem := f.memory(t, "ada")
	if mem["last_title"] != "Good day" || mem["style"] != "direct" {
		t.Fatalf("memory after run = %v", mem)
	}
	hist, _ := f.orch.Memory().History(ctx, "tester", "ada", 1)
	if hist[0].Key != "last_title" || hist[0].Actor != agent.RunActor(r.ID) || hist[0].RunID == nil || *hist[0].RunID != r.ID {
		t.Fatalf("history = %+v", hist[0])
	}

	// The model saw the system prompts and the serialized memory.
	req := f.srv.ChatRequests()[0]
	msgs := req.Messages()
	if msgs[0].Content != "You are a test agent.\n\nAnswer with JSON." || !strings.Contains(msgs[1].Content, `- **style**: "direct"`) {
		t.Fatalf("messages = %+v", msgs)
	}
	if r.Prompt == nil || r.Prompt.System != msgs[0].Content || r.Prompt.User != msgs[1].Content {
		t.Fatalf("recorded prompt = %+v", r.Prompt)
	}
	mustEqual(t, "output", string(r.Output), `{"title":"Good day","score":7}`)
	if outs := f.outputs(t); len(outs) != 1 || outs[0] != `ada model {"title":"Good day","score":7}` {
		t.Fatalf("outputs = %v", outs)
	}

	// Progress reached both topics and ended in the terminal state.
	admin := f.ev.forRun("admin", r.ID)
	member := f.ev.forRun("member:ada", r.ID)
	if len(admin) == 0 || len(admin) != len(member) || admin[0].Status != agent.StatusQueued ||
		admin[len(admin)-1].Status != agent.StatusSucceeded {
		t.Fatalf("events admin=%+v member=%d", admin, len(member))
	}
	stored, err := f.orch.Runs().Get(ctx, r.ID)
	if err != nil || stored.Status != agent.StatusSucceeded || stored.FinishedAt == nil || stored.StartedAt == nil ||
		len(stored.Timings) != 8 || stored.Prompt == nil || stored.InputHash == "" {
		t.Fatalf("stored run = %+v, %v", stored, err)
	}
}

func TestFailingActLeavesMemoryAndOutputsUnchanged(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	f.asg.actMemory = map[string]string{"a": "1"}
	first := f.run(t, "ada")
	mustEqual(t, "first status", first.Status, agent.StatusSucceeded)
	histBefore, _ := f.orch.Memory().History(context.Background(), "tester", "ada", 0)

	f.asg.actMemory = map[string]string{"a": "2", "b": "new"}
	f.asg.actErr = errAct
	r := f.run(t, "ada")
	mustEqual(t, "status", r.Status, agent.StatusFailed)
	if !strings.Contains(r.Error, "act exploded") {
		t.Fatalf("error = %q", r.Error)
	}
	if outs := f.outputs(t); len(outs) != 1 {
		t.Fatalf("outputs = %v", outs)
	}
	if mem := f.memory(t, "ada"); len(mem) != 1 || mem["a"] != "1" {
		t.Fatalf("memory = %v", mem)
	}
	histAfter, _ := f.orch.Memory().History(context.Background(), "tester", "ada", 0)
	mustEqual(t, "history rows", len(histAfter), len(histBefore))
	stored, _ := f.orch.Runs().Get(context.Background(), r.ID)
	mustEqual(t, "stored status", stored.Status, agent.StatusFailed)
}

func TestTTLMemoryThroughRuns(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	f.asg.actMemory = map[string]string{"no_meals": "no meals logged yesterday"}
	f.asg.actTTL = time.Hour
	f.run(t, "ada")
	f.asg.actMemory = nil

	f.clock.Advance(30 * time.Minute)
	f.run(t, "ada")
	if seen := f.asg.seenMemory[1]; !strings.Contains(seen, `- **no_meals**: "no meals logged yesterday" (expires in 30m)`) {
		t.Fatalf("before expiry the prompt saw:\n%s", seen)
	}

	f.clock.Advance(time.Hour)
	var rows int
	_ = f.db.Read.QueryRow(`SELECT count(*) FROM agent_memory WHERE key = 'no_meals'`).Scan(&rows)
	mustEqual(t, "stored rows before the next save", rows, 1)
	f.run(t, "ada")
	if seen := f.asg.seenMemory[2]; strings.Contains(seen, "no_meals") {
		t.Fatalf("after expiry the prompt saw:\n%s", seen)
	}
	_ = f.db.Read.QueryRow(`SELECT count(*) FROM agent_memory WHERE key = 'no_meals'`).Scan(&rows)
	mustEqual(t, "stored rows after the next save", rows, 0)
}

func TestHeuristicIsTheDefaultWithoutAModel(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	r := f.run(t, "ada")
	if r.Status != agent.StatusSucceeded || r.Model != "heuristic" || r.FallbackReason != "" || r.Attempts != 1 ||
		string(r.Output) != `{"title":"heuristic","score":1}` || r.TokensIn != 0 {
		t.Fatal(fmtRun(r))
	}
	if outs := f.outputs(t); len(outs) != 1 || !strings.HasPrefix(outs[0], "ada heuristic ") {
		t.Fatalf("outputs = %v", outs)
	}
}

func TestHeuristicFailureWritesNothing(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	f.asg.actMemory = map[string]string{"x": "y"}
	f.asg.plan = output{Title: "forbidden", Score: 1}
	r := f.run(t, "ada")
	if r.Status != agent.StatusFailed || !strings.Contains(r.Error, "heuristic output invalid: /title: title is not allowed") {
		t.Fatal(fmtRun(r))
	}
	f.asg.plan, f.asg.planErr = nil, errors.New("no data")
	r = f.run(t, "ada")
	if r.Status != agent.StatusFailed || !strings.Contains(r.Error, "heuristic plan: no data") {
		t.Fatal(fmtRun(r))
	}
	if outs, mem := f.outputs(t), f.memory(t, "ada"); len(outs) != 0 || len(mem) != 0 {
		t.Fatalf("outputs %v memory %v", outs, mem)
	}
}

func TestGatherCallsToolsForTheRunsMember(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	f.asg.gatherTools = []string{"whoami"}
	r := f.run(t, "bob")
	mustEqual(t, "status", r.Status, agent.StatusSucceeded)
	if len(f.seen) != 1 || f.seen[0] != "bob {}" {
		t.Fatalf("tool calls = %v", f.seen)
	}
	if !strings.Contains(r.Prompt.User, `"whoami":{"member":"bob"}`) {
		t.Fatalf("prompt = %s", r.Prompt.User)
	}
}

func TestRunRequestErrors(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	ctx := context.Background()
	for _, tc := range []struct {
		req  agent.Request
		code apperr.Code
	}{
		{agent.Request{Agent: "nope", Assignment: "daily", Member: "ada"}, apperr.NotFound},
		{agent.Request{Agent: "tester", Assignment: "nope", Member: "ada"}, apperr.NotFound},
		{agent.Request{Agent: "tester", Assignment: "daily", Member: "zed"}, apperr.NotFound},
		{agent.Request{Agent: "tester", Assignment: "daily"}, apperr.Invalid},
		{agent.Request{Agent: "tester", Assignment: "daily", Member: "ada", Trigger: "cron"}, apperr.Invalid},
	} {
		if _, err := f.orch.Run(ctx, tc.req); !apperr.Is(err, tc.code) {
			t.Errorf("%+v: err = %v, want %s", tc.req, err, tc.code)
		}
	}
	if _, err := f.orch.Runs().Get(ctx, 12345); !apperr.Is(err, apperr.NotFound) {
		t.Fatalf("get unknown run: %v", err)
	}
}
