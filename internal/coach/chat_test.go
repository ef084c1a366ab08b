package coach

import (
	"strings"
	"testing"

	"hearth/internal/agent"
)

// ask sends maya's message to the coach without a model and returns the
// answer and the tools it called.
func (f *fixture) ask(member, message string, thread int64) (string, []string, int64) {
	f.t.Helper()
	r, err := f.orch.Freeform(f.ctx, agent.FreeformRequest{Agent: AgentID, Member: member, Message: message, ThreadID: thread, FromMember: true})
	if err != nil {
		f.t.Fatal(err)
	}
	if r.Status != agent.StatusSucceeded {
		f.t.Fatalf("chat run %s: %s", r.Status, r.Error)
	}
	msgs, err := f.orch.Threads().Messages(f.ctx, *r.ThreadID, 0, 0)
	if err != nil {
		f.t.Fatal(err)
	}
	var tools []string
	for _, m := range msgs {
		if m.Type == agent.MessageToolCall && *m.RunID == r.ID {
			tools = append(tools, m.ToolName)
		}
	}
	return msgs[len(msgs)-1].Content, tools, *r.ThreadID
}

// The heuristic coach answers the common questions from its tools, with
// the member's real figures, and says plainly what it cannot answer.
func TestHeuristicChatAnswers(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	seedMaya(f)
	f.run("maya") // today's plan
	w := f.tool("maya", "get_weight_trend", nil).(WeightView)
	p := f.tool("maya", "get_program_state", nil).(ProgramView)
	doc := f.today("maya").Document
	for _, c := range []struct {
		ask   string
		want  []string
		tools []string
	}{
		{"How is my weight going?", []string{"Weight: " + w.Text + "."}, []string{"get_weight_trend"}},
		{"What's my plan for today?", []string{"Today's plan: " + doc.Curated.UpNext.Primary.Title, "Program: " + p.Text}, []string{"get_program_state"}},
		{"What's next in my program?", []string{"Next up: " + p.Upcoming[0].Title}, []string{"get_program_state"}},
		{"Am I on a streak?", []string{"Meals logged", "Training:"}, []string{"get_today_nutrition", "get_recent_workouts"}},
		{"Write me a poem about spring", []string{cannotAnswer}, nil},
	} {
		reply, tools, _ := f.ask("maya", c.ask, 0)
		for _, w := range c.want {
			if !strings.Contains(reply, w) {
				t.Errorf("%q: reply %q has no %q", c.ask, reply, w)
			}
		}
		if strings.Join(tools, ",") != strings.Join(c.tools, ",") {
			t.Errorf("%q: tools %v, want %v", c.ask, tools, c.tools)
		}
	}
}

// What the member said goes into the coach's memory, and a later question
// about it is answered from the recalled message.
func TestChatIsHeardAndRecalled(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	seedMaya(f)
	f.ask("maya", "My left knee hurts after long runs.", 0)
	if e, ok := f.memory("maya")[keyLatestChat]; !ok || !strings.Contains(e.Value, "My left knee hurts") || e.ExpiresAt == nil {
		t.Errorf("memory %+v", f.memory("maya")[keyLatestChat])
	}
	f.clk.Advance(48 * 60 * 60 * 1e9)
	reply, _, _ := f.ask("maya", "What did I say about my knee?", 0)
	if !strings.Contains(reply, "My left knee hurts after long runs.") {
		t.Errorf("recall reply %q", reply)
	}
	reply, _, _ = f.ask("maya", "What did I say about swimming?", 0)
	if !strings.Contains(reply, "I don't find anything") {
		t.Errorf("nothing to recall: %q", reply)
	}
}
