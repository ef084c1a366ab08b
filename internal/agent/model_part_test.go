package agent_test

import (
	"math"
	"strings"
	"testing"

	"hearth/internal/agent"
	"hearth/internal/agent/llm/llmtest"
)

// An assignment that names a tool model sends its tool turns (the
// structured steps) to it and the final answer (the wording) to its main
// model, without tools: the requests of one run go to the named models.
func TestToolTurnsGoToTheToolModel(t *testing.T) {
	f := newFixture(t, fixtureOpts{model: true, noReuse: true,
		settings: agent.ModelSettings{Model: "big-model", ToolModel: "small-model"},
		opts:     agent.Options{Prices: agent.Prices{"small-model": {InputPerMTok: 1, OutputPerMTok: 1}, "big-model": {InputPerMTok: 10, OutputPerMTok: 10}}}})
	tool := llmtest.Tool("whoami", "{}")
	tool.PromptTokens, tool.CompletionTokens = 50, 5
	f.srv.Push(tool, llmtest.Text("I have what I need.", 50, 5), jsonOut("worded", 4))
	r := f.run(t, "ada")
	if r.Status != agent.StatusSucceeded || string(r.Output) != `{"title":"worded","score":4}` || r.Model != "big-model" {
		t.Fatal(fmtRun(r))
	}
	// Each model's share at its own price: 110 tokens at $1/M, 120 at $10/M.
	if want := (110*1 + 120*10) / 1e6; math.Abs(r.CostUSD-want) > 1e-12 {
		t.Fatalf("cost = %v, want %v", r.CostUSD, want)
	}
	reqs := f.srv.ChatRequests()
	var models []string
	for _, q := range reqs {
		models = append(models, q.Model())
	}
	if got := strings.Join(models, ","); got != "small-model,small-model,big-model" {
		t.Fatalf("models = %s", got)
	}
	if n := len(reqs[0].ToolNames()); n == 0 {
		t.Fatal("the tool model was offered no tools")
	}
	if n := len(reqs[2].ToolNames()); n != 0 {
		t.Fatalf("the wording model was offered %d tools", n)
	}
	if last := reqs[2].Messages(); !strings.Contains(last[len(last)-1].Content+last[len(last)-2].Content, "ada") {
		t.Fatalf("the wording model did not get the tool result: %+v", last)
	}
	if len(f.seen) != 1 {
		t.Fatalf("whoami calls = %v", f.seen)
	}
}

// Without a tool model every request goes to the one model.
func TestOneModelWithoutAToolModel(t *testing.T) {
	f := newFixture(t, fixtureOpts{model: true, noReuse: true, settings: agent.ModelSettings{Model: "big-model"}})
	f.srv.Push(llmtest.Tool("whoami", "{}"), jsonOut("one", 1))
	r := f.run(t, "ada")
	if r.Status != agent.StatusSucceeded {
		t.Fatal(fmtRun(r))
	}
	for _, q := range f.srv.ChatRequests() {
		mustEqual(t, "model", q.Model(), "big-model")
	}
}

// The hand-over to the wording model is not a tool turn: with one turn
// allowed, a tool model that needs no tool still hands over.
func TestHandOverIsNotATurn(t *testing.T) {
	f := newFixture(t, fixtureOpts{model: true, noReuse: true,
		settings: agent.ModelSettings{Model: "big-model", ToolModel: "small-model", MaxIterations: 1}})
	f.srv.Push(llmtest.Text("No tool needed.", 50, 5), jsonOut("worded", 4))
	r := f.run(t, "ada")
	if r.Status != agent.StatusSucceeded || r.FallbackReason != "" || r.Model != "big-model" {
		t.Fatal(fmtRun(r))
	}
}
