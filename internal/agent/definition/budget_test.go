package definition

import (
	"context"
	"errors"
	"strings"
	"testing"

	"hearth/internal/agent"
	"hearth/internal/agent/llm/llmtest"
)

// A definition's tool model, run budget and their round trip through the
// repository (migration 00139): the tool turns go to the tool model, the
// answer to the model, and a budget below the second request stops the
// loop before it with a RunBudgetError.
func TestDefinitionToolModelAndRunBudget(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	rt, srv := openAI(t)
	r := f.runner(rt)
	d := def("weigher", "You read the weight.")
	d.Model, d.ToolModel, d.ToolIDs = "big-model", "small-model", []string{"get_weight"}
	d.BudgetPromptTokens, d.BudgetCompletionTokens = 50_000, 2_000
	f.save(d)
	got, err := f.repo.Active(ctx, "weigher")
	if err != nil {
		t.Fatal(err)
	}
	if got.ToolModel != "small-model" || got.BudgetPromptTokens != 50_000 || got.BudgetCompletionTokens != 2_000 {
		t.Fatalf("stored = %+v", got.Definition)
	}

	srv.Push(llmtest.Tool("get_weight", "{}"), llmtest.Text("done", 10, 2), llmtest.Text("You weigh 70.2 kg.", 10, 5))
	res, err := r.Invoke(ctx, "weigher", Params{Member: "ada", Message: "What do I weigh?"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Output != "You weigh 70.2 kg." {
		t.Fatalf("output = %v", res.Output)
	}
	var models []string
	for _, q := range srv.ChatRequests() {
		models = append(models, q.Model())
	}
	if strings.Join(models, ",") != "small-model,small-model,big-model" {
		t.Fatalf("models = %v", models)
	}

	d.BudgetPromptTokens = 1_000
	f.save(d)
	srv.Otherwise(func(llmtest.Request) llmtest.Reply {
		rp := llmtest.Tool("get_weight", "{}")
		rp.PromptTokens, rp.CompletionTokens = 900, 5
		return rp
	})
	before := len(srv.ChatRequests())
	_, err = r.Invoke(ctx, "weigher", Params{Member: "ada", Message: "Again"})
	var over *agent.RunBudgetError
	if !errors.As(err, &over) || over.Part != "prompt" || over.Spent != 900 {
		t.Fatalf("err = %v, want a prompt budget stop after 900 tokens", err)
	}
	if n := len(srv.ChatRequests()) - before; n != 1 {
		t.Fatalf("requests = %d, want 1", n)
	}
}
