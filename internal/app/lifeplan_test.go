package app_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"hearth/internal/agent/llm/llmtest"
	"hearth/internal/app"
	"hearth/internal/lifeplan"
)

// TestLifePlanCoachWithAModel: in a chat with a scripted model, the seeded
// life-plan coach sets Ada's purpose and values and moves a goal from
// dream to considered; the writes are kept when the turn commits, Bo's
// plan is untouched, and a dream → achieved the model asks for is refused.
func TestLifePlanCoachWithAModel(t *testing.T) {
	srv := llmtest.New(t)
	step := map[string][]llmtest.Reply{
		"purpose": {llmtest.Tool("lifeplan_set_purpose", map[string]any{"statement": "Be there for the people I love."})},
		"values": {llmtest.Tool("lifeplan_set_values", map[string]any{"values": []map[string]any{
			{"name": "Family", "description": nil}, {"name": "Health", "description": "strong enough to keep up"}}})},
		"dream":   {llmtest.Tool("lifeplan_add_goal", map[string]any{"name": "Hike with my kids", "why": nil, "state": nil, "parent_id": nil})},
		"weighed": {llmtest.Tool("lifeplan_transition_goal", map[string]any{"goal_id": 1, "to": "considered", "reason": "We can do a day hike in spring"})},
		"done":    {llmtest.Tool("lifeplan_transition_goal", map[string]any{"goal_id": 1, "to": "achieved", "reason": "done"})},
	}
	srv.Otherwise(func(r llmtest.Request) llmtest.Reply {
		last := r.LastMessage()
		if last.Role == "tool" {
			return llmtest.Text("Noted: "+last.Content[:min(len(last.Content), 80)], 5, 5)
		}
		for k, rs := range step {
			if strings.Contains(last.Content, k) {
				return rs[0]
			}
		}
		return llmtest.Text("Tell me more.", 1, 1)
	})
	run := homeApp(t, app.Config{OpenAIBaseURL: srv.URL(), OpenAIKey: "k", Model: "fake"})
	for _, msg := range []string{"my purpose", "my values", "a dream of mine", "I have weighed it"} {
		if code, answer := chatTurnAs(t, run.url, app.LifePlanCoachID, "ada", msg); code != http.StatusOK {
			t.Fatalf("%q: %d %s", msg, code, answer)
		}
	}
	_, answer := chatTurnAs(t, run.url, app.LifePlanCoachID, "ada", "I'm done")
	if !strings.Contains(answer, "cannot move from considered to achieved") {
		t.Fatalf("considered → achieved answered %q", answer)
	}
	ctx := context.Background()
	p, err := run.app.LifePlan.Plan(ctx, "ada")
	if err != nil || p.Purpose.Statement != "Be there for the people I love." || len(p.Values) != 2 || p.Values[1].Description != "strong enough to keep up" ||
		len(p.Goals) != 1 || p.Goals[0].State != lifeplan.Considered {
		t.Fatalf("ada's plan = %+v (%v)", p, err)
	}
	h, _ := run.app.LifePlan.GoalHistory(ctx, "ada", p.Goals[0].ID)
	if len(h) != 2 || h[1].Reason != "We can do a day hike in spring" || h[1].By != "agent:"+app.LifePlanCoachID {
		t.Fatalf("history = %+v", h)
	}
	if bo, _ := run.app.LifePlan.Plan(ctx, "bo"); bo.Purpose.Statement != "" || len(bo.Goals) != 0 || len(bo.Values) != 0 {
		t.Fatalf("bo's plan = %+v", bo)
	}
}

// TestLifePlanCoachGuidedFlowWithoutAModel: without a model the seeded
// coach walks the guided flow in a chat: values, purpose, a goal.
func TestLifePlanCoachGuidedFlowWithoutAModel(t *testing.T) {
	run := homeApp(t, app.Config{})
	for _, step := range []struct{ say, want string }{
		{"Hi", "Pick up to five values"},
		{"Family, Health, Learning", "Your values: Family, Health, Learning"},
		{"My purpose is to keep learning with my family", "Kept your purpose"},
		{"My goal is to run a 10k", "Added “Run a 10k” as a dream"},
	} {
		if code, answer := chatTurnAs(t, run.url, app.LifePlanCoachID, "ada", step.say); code != http.StatusOK || !strings.Contains(answer, step.want) {
			t.Fatalf("%q: %d %q, want %q", step.say, code, answer, step.want)
		}
	}
	p, err := run.app.LifePlan.Plan(context.Background(), "ada")
	if err != nil || len(p.Values) != 3 || p.Purpose.Statement == "" || len(p.Goals) != 1 || p.Goals[0].Name != "Run a 10k" {
		t.Fatalf("plan = %+v (%v)", p, err)
	}
}
