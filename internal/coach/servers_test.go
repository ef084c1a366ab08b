package coach

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"hearth/internal/agent"
	"hearth/internal/agent/llm"
	"hearth/internal/agent/llm/llmtest"
)

// serverBrain is the model behind every fake server: it notes today's
// focus in memory when tools are offered (and no result came back yet;
// the daily run offers only DailyModelTools), then
// writes the plan; without a response_format it chats around the JSON as
// small local models do.
func serverBrain(plan string) func(llmtest.Request) llmtest.Reply {
	return func(r llmtest.Request) llmtest.Reply {
		if len(r.ToolNames()) > 0 && !r.HasToolResults() {
			return llmtest.Tool("remember", map[string]any{"key": "focus", "value": "core day", "ttl_hours": 24})
		}
		if r.ResponseFormat() == nil {
			return llmtest.Text("Here is Maya's day:\n```json\n"+plan+"\n```", 0, 0)
		}
		return llmtest.Text(plan, 1500, 400)
	}
}

func serverFixture(t *testing.T, fam llmtest.Family) (*fixture, *llmtest.Server, string) {
	t.Helper()
	srv := llmtest.NewFamily(t, fam)
	b, err := json.Marshal(modelDoc("local:ember-core-04", "Hollow Body Basics", 16, "Strong week so far. Today is core day: Hollow Body Basics."))
	if err != nil {
		t.Fatal(err)
	}
	srv.Otherwise(serverBrain(string(b)))
	rt, err := llm.NewOpenAI(llm.OpenAIConfig{BaseURL: srv.URL(), APIKey: "sk-household", Model: "fake", RequestTimeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, fixtureOpts{model: rt})
	seedMaya(f)
	return f, srv, "Strong week so far. Today is core day: Hollow Body Basics."
}

// TestDailyDashboardAgainstEveryServerFamily is issue 25's matrix: the
// daily-dashboard assignment succeeds with the model's plan (no fallback)
// against a fake of each server family, each refusing what its server
// refuses and answering in its shapes.
func TestDailyDashboardAgainstEveryServerFamily(t *testing.T) {
	for _, tc := range []struct {
		name  string
		fam   llmtest.Family
		tools bool   // the model's tool call reached the coach's tools
		note  string // what the run says it adapted to ("" = nothing)
	}{
		{"openai strict", llmtest.OpenAI(llmtest.OpenAIOptions{APIKey: "sk-household"}), true, ""},
		{"ollama", llmtest.Ollama(llmtest.OllamaOptions{}), true, ""},
		{"ollama template miss", llmtest.Ollama(llmtest.OllamaOptions{TemplateMiss: true}), true, "tool calls read from the reply's text"},
		{"ollama model without tools", llmtest.Ollama(llmtest.OllamaOptions{NoTools: true}), false, "does not support tools"},
		{"llama.cpp", llmtest.LlamaCpp(llmtest.LlamaCppOptions{}), true, ""},
		{"llama.cpp old build", llmtest.LlamaCpp(llmtest.LlamaCppOptions{OldBuild: true}), true, ""},
		{"llama.cpp without jinja", llmtest.LlamaCpp(llmtest.LlamaCppOptions{NoJinja: true}), false, "tools param requires --jinja flag"},
		{"vllm default", llmtest.VLLM(llmtest.VLLMOptions{Served: "fake"}), false, "--enable-auto-tool-choice"},
		{"vllm tools, xgrammar", llmtest.VLLM(llmtest.VLLMOptions{Served: "fake", AutoTools: true, XGrammar: true}), true, ""},
		{"lm studio", llmtest.LMStudio(llmtest.LMStudioOptions{}), true, ""},
		{"lm studio default tool format", llmtest.LMStudio(llmtest.LMStudioOptions{DefaultToolFormat: true}), true, "tool calls read from the reply's text"},
		{"minimal server without tools", llmtest.Minimal(llmtest.MinimalOptions{}), false, "json_object → text"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, srv, briefing := serverFixture(t, tc.fam)
			r := f.run("maya")
			if r.Status != agent.StatusSucceeded || r.FallbackReason != "" {
				t.Fatalf("run %s, fallback %q, error %q; notes %v", r.Status, r.FallbackReason, r.Error, r.ModelNotes)
			}
			if got := f.today("maya").Document.Coach.Briefing; got != briefing {
				t.Fatalf("stored briefing %q is not the model's", got)
			}
			if called := len(r.ToolCalls) > 0; called != tc.tools {
				t.Fatalf("tool calls %+v, want called = %v", r.ToolCalls, tc.tools)
			}
			if tc.tools && r.ToolCalls[0].Name != "remember" || tc.tools && len(r.ToolCalls[0].Result) == 0 {
				t.Fatalf("tool call %+v", r.ToolCalls[0])
			}
			notes := strings.Join(r.ModelNotes, "\n")
			if tc.note == "" && len(r.ModelNotes) > 0 || !strings.Contains(notes, tc.note) {
				t.Fatalf("model notes %q, want %q", notes, tc.note)
			}
			if tc.note == "" && len(srv.Refusals()) > 0 {
				t.Fatalf("the server refused: %s", srv.Refusals()[0].Body)
			}
		})
	}
}

// Acceptance: a fallback's reason carries the server's status and message
// (never the API key), and so does the stored run.
func TestFallbackReasonCarriesTheServersMessage(t *testing.T) {
	srv := llmtest.NewFamily(t, llmtest.OpenAI(llmtest.OpenAIOptions{APIKey: "sk-right"}))
	rt, err := llm.NewOpenAI(llm.OpenAIConfig{BaseURL: srv.URL(), APIKey: "sk-wrong-household-key", Model: "fake"})
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, fixtureOpts{model: rt})
	seedMaya(f)
	r := f.run("maya")
	stored, err := f.orch.Runs().Get(f.ctx, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, reason := range []string{r.FallbackReason, stored.FallbackReason} {
		if !strings.Contains(reason, "model_error: ") || !strings.Contains(reason, "401 Unauthorized: Incorrect API key provided: ****") {
			t.Fatalf("fallback reason %q lacks the server's status and message", reason)
		}
		if strings.Contains(reason, "sk-wrong-household-key") {
			t.Fatalf("fallback reason leaks the key: %q", reason)
		}
	}
	if r.Status != agent.StatusFellBack {
		t.Fatalf("status %s", r.Status)
	}
}
