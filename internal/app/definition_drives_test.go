package app

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"hearth/internal/agent"
	"hearth/internal/agent/definition"
	"hearth/internal/agent/llm/llmtest"
	"hearth/internal/apperr"
	"hearth/internal/coach"
	"hearth/internal/messages"
)

// TestCoachDefinitionDrivesTheDailyRun: the coach's active definition
// controls the daily run (scripted model on the wire): the tool list
// offered is the definition's one tool, its context type is in the prompt, a rule on a sub-agent's result
// sends the first document back (a retry), the sub-agent (an agent made in
// admin) is called on each attempt, and the send_message hook delivers the
// accepted briefing to the member's coach messages. A save that removes
// the dashboard schema is refused naming the assignment. On today's main
// the run offered every tool, passed at once and called no sub-agent.
func TestCoachDefinitionDrivesTheDailyRun(t *testing.T) {
	ctx := context.Background()
	a, srv := modelApp(t)
	if _, err := a.Definitions.Save(ctx, definition.Definition{AgentID: "reviewer", SystemPrompt: "You review a coach's briefing.",
		MaxIterations: 1, OutputSchema: map[string]any{"type": "object"}}, "admin", "a reviewer"); err != nil {
		t.Fatal(err)
	}
	cur, err := a.Definitions.Active(ctx, coach.AgentID)
	if err != nil {
		t.Fatal(err)
	}
	d := cur.Definition
	d.ToolIDs = []string{"get_health_summary"}
	d.ContextTypes = []string{definition.ContextDate}
	d.MaxRetries = 2
	d.SubAgents = []definition.SubAgent{{Key: "review", AgentID: "reviewer", Input: "$result.coach.briefing"}}
	d.ValidationRules = []definition.Rule{{Path: "review.approved", Op: definition.OpTruthy, Message: "the reviewer did not approve the briefing: make it warmer"}}
	d.Hooks = definition.Hooks{After: []definition.HookRef{{Hook: definition.HookSendMessage, Source: "coach.briefing"}}}

	noSchema := d
	noSchema.OutputSchema = nil
	if _, err := a.Definitions.Save(ctx, noSchema, "admin", "drop the schema"); !apperr.Is(err, apperr.Invalid) ||
		!strings.Contains(err.Error(), "daily-dashboard assignment needs the dashboard document schema") {
		t.Fatalf("saving without the schema: %v, want a refusal naming the assignment's need", err)
	}
	if _, err := a.Definitions.Save(ctx, d, "admin", "one tool, a reviewer, a hook"); err != nil {
		t.Fatal(err)
	}

	briefings := []string{"Good morning.", "A warm good morning, keep going."}
	coachAsked := 0
	srv.Otherwise(func(r llmtest.Request) llmtest.Reply {
		sys := r.Messages()[0].Content
		if strings.Contains(sys, "You review a coach's briefing.") {
			return llmtest.JSON(map[string]any{"approved": strings.Contains(r.LastMessage().Content, "warm")}, 5, 5)
		}
		doc := minimalDoc()
		doc["coach"].(map[string]any)["briefing"] = briefings[min(coachAsked, 1)]
		coachAsked++
		return llmtest.JSON(doc, 10, 5)
	})
	run := dailyRun(t, a, "maya")
	if run.Status != agent.StatusSucceeded {
		t.Fatalf("run %s (%s %s), want succeeded", run.Status, run.FallbackReason, run.Error)
	}

	var coachReqs, reviewReqs []llmtest.Request
	for _, r := range srv.ChatRequests() {
		if strings.Contains(r.Messages()[0].Content, "You review a coach's briefing.") {
			reviewReqs = append(reviewReqs, r)
		} else {
			coachReqs = append(coachReqs, r)
		}
	}
	// Tool list offered: the definition's one tool.
	tools, _ := coachReqs[0].Body["tools"].([]any)
	var names []string
	for _, tl := range tools {
		fn, _ := tl.(map[string]any)["function"].(map[string]any)
		names = append(names, fn["name"].(string))
	}
	if len(names) != 1 || names[0] != "get_health_summary" {
		t.Fatalf("tools offered = %v, want the definition's [get_health_summary]", names)
	}
	// Context types: the definition's section is in the system prompt.
	if sys := coachReqs[0].Messages()[0].Content; !strings.Contains(sys, "## Date context\n") {
		t.Fatalf("system prompt lacks the definition's date_context section: %.300q", sys[max(0, len(sys)-300):])
	}
	// Rule-driven retry: the second coach request carries the rule's message.
	if len(coachReqs) != 2 || !strings.Contains(coachReqs[1].LastMessage().Content, "make it warmer") {
		t.Fatalf("coach asked %d times; want a retry carrying the rule's message", len(coachReqs))
	}
	// The sub-agent was called on each attempt, with the briefing as input.
	if len(reviewReqs) != 2 || reviewReqs[1].LastMessage().Content != briefings[1] {
		t.Fatalf("reviewer called %d times", len(reviewReqs))
	}
	// The hook delivered the accepted briefing to the member's messages.
	msgs, err := a.Messages.List(ctx, messages.Filter{Member: "maya"})
	if err != nil {
		t.Fatal(err)
	}
	var byHook []messages.Message
	for _, m := range msgs {
		if m.Source == "hook" {
			byHook = append(byHook, m)
		}
	}
	if len(byHook) != 1 || byHook[0].Text != briefings[1] || byHook[0].RunID != run.ID {
		t.Fatalf("messages = %+v, want the accepted briefing sent once by the hook", msgs)
	}
	stored, err := a.Dashboards.Get(ctx, "maya", a.Dashboards.Day(time.Now()))
	if err != nil || stored.Document.Coach.Briefing != briefings[1] {
		t.Fatalf("document briefing = %q, %v", stored.Document.Coach.Briefing, err)
	}
	// The run's trace shows the pipeline and what the hook sent.
	var steps []definition.Step
	if err := json.Unmarshal(run.Steps, &steps); err != nil {
		t.Fatalf("steps %s: %v", run.Steps, err)
	}
	trace := string(run.Steps)
	if len(steps) < 3 || steps[0].AgentID != coach.AgentID || steps[0].Attempts != 2 ||
		!strings.Contains(trace, "hook send_message (after_agent) fired with") || !strings.Contains(trace, `"key":"review"`) {
		t.Fatalf("steps = %s", trace)
	}
}
