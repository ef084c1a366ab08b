package agent_test

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"hearth/internal/agent"
	"hearth/internal/agent/llm"
	"hearth/internal/agent/llm/llmtest"
)

func TestRunToolCallLoopKeepsTheRunsMember(t *testing.T) {
	f := newFixture(t, fixtureOpts{model: true})
	// A prompt-injected call aims at bob; the run is for ada.
	f.srv.Push(llmtest.Tool("whoami", map[string]string{"member": "bob"}), jsonOut("ok", 1))
	r := f.run(t, "ada")
	mustEqual(t, "status", r.Status, agent.StatusSucceeded)
	if len(f.seen) != 1 || f.seen[0] != `ada {"member":"bob"}` {
		t.Fatalf("tool saw %v", f.seen)
	}
	reqs := f.srv.ChatRequests()
	if len(reqs) != 2 || reqs[0].ResponseFormat()["type"] != "json_schema" {
		t.Fatalf("requests = %d", len(reqs))
	}
	if last := reqs[1].LastMessage(); last.Role != "tool" || last.Content != `{"member":"ada"}` {
		t.Fatalf("tool result sent back = %+v", last)
	}
	if len(r.ToolCalls) != 1 || r.ToolCalls[0].Name != "whoami" || string(r.ToolCalls[0].Result) != `{"member":"ada"}` {
		t.Fatalf("run tool calls = %+v", r.ToolCalls)
	}
}

func TestIterationBoundFallsBack(t *testing.T) {
	f := newFixture(t, fixtureOpts{model: true, settings: agent.ModelSettings{MaxIterations: 3, MaxRetries: -1}})
	f.srv.Otherwise(func(llmtest.Request) llmtest.Reply { return llmtest.Tool("whoami", "{}") })
	r := f.run(t, "ada")
	if r.Status != agent.StatusFellBack || !strings.Contains(r.FallbackReason, "still calling tools after 3 turns") {
		t.Fatal(fmtRun(r))
	}
	mustEqual(t, "requests", len(f.srv.ChatRequests()), 3)
}

func TestSchemaViolationIsSentBackAndCorrected(t *testing.T) {
	f := newFixture(t, fixtureOpts{model: true})
	f.srv.Push(llmtest.JSON(map[string]string{"title": "draft"}, 10, 5), jsonOut("fixed", 2))
	r := f.run(t, "ada")
	if r.Status != agent.StatusSucceeded || r.Attempts != 2 || string(r.Output) != `{"title":"fixed","score":2}` {
		t.Fatal(fmtRun(r))
	}
	reqs := f.srv.ChatRequests()
	mustEqual(t, "requests", len(reqs), 2)
	msgs := reqs[1].Messages()
	retry, prev := msgs[len(msgs)-1], msgs[len(msgs)-2]
	if retry.Role != "user" || !strings.Contains(retry.Content, "/: missing property 'score'") {
		t.Fatalf("correction message:\n%s", retry.Content)
	}
	if prev.Role != "assistant" || prev.Content != `{"title":"draft"}` {
		t.Fatalf("the invalid reply is not sent back as the assistant's turn: %+v", prev)
	}
	if len(r.ValidationErrors) != 1 || r.ValidationErrors[0].Attempt != 1 || r.ValidationErrors[0].Source != "model" {
		t.Fatalf("validation errors = %+v", r.ValidationErrors)
	}
	// The rejected reply is kept with its errors (the run view and evals
	// grade what the model said, not only what was accepted), and stored.
	stored, err := f.orch.Runs().Get(context.Background(), r.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got := stored.ValidationErrors[0].Output; got != `{"title":"draft"}` {
		t.Fatalf("stored rejected output = %q", got)
	}
}

func TestLongRejectedOutputIsClippedOnARuneBoundary(t *testing.T) {
	f := newFixture(t, fixtureOpts{model: true})
	long := strings.Repeat("é", agent.MaxRejectedOutput) // two bytes each
	f.srv.Push(llmtest.Text(long, 1, 1), jsonOut("fixed", 2))
	r := f.run(t, "ada")
	got := r.ValidationErrors[0].Output
	if !utf8.ValidString(got) || !strings.HasSuffix(got, "…") || len(got) > agent.MaxRejectedOutput+len("…") {
		t.Fatalf("clipped output: %d bytes, valid UTF-8 %v", len(got), utf8.ValidString(got))
	}
}

func TestDomainViolationIsSentBack(t *testing.T) {
	f := newFixture(t, fixtureOpts{model: true})
	f.srv.Push(jsonOut("forbidden", 1), llmtest.Text("```json\n{\"title\":\"fine\",\"score\":1}\n```", 1, 1))
	r := f.run(t, "ada")
	if r.Status != agent.StatusSucceeded || string(r.Output) != `{"title":"fine","score":1}` {
		t.Fatal(fmtRun(r))
	}
	if c := f.srv.ChatRequests()[1].LastMessage().Content; !strings.Contains(c, "/title: title is not allowed") {
		t.Fatalf("correction message:\n%s", c)
	}
}

func TestThreeBadRepliesFallBackToHeuristic(t *testing.T) {
	f := newFixture(t, fixtureOpts{model: true})
	for range 3 {
		f.srv.Push(llmtest.Text("not json at all", 10, 5))
	}
	r := f.run(t, "ada")
	if r.Status != agent.StatusFellBack || !strings.HasPrefix(r.FallbackReason, "invalid_output: 3 invalid replies") ||
		string(r.Output) != `{"title":"heuristic","score":1}` || r.Attempts != 4 {
		t.Fatal(fmtRun(r))
	}
	mustEqual(t, "requests", len(f.srv.ChatRequests()), 3)
	mustEqual(t, "validation error sets", len(r.ValidationErrors), 3)
	if outs := f.outputs(t); len(outs) != 1 || !strings.HasPrefix(outs[0], "ada heuristic ") {
		t.Fatalf("outputs = %v", outs)
	}
	stored, _ := f.orch.Runs().Get(context.Background(), r.ID)
	if stored.Status != agent.StatusFellBack || stored.FallbackReason != r.FallbackReason {
		t.Fatalf("stored = %s", fmtRun(stored))
	}
}

func TestRateLimitThenSuccess(t *testing.T) {
	f := newFixture(t, fixtureOpts{model: true, clientMod: func(c *llm.OpenAIConfig) { c.MaxRetries = 2 }})
	f.srv.Push(llmtest.RateLimited(), jsonOut("ok", 1))
	r := f.run(t, "ada")
	if r.Status != agent.StatusSucceeded || r.Attempts != 1 {
		t.Fatal(fmtRun(r))
	}
	mustEqual(t, "requests", len(f.srv.ChatRequests()), 2)
}

func TestModelErrorFallsBack(t *testing.T) {
	f := newFixture(t, fixtureOpts{model: true})
	f.srv.Push(llmtest.Error(500))
	r := f.run(t, "ada")
	if r.Status != agent.StatusFellBack || !strings.HasPrefix(r.FallbackReason, "model_error: ") ||
		!strings.Contains(r.FallbackReason, "500") {
		t.Fatal(fmtRun(r))
	}
}

func TestHangingServerRequestTimeoutFallsBack(t *testing.T) {
	f := newFixture(t, fixtureOpts{model: true, clientMod: func(c *llm.OpenAIConfig) { c.RequestTimeout = 150 * time.Millisecond }})
	f.srv.Push(llmtest.Reply{Hang: true})
	start := time.Now()
	r := f.run(t, "ada")
	if r.Status != agent.StatusFellBack || !strings.Contains(r.FallbackReason, "deadline exceeded") {
		t.Fatal(fmtRun(r))
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("took %v", d)
	}
}

func TestHangingServerRunTimeoutFailsCleanly(t *testing.T) {
	f := newFixture(t, fixtureOpts{model: true, opts: agent.Options{RunTimeout: 300 * time.Millisecond}})
	f.asg.actMemory = map[string]string{"x": "y"}
	f.srv.Push(llmtest.Reply{Hang: true})
	start := time.Now()
	r := f.run(t, "ada")
	if r.Status != agent.StatusFailed || !strings.Contains(r.Error, "deadline exceeded") || r.FinishedAt == nil {
		t.Fatal(fmtRun(r))
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("took %v", d)
	}
	if outs, mem := f.outputs(t), f.memory(t, "ada"); len(outs) != 0 || len(mem) != 0 {
		t.Fatalf("wrote outputs %v memory %v", outs, mem)
	}
	stored, _ := f.orch.Runs().Get(context.Background(), r.ID)
	mustEqual(t, "stored status", stored.Status, agent.StatusFailed)
}

func TestTokenUsageAndCost(t *testing.T) {
	f := newFixture(t, fixtureOpts{model: true, opts: agent.Options{
		Prices: agent.Prices{"fake-model": {InputPerMTok: 2.5, OutputPerMTok: 10}}}})
	tool := llmtest.Tool("whoami", "{}")
	tool.PromptTokens, tool.CompletionTokens = 100, 20
	f.srv.Push(tool, llmtest.JSON(output{Title: "x", Score: 1}, 1100, 280))
	r := f.run(t, "ada")
	if r.TokensIn != 1200 || r.TokensOut != 300 || r.Model != "fake-model" {
		t.Fatal(fmtRun(r), r.TokensIn, r.TokensOut)
	}
	// Next to the server's usage, the run keeps each request's prompt as
	// counted offline, stored and read back.
	stored, err := f.orch.Runs().Get(context.Background(), r.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(stored.PromptTokens) != 2 || stored.PromptTokens[0].Tools == 0 || stored.PromptTokens[0].Facts == 0 ||
		stored.PromptTokens[1].History <= stored.PromptTokens[0].History || stored.TokensIn != 1200 {
		t.Fatalf("stored prompt tokens = %+v (tokens_in %d), want two requests counted by part", stored.PromptTokens, stored.TokensIn)
	}
	if want := (1200*2.5 + 300*10) / 1e6; math.Abs(r.CostUSD-want) > 1e-12 {
		t.Fatalf("cost = %v, want %v", r.CostUSD, want)
	}
	st, _ := f.orch.BudgetStatus(context.Background())
	if st.Tokens != 1500 || math.Abs(st.USD-r.CostUSD) > 1e-12 || st.Exhausted {
		t.Fatalf("budget status = %+v", st)
	}
}

func TestPricesMatchDatedModelNames(t *testing.T) {
	p := agent.Prices{"gpt-4o": {InputPerMTok: 1}, "gpt-4o-mini": {InputPerMTok: 2}}
	u := agent.Usage{InputTokens: 1_000_000}
	mustEqual(t, "dated mini", p.Cost("gpt-4o-mini-2024-07-18", u), 2.0)
	mustEqual(t, "dated 4o", p.Cost("gpt-4o-2024-08-06", u), 1.0)
	mustEqual(t, "unknown", p.Cost("llama3", u), 0.0)
}

func TestSpentBudgetSkipsTheModel(t *testing.T) {
	for name, budget := range map[string]agent.Budget{"tokens": {Tokens: 1000}, "usd": {USD: 0.001}} {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, fixtureOpts{model: true, noReuse: true, opts: agent.Options{
				Budget: budget, Prices: agent.Prices{"fake-model": {InputPerMTok: 1, OutputPerMTok: 1}}}})
			f.srv.Push(llmtest.JSON(output{Title: "x", Score: 1}, 1200, 300))
			first := f.run(t, "ada")
			mustEqual(t, "first", first.Status, agent.StatusSucceeded)

			r := f.run(t, "bob")
			if r.Status != agent.StatusFellBack || r.FallbackReason != agent.FallbackBudget || r.Model != "heuristic" ||
				r.TokensIn != 0 || string(r.Output) != `{"title":"heuristic","score":1}` {
				t.Fatal(fmtRun(r))
			}
			mustEqual(t, "requests", len(f.srv.ChatRequests()), 1)

			// A new day brings a fresh budget.
			f.clock.Advance(24 * time.Hour)
			f.srv.Push(jsonOut("next day", 1))
			if r := f.run(t, "bob"); r.Status != agent.StatusSucceeded || r.Model != "fake-model" {
				t.Fatal(fmtRun(r))
			}
		})
	}
}

func TestIdenticalInputReusesTheLastOutput(t *testing.T) {
	f := newFixture(t, fixtureOpts{model: true})
	f.srv.Push(jsonOut("original", 3))
	first := f.run(t, "ada")
	mustEqual(t, "first", first.Status, agent.StatusSucceeded)

	f.clock.Advance(time.Hour)
	second := f.run(t, "ada")
	if second.Status != agent.StatusSucceeded || second.ReusedFrom == nil || *second.ReusedFrom != first.ID ||
		string(second.Output) != string(first.Output) || second.InputHash != first.InputHash || second.TokensIn != 0 {
		t.Fatal(fmtRun(second))
	}
	third := f.run(t, "ada") // reuse of a reuse points at the original
	if third.ReusedFrom == nil || *third.ReusedFrom != first.ID {
		t.Fatal(fmtRun(third))
	}
	mustEqual(t, "requests", len(f.srv.ChatRequests()), 1)
	mustEqual(t, "act ran each time", len(f.outputs(t)), 3)
	if outs := f.outputs(t); !strings.HasPrefix(outs[1], "ada reuse ") {
		t.Fatalf("outputs = %v", outs)
	}

	// Changed memory is changed input: the model is asked again.
	if _, err := f.orch.Memory().Set(context.Background(), "tester", "ada", "mood", "tired", 0, "admin:eve"); err != nil {
		t.Fatal(err)
	}
	f.srv.Push(jsonOut("fresh", 1))
	fourth := f.run(t, "ada")
	if fourth.ReusedFrom != nil || string(fourth.Output) != `{"title":"fresh","score":1}` {
		t.Fatal(fmtRun(fourth))
	}
	// Other members never reuse ada's output.
	f.srv.Push(jsonOut("bob's", 1))
	if bob := f.run(t, "bob"); bob.ReusedFrom != nil {
		t.Fatal(fmtRun(bob))
	}
}

// A run asked for built-in uses the heuristic planner though a model is
// configured, and is not a fallback: it never asked the model. (The
// kiosk's re-plan after a member's words runs built-in once the member's
// model-call budget is spent.)
func TestBuiltInRunNeverCallsTheModel(t *testing.T) {
	f := newFixture(t, fixtureOpts{model: true, noReuse: true})
	f.srv.Otherwise(func(llmtest.Request) llmtest.Reply { return jsonOut("from the model", 1) })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	r, err := f.orch.Run(ctx, agent.Request{Agent: "tester", Assignment: "daily", Member: "ada", BuiltIn: true})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != agent.StatusSucceeded || r.FallbackReason != "" || r.Model != "heuristic" {
		t.Fatal(fmtRun(r))
	}
	mustEqual(t, "model requests", len(f.srv.ChatRequests()), 0)
	// The next run, not built-in, asks the model again.
	if r := f.run(t, "ada"); r.Model != "fake-model" {
		t.Fatal(fmtRun(r))
	}
	mustEqual(t, "model requests", len(f.srv.ChatRequests()), 1)
}
