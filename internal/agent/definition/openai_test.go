package definition

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"hearth/internal/agent"
	"hearth/internal/agent/llm"
	"hearth/internal/agent/llm/llmtest"
	"hearth/internal/apperr"
)

// openAI returns the real OpenAI runtime pointed at a fake server.
func openAI(t *testing.T, replies ...llmtest.Reply) (*llm.OpenAI, *llmtest.Server) {
	t.Helper()
	srv := llmtest.New(t, replies...)
	rt, err := llm.NewOpenAI(llm.OpenAIConfig{BaseURL: srv.URL(), APIKey: "test-key", Model: "gpt-default"})
	if err != nil {
		t.Fatal(err)
	}
	return rt, srv
}

func systemOf(r llmtest.Request) string {
	for _, m := range r.Messages() {
		if m.Role == "system" {
			return m.Content
		}
	}
	return ""
}

func TestOpenAIEditedPromptIsSentOnTheNextRunAndRollbackRestoresIt(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	rt, srv := openAI(t)
	srv.Otherwise(func(llmtest.Request) llmtest.Reply { return llmtest.Text("Keep going!", 12, 3) })
	r := f.runner(rt)
	temp := 0.2
	v1 := def("motivator", "You are a cheerful motivator.")
	v1.Model, v1.Temperature, v1.MaxTokens = "gpt-test", &temp, 300
	f.save(v1)
	invoke := func() string {
		t.Helper()
		res, err := r.Invoke(ctx, "motivator", Params{Member: "ada", Message: "Motivate me"})
		if err != nil {
			t.Fatal(err)
		}
		if res.Output != "Keep going!" {
			t.Fatalf("output = %v", res.Output)
		}
		reqs := srv.ChatRequests()
		return systemOf(reqs[len(reqs)-1])
	}
	if got := invoke(); got != "You are a cheerful motivator." {
		t.Fatalf("v1 system = %q", got)
	}
	last := srv.ChatRequests()[0]
	if last.Model() != "gpt-test" || last.Get("temperature") != 0.2 || last.Get("max_tokens") != 300.0 ||
		last.LastMessage().Content != "Motivate me" {
		t.Fatalf("request = %s", last.Raw)
	}

	v2 := v1
	v2.SystemPrompt = "You are a calm, factual coach."
	if _, err := f.repo.Save(ctx, v2, "admin", "calmer"); err != nil {
		t.Fatal(err)
	}
	if got := invoke(); got != "You are a calm, factual coach." {
		t.Fatalf("after edit, system = %q", got)
	}
	if _, err := f.repo.Rollback(ctx, "motivator", "admin"); err != nil {
		t.Fatal(err)
	}
	if got := invoke(); got != "You are a cheerful motivator." {
		t.Fatalf("after rollback, system = %q", got)
	}
}

func TestOpenAIValidationRuleFailureRetriesWithTheRuleError(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	d := def("lister", "List today's workouts.")
	d.OutputSchema = map[string]any{
		"type":                 "object",
		"properties":           map[string]any{"items": map[string]any{"type": "array", "items": map[string]any{"type": "string"}}},
		"required":             []any{"items"},
		"additionalProperties": false,
	}
	d.ValidationRules = []Rule{{Path: "items", Op: OpNonEmpty, Message: "List at least one workout for today."}}
	d.MaxRetries = 2
	f.save(d)
	rt, srv := openAI(t,
		llmtest.JSON(map[string]any{"items": []string{}}, 20, 4),
		llmtest.JSON(map[string]any{"items": []string{"Row 20 min"}}, 30, 5),
	)
	res, err := f.runner(rt).Invoke(ctx, "lister", Params{Member: "ada", Message: "What's on?"})
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := Lookup(res.Output, "items.0"); got != "Row 20 min" {
		t.Fatalf("output = %v", res.Output)
	}
	reqs := srv.ChatRequests()
	if len(reqs) != 2 {
		t.Fatalf("requests = %d, want a retry", len(reqs))
	}
	retry := reqs[1].Messages()
	lastMsg := retry[len(retry)-1]
	if lastMsg.Role != "user" || !strings.Contains(lastMsg.Content, "/items: List at least one workout for today.") {
		t.Fatalf("retry message = %+v", lastMsg)
	}
	if prev := retry[len(retry)-2]; prev.Role != "assistant" || prev.Content != `{"items":[]}` {
		t.Fatalf("previous output not sent back: %+v", prev)
	}
	rf := reqs[0].ResponseFormat()
	if js, _ := rf["json_schema"].(map[string]any); rf["type"] != "json_schema" || js["strict"] != true || js["name"] != "lister" {
		t.Fatalf("response_format = %v", rf)
	}
	run := f.run(res.RunID)
	if run.Attempts != 2 || run.TokensIn != 50 || len(run.ValidationErrors) != 1 ||
		run.ValidationErrors[0].Errors[0].Message != "List at least one workout for today." {
		t.Fatalf("run = %+v", run)
	}

	// A model that never complies fails the run after 1 + MaxRetries attempts.
	srv.Otherwise(func(llmtest.Request) llmtest.Reply { return llmtest.JSON(map[string]any{"items": []string{}}, 1, 1) })
	res, err = f.runner(rt).Invoke(ctx, "lister", Params{Member: "ada", Message: "What's on?"})
	if err == nil || !strings.Contains(err.Error(), "still invalid after 3 attempts") {
		t.Fatalf("never valid: %v", err)
	}
	if run := f.run(res.RunID); run.Status != agent.StatusFailed || run.Attempts != 3 {
		t.Fatalf("failed run = %+v", run)
	}
}

func TestOpenAIInvalidDefinitionIsRefusedAndThePreviousStaysActive(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.save(def("helper", "You help."))
	good := def("writer", "You write well.")
	good.SubAgents = []SubAgent{{Key: "help", AgentID: "helper", Input: map[string]any{"draft": "$result"}}}
	f.save(good)

	badSchema := good
	badSchema.SystemPrompt = "BROKEN"
	badSchema.OutputSchema = map[string]any{"type": "object", "properties": map[string]any{"n": map[string]any{"minimum": "zero"}}}
	unknownTool := good
	unknownTool.SystemPrompt = "BROKEN"
	unknownTool.ToolIDs = []string{"teleport"}
	cyclic := def("helper", "BROKEN")
	cyclic.SubAgents = []SubAgent{{Key: "again", AgentID: "writer"}}
	for name, c := range map[string]struct {
		d    Definition
		want string
	}{
		"bad JSON schema":  {badSchema, "output_schema: does not compile"},
		"unknown tool":     {unknownTool, `tool_ids: unknown tool "teleport"`},
		"cyclic sub-agent": {cyclic, "sub_agents: sub-agents form a cycle: helper → writer → helper"},
	} {
		_, err := f.repo.Save(ctx, c.d, "admin", "")
		if !apperr.Is(err, apperr.Invalid) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", name, err, c.want)
		}
	}
	rt, srv := openAI(t, llmtest.Text("A fine draft.", 5, 5), llmtest.Text("Helped.", 5, 5))
	res, err := f.runner(rt).Invoke(ctx, "writer", Params{Member: "ada", Message: "Write"})
	if err != nil {
		t.Fatal(err)
	}
	reqs := srv.ChatRequests()
	if len(reqs) != 2 || systemOf(reqs[0]) != "You write well." || systemOf(reqs[1]) != "You help." {
		t.Fatalf("systems = %q, %q", systemOf(reqs[0]), systemOf(reqs[1]))
	}
	if reqs[1].LastMessage().Content != "{\n  \"draft\": \"A fine draft.\"\n}" {
		t.Fatalf("helper input = %q", reqs[1].LastMessage().Content)
	}
	want := `{"help":"Helped.","output":"A fine draft."}`
	if b, _ := json.Marshal(res.Composed); string(b) != want {
		t.Fatalf("composed = %s", b)
	}
}

func TestOpenAIToolsAreOfferedAndCalledForTheMember(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	d := def("weigher", "Report the weight.")
	d.ToolIDs = []string{"get_weight"}
	f.save(d)
	rt, srv := openAI(t, llmtest.Tool("get_weight", map[string]any{"member": "bo"}), llmtest.Text("You weigh 70.2 kg.", 5, 5))
	res, err := f.runner(rt).Invoke(ctx, "weigher", Params{Member: "ada", Message: "weight?"})
	if err != nil {
		t.Fatal(err)
	}
	reqs := srv.ChatRequests()
	if names := reqs[0].ToolNames(); len(names) != 1 || names[0] != "get_weight" {
		t.Fatalf("tools offered = %v", names)
	}
	if !reqs[1].Contains(`"member":"ada"`) {
		t.Fatalf("the tool did not run for the run's member: %s", reqs[1].Raw)
	}
	if run := f.run(res.RunID); len(run.ToolCalls) != 1 || run.ToolCalls[0].Name != "get_weight" {
		t.Fatalf("run tool calls = %+v", run.ToolCalls)
	}
}
