package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"hearth/internal/agent"
	"hearth/internal/agent/llm/llmtest"
	"hearth/internal/store"
)

// stageNote is a tool that stages a row of test_outputs per call (a write
// side effect the budget stop must leave undone).
func stageNote(calls *atomic.Int64) agent.ToolFactory {
	return agent.ToolFactoryFunc(func() []agent.Tool {
		return []agent.Tool{{
			Name: "note_it", Description: "Stage a note.",
			Parameters: map[string]any{"type": "object", "properties": map[string]any{"text": map[string]any{"type": "string"}}},
			Execute: func(_ context.Context, s agent.Scope, args json.RawMessage) (any, error) {
				calls.Add(1)
				return map[string]bool{"staged": true}, s.Stage(func(ctx context.Context, tx *store.Tx) error {
					_, err := tx.ExecContext(ctx, `INSERT INTO test_outputs (member, body, source) VALUES (?, ?, 'note_it')`, s.MemberID, string(args))
					return err
				})
			},
		}}
	})
}

// A model that keeps calling tools (remember, note_it) is stopped by the
// run's prompt budget before the request that would exceed it: the run
// falls back with reason "budget", the heuristic's document is the one
// saved, and neither the memory write nor the tool's staged row happens.
func TestRunBudgetStopsAToolLoop(t *testing.T) {
	var calls atomic.Int64
	f := newFixture(t, fixtureOpts{model: true, noReuse: true,
		extraTools: []agent.ToolFactory{agent.MemoryTools(), stageNote(&calls)},
		settings:   agent.ModelSettings{MaxIterations: 20, Budget: agent.RunBudget{PromptTokens: 2500}}})
	// The server reports 1,000 prompt tokens per request: two fit in the
	// budget, a third would not (1,000 + the estimate of the request).
	var n atomic.Int64
	f.srv.Otherwise(func(llmtest.Request) llmtest.Reply {
		i := n.Add(1)
		r := llmtest.Tool("note_it", map[string]string{"text": fmt.Sprint("n", i)})
		if i == 1 {
			r = llmtest.Tool("remember", map[string]any{"key": "k", "value": "v", "ttl_hours": 0})
		}
		r.PromptTokens, r.CompletionTokens = 1000, 10
		return r
	})
	r := f.run(t, "ada")
	if r.Status != agent.StatusFellBack || r.FallbackReason != agent.FallbackBudget {
		t.Fatal(fmtRun(r))
	}
	mustEqual(t, "requests sent", len(f.srv.ChatRequests()), 2)
	mustEqual(t, "tokens in", r.TokensIn, int64(2000))
	mustEqual(t, "note_it calls", calls.Load(), int64(1))
	if !slices.ContainsFunc(r.ModelNotes, func(s string) bool { return strings.HasPrefix(s, "run budget: 2000 prompt tokens spent") }) {
		t.Fatalf("notes = %q", r.ModelNotes)
	}
	if got := f.outputs(t); len(got) != 1 || got[0] != `ada heuristic {"title":"heuristic","score":1}` {
		t.Fatalf("outputs = %q, want only the heuristic's document", got)
	}
	if m := f.memory(t, "ada"); len(m) != 0 {
		t.Fatalf("memory = %v, want nothing written", m)
	}
	for _, e := range r.Effects {
		if e.Outcome != agent.EffectDiscarded {
			t.Fatalf("effect %+v applied", e)
		}
	}
	mustEqual(t, "effects", len(r.Effects), 2)
}

// The completion budget stops the loop too, and the household default
// applies when the agent sets none.
func TestRunBudgetCompletionFromHouseholdDefault(t *testing.T) {
	var calls atomic.Int64
	f := newFixture(t, fixtureOpts{model: true, noReuse: true, extraTools: []agent.ToolFactory{stageNote(&calls)},
		settings: agent.ModelSettings{MaxIterations: 20},
		opts:     agent.Options{RunBudget: agent.RunBudget{CompletionTokens: 50}}})
	f.srv.Otherwise(func(llmtest.Request) llmtest.Reply {
		r := llmtest.Tool("note_it", map[string]string{"text": "x"})
		r.PromptTokens, r.CompletionTokens = 10, 30
		return r
	})
	r := f.run(t, "ada")
	if r.Status != agent.StatusFellBack || r.FallbackReason != agent.FallbackBudget {
		t.Fatal(fmtRun(r))
	}
	mustEqual(t, "requests sent", len(f.srv.ChatRequests()), 2) // 60 ≥ 50 after the second
	if got := f.outputs(t); len(got) != 1 {
		t.Fatalf("outputs = %q", got)
	}
}

// Within budget nothing changes.
func TestRunBudgetAllowsARunThatFits(t *testing.T) {
	f := newFixture(t, fixtureOpts{model: true, noReuse: true,
		settings: agent.ModelSettings{Budget: agent.RunBudget{PromptTokens: 100_000, CompletionTokens: 1000}}})
	f.srv.Push(jsonOut("fits", 2))
	r := f.run(t, "ada")
	if r.Status != agent.StatusSucceeded || r.FallbackReason != "" {
		t.Fatal(fmtRun(r))
	}
}

// A chat turn is held to the household's run budget too: the model's
// staged note is discarded, the heuristic reply answers with reason budget.
func TestRunBudgetStopsAChatTurn(t *testing.T) {
	f := newFixture(t, fixtureOpts{model: true, opts: agent.Options{RunBudget: agent.RunBudget{PromptTokens: 1100}}})
	f.listener(t)
	f.srv.Otherwise(func(llmtest.Request) llmtest.Reply {
		r := llmtest.Tool("note_it", map[string]any{"text": "from the model"})
		r.PromptTokens, r.CompletionTokens = 1000, 5
		return r
	})
	r, err := f.orch.Run(context.Background(), agent.Request{Agent: "listener", Member: "ada",
		Message: "Remind Ada to stretch", Trigger: agent.TriggerSchedule})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != agent.StatusFellBack || r.FallbackReason != agent.FallbackBudget {
		t.Fatal(fmtRun(r))
	}
	mustEqual(t, "requests sent", len(f.srv.ChatRequests()), 1)
	if got := strings.Join(f.outputs(t), "|"); got != "ada note_it from the heuristic" {
		t.Fatalf("rows = %q, want only the heuristic's note", got)
	}
}

func TestModelFallbackReason(t *testing.T) {
	over := fmt.Errorf("llm: stopped: %w", &agent.RunBudgetError{Part: "prompt", Spent: 1, Next: 2, Limit: 2})
	mustEqual(t, "budget", agent.ModelFallbackReason(over), agent.FallbackBudget)
	mustEqual(t, "other", agent.ModelFallbackReason(errors.New("boom")), "model_error: boom")
}
