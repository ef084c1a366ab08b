package app

import (
	"context"
	"strings"
	"testing"

	"hearth/internal/agent"
	"hearth/internal/agent/llm/llmtest"
	"hearth/internal/coach"
)

// TestEditedCoachDefinitionDrivesNextRun: an admin edit of the coach's
// definition (a new version) is what the next daily-dashboard run sends to
// the model, and a rollback restores the seeded prompt.
func TestEditedCoachDefinitionDrivesNextRun(t *testing.T) {
	ctx := context.Background()
	a, srv := modelApp(t)
	srv.Otherwise(func(llmtest.Request) llmtest.Reply { return llmtest.Text("not a dashboard", 10, 5) })

	v1, err := a.Definitions.Active(ctx, coach.AgentID)
	if err != nil || v1.Number != 1 {
		t.Fatalf("seeded coach definition: %+v %v", v1.Number, err)
	}
	run := func() string {
		t.Helper()
		before := len(srv.ChatRequests())
		r, err := a.Agents.Run(ctx, agent.Request{Agent: coach.AgentID, Assignment: coach.DailyDashboardID,
			Member: "maya", Trigger: agent.TriggerManual})
		if err != nil {
			t.Fatal(err)
		}
		if r.Status != agent.StatusFellBack {
			t.Fatalf("run status = %s (%s), want fell_back after garbage replies", r.Status, r.Error)
		}
		reqs := srv.ChatRequests()
		if len(reqs) <= before {
			t.Fatal("no model request")
		}
		return reqs[before].Messages()[0].Content
	}
	if sys := run(); !strings.Contains(sys, v1.SystemPrompt[:40]) {
		t.Fatalf("first run did not send the seeded prompt")
	}
	edited := v1.Definition
	edited.SystemPrompt = "EDITED-PROMPT-MARKER. " + v1.SystemPrompt
	if _, err := a.Definitions.Save(ctx, edited, "admin:test", "tune tone"); err != nil {
		t.Fatal(err)
	}
	if sys := run(); !strings.Contains(sys, "EDITED-PROMPT-MARKER") {
		t.Fatalf("edited prompt not sent; system message starts %q", sys[:min(len(sys), 120)])
	}
	if _, err := a.Definitions.Rollback(ctx, coach.AgentID, "admin:test"); err != nil {
		t.Fatal(err)
	}
	if sys := run(); strings.Contains(sys, "EDITED-PROMPT-MARKER") {
		t.Fatal("rollback did not restore the previous prompt")
	}
}
