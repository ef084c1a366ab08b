package agent_test

import (
	"context"
	"testing"
	"time"

	"hearth/internal/agent"
	"hearth/internal/agent/llm/llmtest"
)

// tunedAssignment is the test assignment whose prompt carries per-run model settings.
type tunedAssignment struct {
	*testAssignment
	settings agent.ModelSettings
}

func (a tunedAssignment) Prompt(ctx context.Context, gathered any, mem *agent.Memory) (agent.Prompt, error) {
	p, err := a.testAssignment.Prompt(ctx, gathered, mem)
	p.Model = a.settings
	return p, err
}

func TestPromptModelSettingsOverrideAgentPerRun(t *testing.T) {
	f := newFixture(t, fixtureOpts{model: true, noReuse: true, settings: agent.ModelSettings{Model: "agent-default", MaxTokens: 100}})
	tuned := tunedAssignment{testAssignment: &testAssignment{log: f.log}, settings: agent.ModelSettings{Model: "tuned-model", MaxTokens: 777}}
	if err := f.orch.Register(agent.Agent{ID: "tuned", Description: "Tuned", SystemPrompt: "s",
		Assignments: []agent.Assignment{tuned}, Model: agent.ModelSettings{Model: "agent-default", MaxTokens: 100}, NoReuse: true}); err != nil {
		t.Fatal(err)
	}
	f.srv.Push(llmtest.JSON(output{Title: "x", Score: 1}, 10, 5))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	r, err := f.orch.Run(ctx, agent.Request{Agent: "tuned", Assignment: "daily", Member: "ada"})
	if err != nil || r.Status != agent.StatusSucceeded {
		t.Fatalf("run: %v %v", fmtRun(r), err)
	}
	reqs := f.srv.ChatRequests()
	if len(reqs) != 1 {
		t.Fatalf("requests = %d", len(reqs))
	}
	if got := reqs[0].Model(); got != "tuned-model" {
		t.Errorf("model sent = %q, want the tuned one", got)
	}
	if got, _ := reqs[0].Get("max_tokens").(float64); got != 777 { // a generic server gets max_tokens
		t.Errorf("max_tokens = %v, want 777", reqs[0].Get("max_tokens"))
	}
}
