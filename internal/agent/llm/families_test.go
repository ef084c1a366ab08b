package llm_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"hearth/internal/agent"
	"hearth/internal/agent/llm"
	"hearth/internal/agent/llm/llmtest"
	"hearth/internal/dashboard"
)

// doc is a dashboard document as a model might write it.
var doc = map[string]any{"generated_at": "2026-02-18T04:00:00Z",
	"curated": map[string]any{"up_next": map[string]any{"primary": nil, "alternates": []any{}}, "playlist_suggestion": []any{}},
	"coach":   map[string]any{"briefing": "A steady week.", "cta": []any{}, "prompts": []any{}, "feedback": []any{}}}

// brain answers like a model: with tools on offer and no result back yet
// it calls find; otherwise it writes the document, with chatter around it
// when nothing constrains the reply (no response_format).
func brain(r llmtest.Request) llmtest.Reply {
	if len(r.ToolNames()) > 0 && !r.HasToolResults() {
		return llmtest.Tool("find", map[string]any{"days": 7, "query": "weight", "kind": nil, "when": nil, "tags": []string{}})
	}
	b, _ := json.Marshal(doc)
	if r.ResponseFormat() == nil {
		return llmtest.Text("Sure! Here is today's plan:\n```json\n"+string(b)+"\n```\nAnything else?", 0, 0)
	}
	return llmtest.Text(string(b), 300, 120)
}

// run is one assignment-like request: the dashboard schema, the find
// tool, a pinned task prompt.
func run(t *testing.T, c *llm.OpenAI) (agent.Result, []string, error) {
	t.Helper()
	var called []string
	tool := agent.NewTool("find", "Find facts.", func(_ context.Context, _ agent.Scope, a toolArgs) (map[string]int, error) {
		return map[string]int{"days": *a.Days}, nil
	})
	box, err := agent.NewToolbox(agent.ToolFactoryFunc(func() []agent.Tool { return []agent.Tool{tool} }))
	if err != nil {
		t.Fatal(err)
	}
	caller := func(ctx context.Context, name string, args json.RawMessage) (any, error) {
		called = append(called, name)
		return box.Call(ctx, agent.Scope{MemberID: "maya"}, name, args)
	}
	res, err := c.Execute(context.Background(), agent.ModelRequest{
		System:   "You are the coach.",
		Messages: []agent.Message{{Role: agent.RoleUser, Content: "Write today's dashboard.", Pinned: true}},
		Tools:    box.Specs(), CallTool: caller, MaxTokens: 800,
		Output: &agent.OutputSchema{Name: "dashboard", Schema: dashboard.SchemaMap()},
	})
	return res, called, err
}

func runtimeFor(t *testing.T, srv *llmtest.Server, mod func(*llm.OpenAIConfig)) (*llm.OpenAI, *llm.MemoryProfiles) {
	t.Helper()
	store := &llm.MemoryProfiles{}
	cfg := llm.OpenAIConfig{BaseURL: srv.URL(), APIKey: "sk-test", Model: "m", Profiles: store, RequestTimeout: 5 * time.Second}
	if mod != nil {
		mod(&cfg)
	}
	c, err := llm.NewOpenAI(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c, store
}

func checkDocument(t *testing.T, res agent.Result) {
	t.Helper()
	sch, err := agent.CompileSchema("dash", dashboard.SchemaMap())
	if err != nil {
		t.Fatal(err)
	}
	if errs := sch.Validate([]byte(res.Output)); len(errs) > 0 {
		t.Fatalf("output %q: %v", res.Output, errs)
	}
}

// runOn runs the assignment-like request on a fake of fam whose model is
// brain, and checks the output is a valid dashboard.
func runOn(t *testing.T, fam llmtest.Family) (*llmtest.Server, *llm.OpenAI, *llm.MemoryProfiles, agent.Result, []string) {
	t.Helper()
	srv := llmtest.NewFamily(t, fam)
	srv.Otherwise(brain)
	c, store := runtimeFor(t, srv, nil)
	res, called, err := run(t, c)
	if err != nil {
		t.Fatal(err)
	}
	checkDocument(t, res)
	return srv, c, store, res, called
}

// Acceptance: against a server that enforces OpenAI's strict subset the
// dashboard schema and strict tool schemas are accepted on the first
// request; the family is told by the model list.
func TestOpenAIStrictServerAcceptsFirstTime(t *testing.T) {
	srv, c, _, res, called := runOn(t, llmtest.OpenAI(llmtest.OpenAIOptions{APIKey: "sk-test"}))
	if refused := srv.Refusals(); len(refused) > 0 {
		t.Fatalf("refused: %s", refused[0].Body)
	}
	if len(called) != 1 || len(res.Notes) != 0 {
		t.Fatalf("tool calls %v, notes %v", called, res.Notes)
	}
	first := srv.ChatRequests()[0]
	js, _ := first.ResponseFormat()["json_schema"].(map[string]any)
	if js["strict"] != true || first.Tools()[0].Strict != true || first.Get("max_completion_tokens") != float64(800) {
		t.Fatalf("want strict json_schema, strict tools and max_completion_tokens: %s", first.Raw)
	}
	if p, _ := c.Profile(context.Background(), "m"); p.Family != llm.FamilyOpenAI || p.Detected != "model list" {
		t.Fatalf("profile = %+v", p)
	}
}

// The same request with the schema sent whole (what Hearth did before
// dialects) is refused with OpenAI's message.
func TestOpenAIStrictFakeRefusesTheFullSchema(t *testing.T) {
	srv := llmtest.NewFamily(t, llmtest.OpenAI(llmtest.OpenAIOptions{}))
	body := `{"model":"m","messages":[{"role":"user","content":"x"}],"response_format":{"type":"json_schema","json_schema":{"name":"dashboard","strict":true,"schema":` +
		mustJSON(dashboard.SchemaMap()) + `}}}`
	req := llmtest.Request{Raw: []byte(body)}
	_ = json.Unmarshal(req.Raw, &req.Body)
	ref := llmtest.OpenAI(llmtest.OpenAIOptions{}).Check(req)
	if ref == nil || ref.Status != 400 || !strings.Contains(ref.Body, `Invalid schema for response_format 'dashboard': In context=(`) ||
		!strings.Contains(ref.Body, "is not permitted") {
		t.Fatalf("refusal = %+v", ref)
	}
	_ = srv
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// A minimal server refuses tools and every response_format: the runtime
// walks both ladders in one call (tool-less; json_schema → json_object →
// text with extraction; the minimal schema is skipped because json_schema
// itself is "not supported"), says so in the notes with the server's
// words, and the next call starts where it ended.
func TestLaddersStepDownAndAreRemembered(t *testing.T) {
	srv, c, store, res, called := runOn(t, llmtest.Minimal(llmtest.MinimalOptions{}))
	if len(called) != 0 {
		t.Fatalf("tool calls on a server without tools: %v", called)
	}
	if n := len(srv.Refusals()); n != 3 {
		t.Fatalf("%d refusals, want 3 (tools, json_schema, json_object)", n)
	}
	notes := strings.Join(res.Notes, "\n")
	for _, want := range []string{"tools off (tool-less mode), because the server answered 400 Bad Request: tools are not supported",
		"json_schema (openai-strict) → json_object", "json_object → text",
		"response_format type 'json_object' is not supported", "token usage estimated"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
	last := srv.ChatRequests()[len(srv.ChatRequests())-1]
	if sys := last.Messages()[0].Content; !strings.Contains(sys, "No tools are available") || !strings.Contains(sys, `"briefing"`) {
		t.Fatalf("tool-less text request lacks the note or the schema:\n%s", sys)
	}
	if res.Usage.InputTokens == 0 || res.Usage.OutputTokens == 0 {
		t.Fatalf("usage not estimated: %+v", res.Usage)
	}
	p, ok, _ := store.Load(context.Background(), srv.URL(), "m")
	if !ok || p.Output != llm.OutputText || p.Tools != llm.ToolsNone || len(p.Learned) != 3 {
		t.Fatalf("profile = %+v", p)
	}

	before := len(srv.ChatRequests())
	res, _, err := run(t, c)
	if err != nil {
		t.Fatal(err)
	}
	checkDocument(t, res)
	if n := len(srv.ChatRequests()) - before; n != 1 || len(srv.Refusals()) != 3 {
		t.Fatalf("second call: %d requests, %d refusals; want 1 and still 3", n, len(srv.Refusals()))
	}
	if notes := strings.Join(res.Notes, "\n"); !strings.Contains(notes, "tool-less mode for this endpoint") || !strings.Contains(notes, "structured output text for this endpoint") {
		t.Errorf("second call does not say which settings it ran with:\n%s", notes)
	}
}

// Servers that cannot call tools each say so their own way; the runtime
// turns tools off for the endpoint and the facts travel in the prompt.
func TestToolLessModeOnServersWithoutTools(t *testing.T) {
	for _, fam := range []llmtest.Family{
		llmtest.Ollama(llmtest.OllamaOptions{NoTools: true}),
		llmtest.LlamaCpp(llmtest.LlamaCppOptions{NoJinja: true}),
		llmtest.VLLM(llmtest.VLLMOptions{}),
		llmtest.VLLM(llmtest.VLLMOptions{FlatErrors: true}),
	} {
		t.Run(fam.Name, func(t *testing.T) {
			srv, _, store, res, called := runOn(t, fam)
			refused := srv.Refusals()
			if len(refused) != 1 || len(called) != 0 {
				t.Fatalf("refusals %d, tool calls %v; want one refusal and no calls", len(refused), called)
			}
			if !strings.Contains(strings.Join(res.Notes, "\n"), "tools off") {
				t.Fatalf("notes: %v", res.Notes)
			}
			p, _, _ := store.Load(context.Background(), srv.URL(), "m")
			if p.Tools != llm.ToolsNone || p.Family != llm.Family(fam.Name) {
				t.Fatalf("profile = %+v", p)
			}
		})
	}
}

// Tool calls that a server's template or parser missed arrive as text:
// Ollama's raw JSON, LM Studio's [TOOL_REQUEST]; they are still run.
func TestToolCallsWrittenIntoContent(t *testing.T) {
	for _, fam := range []llmtest.Family{
		llmtest.Ollama(llmtest.OllamaOptions{TemplateMiss: true}),
		llmtest.LMStudio(llmtest.LMStudioOptions{DefaultToolFormat: true}),
	} {
		t.Run(fam.Name, func(t *testing.T) {
			srv, _, _, res, called := runOn(t, fam)
			if len(called) != 1 || len(srv.Refusals()) != 0 {
				t.Fatalf("tool calls %v, refusals %v", called, srv.Refusals())
			}
			if !strings.Contains(strings.Join(res.Notes, "\n"), "tool calls read from the reply's text") {
				t.Fatalf("notes: %v", res.Notes)
			}
			if first := srv.ChatRequests()[0]; first.Get("max_tokens") != float64(800) || first.Get("max_completion_tokens") != nil {
				t.Fatalf("local servers get max_tokens (Ollama ignores max_completion_tokens): %s", first.Raw)
			}
		})
	}
}

// llama.cpp: an old build refuses type arrays, and a json_schema beside
// tools binds the reply to the grammar so tools never get called; the
// grammar dialect and separate requests avoid both.
func TestLlamaCppGrammarDialectAndSeparateToolPhase(t *testing.T) {
	srv, _, _, _, called := runOn(t, llmtest.LlamaCpp(llmtest.LlamaCppOptions{OldBuild: true}))
	if len(srv.Refusals()) != 0 || len(called) != 1 {
		t.Fatalf("refusals %v, tool calls %v", srv.Refusals(), called)
	}
	for _, r := range srv.ChatRequests() {
		if len(r.Tools()) > 0 && r.ResponseFormat() != nil {
			t.Fatalf("tools and response_format in one request: %s", r.Raw)
		}
	}
}

// vLLM pinned to xgrammar refuses what xgrammar lacks (uniqueItems here);
// the minimal dialect is the next rung.
func TestVLLMXGrammarRefusalStepsToMinimal(t *testing.T) {
	srv := llmtest.NewFamily(t, llmtest.VLLM(llmtest.VLLMOptions{XGrammar: true, AutoTools: true}))
	srv.Otherwise(func(r llmtest.Request) llmtest.Reply {
		return llmtest.JSON(map[string]any{"tags": []string{"a"}}, 5, 5)
	})
	c, _ := runtimeFor(t, srv, nil)
	schema := map[string]any{"type": "object", "additionalProperties": false, "required": []string{"tags"},
		"properties": map[string]any{"tags": map[string]any{"type": "array", "uniqueItems": true, "items": map[string]any{"type": "string"}}}}
	res, err := c.Execute(context.Background(), agent.ModelRequest{Messages: []agent.Message{{Role: agent.RoleUser, Content: "tags?"}},
		Output: &agent.OutputSchema{Name: "tags", Schema: schema}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Output != `{"tags":["a"]}` || len(srv.Refusals()) != 1 {
		t.Fatalf("output %q after %d refusals", res.Output, len(srv.Refusals()))
	}
	if notes := strings.Join(res.Notes, "\n"); !strings.Contains(notes, "features not supported by xgrammar") || !strings.Contains(notes, "→ json_schema (minimal)") {
		t.Fatalf("notes: %s", notes)
	}
	if rf := srv.ChatRequests()[1].Schema(); strings.Contains(mustJSON(rf), `"uniqueItems":`) {
		t.Fatalf("retry still sent uniqueItems: %v", rf)
	}
}

// A refusal the runtime cannot step around fails with the server's status
// and message, whatever its body shape, and never with the API key.
func TestErrorsCarryTheServersMessage(t *testing.T) {
	for name, tc := range map[string]struct {
		fam  llmtest.Family
		key  string
		want string
	}{
		"openai wrong key":   {llmtest.OpenAI(llmtest.OpenAIOptions{APIKey: "sk-right"}), "sk-wrong-key", "401 Unauthorized: Incorrect API key provided: ****"},
		"vllm auth (string)": {llmtest.VLLM(llmtest.VLLMOptions{APIKey: "k"}), "sk-wrong-key", "401 Unauthorized: Unauthorized"},
		"vllm unknown model": {llmtest.VLLM(llmtest.VLLMOptions{Served: "qwen", FlatErrors: true}), "", "404 Not Found: The model `m` does not exist."},
		"ollama no model":    {llmtest.Ollama(llmtest.OllamaOptions{Models: []string{"qwen2.5:7b"}}), "", "404 Not Found: model 'm' not found (not_found_error)"},
		"lmstudio model":     {llmtest.LMStudio(llmtest.LMStudioOptions{Models: []string{"qwen"}}), "", `400 Bad Request: Invalid model identifier "m". Please specify a valid downloaded model (e.g., qwen). (invalid_request_error, model_not_found, param model)`},
		"llamacpp key":       {llmtest.LlamaCpp(llmtest.LlamaCppOptions{APIKey: "k"}), "sk-wrong-key", "401 Unauthorized: Invalid API Key (authentication_error)"},
	} {
		t.Run(name, func(t *testing.T) {
			srv := llmtest.NewFamily(t, tc.fam)
			c, _ := runtimeFor(t, srv, func(cfg *llm.OpenAIConfig) { cfg.APIKey = tc.key })
			_, err := c.Execute(context.Background(), agent.ModelRequest{Messages: []agent.Message{{Role: agent.RoleUser, Content: "hi"}}})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v\nwant it to contain %q", err, tc.want)
			}
			if tc.key != "" && strings.Contains(err.Error(), tc.key) {
				t.Fatalf("the API key leaked: %v", err)
			}
		})
	}
}

// The context window: llama.cpp refuses a prompt over n_ctx and names it;
// the runtime trims the oldest history (never the pinned task or the last
// message) and remembers the size, so the next call trims first.
func TestContextWindowTrimsOldestHistory(t *testing.T) {
	srv := llmtest.NewFamily(t, llmtest.LlamaCpp(llmtest.LlamaCppOptions{NCtx: 400}))
	srv.Otherwise(func(r llmtest.Request) llmtest.Reply { return llmtest.Text("ok", 1, 1) })
	c, store := runtimeFor(t, srv, nil)
	msgs := []agent.Message{{Role: agent.RoleUser, Content: "TASK " + strings.Repeat("t", 100), Pinned: true}}
	for i := range 12 {
		role := agent.RoleUser
		if i%2 == 1 {
			role = agent.RoleAssistant
		}
		msgs = append(msgs, agent.Message{Role: role, Content: strings.Repeat("h", 300)})
	}
	msgs = append(msgs, agent.Message{Role: agent.RoleUser, Content: "LAST question"})
	req := agent.ModelRequest{Messages: msgs, MaxTokens: 50}
	res, err := c.Execute(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if res.Output != "ok" || len(srv.Refusals()) != 1 {
		t.Fatalf("output %q, refusals %d", res.Output, len(srv.Refusals()))
	}
	if !strings.Contains(srv.Refusals()[0].Body, "exceed_context_size_error") {
		t.Fatalf("refusal: %s", srv.Refusals()[0].Body)
	}
	sent := srv.ChatRequests()[1].Messages()
	if sent[0].Content != msgs[0].Content || sent[len(sent)-1].Content != "LAST question" || len(sent) >= len(msgs) {
		t.Fatalf("trimmed conversation kept %d of %d messages: first %q last %q", len(sent), len(msgs), sent[0].Content[:4], sent[len(sent)-1].Content)
	}
	if p, _, _ := store.Load(context.Background(), srv.URL(), "m"); p.ContextTokens != 400 {
		t.Fatalf("context learned = %d", p.ContextTokens)
	}
	if notes := strings.Join(res.Notes, "\n"); !strings.Contains(notes, "dropped the") || !strings.Contains(notes, "exceeds the available context size (400 tokens)") {
		t.Fatalf("notes: %s", notes)
	}
	if _, err := c.Execute(context.Background(), req); err != nil || len(srv.Refusals()) != 1 {
		t.Fatalf("second call: %v, refusals %d", err, len(srv.Refusals()))
	}
	big := agent.ModelRequest{Messages: []agent.Message{{Role: agent.RoleUser, Content: strings.Repeat("x", 5000), Pinned: true}}}
	if _, err := c.Execute(context.Background(), big); err == nil || !strings.Contains(err.Error(), "does not fit the model's context window of 400 tokens") {
		t.Fatalf("oversized pinned prompt: %v", err)
	}
}

// vLLM lists the context size; its check counts max_tokens, so the
// budget leaves the reply's room.
func TestVLLMContextFromModelList(t *testing.T) {
	srv := llmtest.NewFamily(t, llmtest.VLLM(llmtest.VLLMOptions{MaxModelLen: 500, Served: "m"}))
	srv.Otherwise(func(r llmtest.Request) llmtest.Reply { return llmtest.Text("ok", 1, 1) })
	c, _ := runtimeFor(t, srv, nil)
	var msgs []agent.Message
	for range 10 {
		msgs = append(msgs, agent.Message{Role: agent.RoleUser, Content: strings.Repeat("h", 400)})
	}
	res, err := c.Execute(context.Background(), agent.ModelRequest{Messages: msgs, MaxTokens: 200})
	if err != nil || res.Output != "ok" {
		t.Fatalf("%q, %v", res.Output, err)
	}
	if len(srv.Refusals()) != 0 {
		t.Fatalf("refused: %s", srv.Refusals()[0].Body)
	}
	if !strings.Contains(strings.Join(res.Notes, "\n"), "context window of 500 tokens") {
		t.Fatalf("notes: %v", res.Notes)
	}
}

// Streaming against each family: the text arrives in pieces, tool calls
// are assembled (fragments or whole), usage comes from the usage chunk or
// is estimated.
func TestStreamingAcrossFamilies(t *testing.T) {
	for _, fam := range []llmtest.Family{
		llmtest.OpenAI(llmtest.OpenAIOptions{APIKey: "sk-test"}),
		llmtest.Ollama(llmtest.OllamaOptions{}),
		llmtest.LlamaCpp(llmtest.LlamaCppOptions{}),
		llmtest.VLLM(llmtest.VLLMOptions{AutoTools: true}),
		llmtest.LMStudio(llmtest.LMStudioOptions{}),
		llmtest.Minimal(llmtest.MinimalOptions{}),
	} {
		t.Run(fam.Name, func(t *testing.T) {
			srv := llmtest.NewFamily(t, fam)
			srv.Otherwise(func(r llmtest.Request) llmtest.Reply {
				if len(r.ToolNames()) > 0 && !r.HasToolResults() {
					return llmtest.Tool("lookup", map[string]string{"q": "weather"})
				}
				return llmtest.Text("It is sunny and mild today.", 20, 7)
			})
			c, _ := runtimeFor(t, srv, nil)
			var pieces []string
			calls := 0
			res, err := c.Execute(context.Background(), agent.ModelRequest{
				Messages: []agent.Message{{Role: agent.RoleUser, Content: "weather?"}},
				Tools:    []agent.ToolSpec{lookupSpec},
				CallTool: func(context.Context, string, json.RawMessage) (any, error) { calls++; return "sunny", nil },
				OnDelta:  func(s string) { pieces = append(pieces, s) },
			})
			if err != nil {
				t.Fatal(err)
			}
			if res.Output != "It is sunny and mild today." || strings.Join(pieces, "") != res.Output || len(pieces) < 2 {
				t.Fatalf("output %q from pieces %q", res.Output, pieces)
			}
			wantCalls := 1
			if fam.Name == "minimal" {
				wantCalls = 0 // tool-less
			}
			if calls != wantCalls {
				t.Fatalf("tool calls = %d, want %d", calls, wantCalls)
			}
			if res.Usage.InputTokens == 0 {
				t.Fatalf("no usage: %+v", res.Usage)
			}
			for _, r := range srv.ChatRequests() {
				if r.Get("stream") != true {
					t.Fatalf("not streamed: %s", r.Raw)
				}
			}
		})
	}
}

func TestStreamFailures(t *testing.T) {
	srv := llmtest.New(t, llmtest.Reply{StreamCut: true}, llmtest.Reply{Content: "late", Delay: 400 * time.Millisecond})
	c, _ := runtimeFor(t, srv, func(cfg *llm.OpenAIConfig) { cfg.FirstTokenTimeout = 100 * time.Millisecond })
	req := agent.ModelRequest{Messages: []agent.Message{{Role: agent.RoleUser, Content: "x"}}, OnDelta: func(string) {}}
	if _, err := c.Execute(context.Background(), req); err == nil || !strings.Contains(err.Error(), "ended without an answer") {
		t.Fatalf("cut stream: %v", err)
	}
	if _, err := c.Execute(context.Background(), req); err == nil || !strings.Contains(err.Error(), "first-token timeout") {
		t.Fatalf("silent server: %v", err)
	}
}

// Without a key no Authorization header goes out, even with
// OPENAI_API_KEY in the environment (openai-go reads it by default).
func TestNoAuthorizationWithoutKey(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-from-env")
	srv := llmtest.New(t, llmtest.Text("hi", 1, 1))
	c, _ := runtimeFor(t, srv, func(cfg *llm.OpenAIConfig) { cfg.APIKey = "" })
	if _, err := c.Execute(context.Background(), agent.ModelRequest{Messages: []agent.Message{{Role: agent.RoleUser, Content: "x"}}}); err != nil {
		t.Fatal(err)
	}
	for _, r := range srv.Requests() {
		if h := r.Header.Get("Authorization"); h != "" {
			t.Fatalf("%s %s sent Authorization %q", r.Method, r.Path, h)
		}
	}
}

// Tool calls decide a tool turn whatever finish_reason says (vLLM sends
// "stop" with a named tool choice, old llama.cpp "tool", some servers
// null); "length" is passed on.
func TestFinishReasonQuirks(t *testing.T) {
	for _, finish := range []string{"stop", "tool", "null"} {
		t.Run(finish, func(t *testing.T) {
			call := llmtest.Tool("lookup", map[string]string{"q": "x"})
			call.FinishReason = finish
			srv := llmtest.New(t, call, llmtest.Reply{Content: "done", FinishReason: "length"})
			c, _ := runtimeFor(t, srv, nil)
			n := 0
			res, err := c.Execute(context.Background(), agent.ModelRequest{Messages: []agent.Message{{Role: agent.RoleUser, Content: "x"}},
				Tools: []agent.ToolSpec{lookupSpec}, CallTool: func(context.Context, string, json.RawMessage) (any, error) { n++; return 1, nil }})
			if err != nil || n != 1 || res.Output != "done" || res.FinishReason != "length" {
				t.Fatalf("err %v, calls %d, output %q, finish %q", err, n, res.Output, res.FinishReason)
			}
		})
	}
}

// OpenAI's reasoning models refuse max_tokens, naming it; the runtime
// switches the field for the endpoint.
func TestRefusedTokenFieldIsSwitched(t *testing.T) {
	refuse := llmtest.Reply{Status: 400, Body: `{"error":{"message":"Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.","type":"invalid_request_error","param":"max_tokens","code":"unsupported_parameter"}}`}
	srv := llmtest.New(t, refuse, llmtest.Text("fine", 1, 1))
	c, store := runtimeFor(t, srv, nil)
	res, err := c.Execute(context.Background(), agent.ModelRequest{Messages: []agent.Message{{Role: agent.RoleUser, Content: "x"}}, MaxTokens: 10})
	if err != nil || res.Output != "fine" {
		t.Fatalf("%q %v", res.Output, err)
	}
	if second := srv.ChatRequests()[1]; second.Get("max_completion_tokens") != float64(10) || second.Get("max_tokens") != nil {
		t.Fatalf("retry: %s", second.Raw)
	}
	if p, _, _ := store.Load(context.Background(), srv.URL(), "m"); p.TokensField != llm.FieldMaxCompletionTokens {
		t.Fatalf("profile = %+v", p)
	}
}

// Behind a proxy with no model list, Ollama's system_fingerprint names it.
func TestOllamaRecognisedByFingerprint(t *testing.T) {
	fam := llmtest.Ollama(llmtest.OllamaOptions{})
	fam.Models = nil
	srv := llmtest.NewFamily(t, fam, llmtest.Text("hi", 1, 1))
	c, _ := runtimeFor(t, srv, nil)
	if _, err := c.Execute(context.Background(), agent.ModelRequest{Messages: []agent.Message{{Role: agent.RoleUser, Content: "x"}}}); err != nil {
		t.Fatal(err)
	}
	if p, _ := c.Profile(context.Background(), "m"); p.Family != llm.FamilyOllama || !strings.Contains(p.Detected, "fp_ollama") {
		t.Fatalf("profile = %+v", p)
	}
}

// On a split server (tools and the format in separate requests), a model
// that ends its tool phase with words instead of the document is asked
// once more with the output format and without tools; the tool turns go
// along as text.
func TestSplitServerAsksForTheDocumentAfterTheToolPhase(t *testing.T) {
	srv := llmtest.NewFamily(t, llmtest.LlamaCpp(llmtest.LlamaCppOptions{}))
	srv.Otherwise(func(r llmtest.Request) llmtest.Reply {
		switch {
		case r.ResponseFormat() != nil:
			return brain(r)
		case !r.HasToolResults():
			return llmtest.Tool("find", map[string]any{"days": 7, "query": "weight", "kind": nil, "when": nil, "tags": []string{}})
		}
		return llmtest.Text("I have what I need.", 5, 5)
	})
	c, _ := runtimeFor(t, srv, nil)
	res, called, err := run(t, c)
	if err != nil {
		t.Fatal(err)
	}
	checkDocument(t, res)
	reqs := srv.ChatRequests()
	if len(called) != 1 || len(reqs) != 3 {
		t.Fatalf("tool calls %v, %d requests; want 1 and 3", called, len(reqs))
	}
	last := reqs[2]
	if len(last.Tools()) != 0 || last.Schema() == nil || !last.HasToolResults() {
		t.Fatalf("the final request: %s", last.Raw)
	}
	for _, m := range last.Messages() {
		if m.Role == "tool" || len(m.ToolCalls) > 0 {
			t.Fatalf("native tool turns sent without tools: %s", last.Raw)
		}
	}
	if !strings.Contains(strings.Join(res.Notes, "\n"), "asked again with the output format") {
		t.Fatalf("notes: %v", res.Notes)
	}
}
