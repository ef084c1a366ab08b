package agent_test

import (
	"context"
	"encoding/json"
	"maps"
	"strings"
	"testing"

	"hearth/internal/agent"
	"hearth/internal/agent/llm/llmtest"
	"hearth/internal/store"
)

// listener is a chat agent whose Heard writes what it heard into its
// memory, and whose no-model Reply calls note_it, a tool that stages a
// row of test_outputs: the parts of a turn whose owner (the member or
// someone else) and commit (the model's or the heuristic's) matter.
func (f *fixture) listener(t *testing.T) {
	t.Helper()
	noteIt := agent.ToolFactoryFunc(func() []agent.Tool {
		return []agent.Tool{{
			Name: "note_it", Description: "Stage a note.",
			Parameters: map[string]any{"type": "object", "properties": map[string]any{"text": map[string]any{"type": "string"}}},
			Execute: func(_ context.Context, s agent.Scope, args json.RawMessage) (any, error) {
				var a struct{ Text string }
				_ = json.Unmarshal(args, &a)
				return map[string]bool{"staged": true}, s.Stage(func(ctx context.Context, tx *store.Tx) error {
					_, err := tx.ExecContext(ctx, `INSERT INTO test_outputs (member, body, source) VALUES (?, ?, 'note_it')`, s.MemberID, a.Text)
					return err
				})
			},
		}}
	})
	err := f.orch.Register(agent.Agent{ID: "listener", Description: "Listens", SystemPrompt: "You listen.",
		Tools: []agent.ToolFactory{noteIt}, SurfaceTools: map[agent.Surface][]string{agent.SurfaceKiosk: {"note_it"}},
		Heard: func(_ context.Context, s agent.Scope, msg string) error { return s.Memory.Set("heard", msg, 0) },
		Reply: func(ctx context.Context, _ agent.Scope, turn agent.ChatTurn) (string, error) {
			if _, err := turn.Call(ctx, "note_it", json.RawMessage(`{"text":"from the heuristic"}`)); err != nil {
				return "", err
			}
			return "noted", nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
}

func (f *fixture) listenerMemory(t *testing.T, member string) map[string]string {
	t.Helper()
	es, err := f.orch.Memory().Entries(context.Background(), "listener", member)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, e := range es {
		out[e.Key] = e.Value
	}
	return out
}

// Only a turn the member typed is heard: a scheduled action, a to-do and
// the admin chatting as the member leave the agent's memory of the member
// exactly as it was (a scheduled "Remind Theo to stretch" once overwrote
// what Theo had said about his knee). Checked by calling Heard for every
// turn again: the schedule's words replace the member's.
func TestOnlyTheMembersOwnWordsAreHeard(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	f.listener(t)
	ctx := context.Background()
	send := func(req agent.Request) {
		t.Helper()
		req.Agent, req.Member = "listener", "ada"
		r, err := f.orch.Run(ctx, req)
		if err != nil || r.Status != agent.StatusSucceeded {
			t.Fatalf("%+v: %v %s", req, err, fmtRun(r))
		}
	}
	send(agent.Request{Message: "My left knee hurts", FromMember: true, Surface: agent.SurfaceKiosk})
	want := map[string]string{"heard": "My left knee hurts"}
	if got := f.listenerMemory(t, "ada"); !maps.Equal(got, want) {
		t.Fatalf("after the member's own turn: %v, want %v", got, want)
	}
	for _, req := range []agent.Request{
		{Message: "Remind Ada to do 10 minutes of stretching before bed", Trigger: agent.TriggerSchedule},
		{Message: "[to-do] Check in with Ada about her knee", Trigger: agent.TriggerSchedule, Origin: "todo:1"},
		{Message: "Pretend I'm Ada: I feel great", Chat: true, Trigger: agent.TriggerManual},
		{Message: "Tell Ada to drink water", Trigger: agent.TriggerAPI},
	} {
		send(req)
		if got := f.listenerMemory(t, "ada"); !maps.Equal(got, want) {
			t.Fatalf("after %q (chat %v): memory %v, want it unchanged %v", req.Message, req.Chat, got, want)
		}
	}
}

// A turn answered without a model commits what its heuristic reply
// staged (a message it sends goes out with the reply); when the model
// staged a write and then failed, that write is discarded and recorded
// so, and only the heuristic's is applied. Checked by committing with the
// old rule (staged writes only for a model's reply): no row, effect
// discarded.
func TestHeuristicTurnCommitsItsOwnWritesOnly(t *testing.T) {
	f := newFixture(t, fixtureOpts{model: true})
	f.listener(t)
	f.srv.Push(llmtest.Tool("note_it", map[string]any{"text": "from the model"}), llmtest.Error(503))
	r, err := f.orch.Run(context.Background(), agent.Request{Agent: "listener", Member: "ada",
		Message: "Remind Ada to stretch", Trigger: agent.TriggerSchedule})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != agent.StatusFellBack {
		t.Fatalf("want a fell-back run: %s", fmtRun(r))
	}
	if got := strings.Join(f.outputs(t), "|"); got != "ada note_it from the heuristic" {
		t.Fatalf("rows = %q, want only the heuristic's note", got)
	}
	if len(r.Effects) != 2 || r.Effects[0].Outcome != agent.EffectDiscarded || r.Effects[1].Outcome != agent.EffectApplied ||
		!strings.Contains(r.Effects[0].Reason, "model_error") {
		t.Fatalf("effects = %+v, want the model's discarded then the heuristic's applied", r.Effects)
	}
}
