package coach

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"hearth/internal/agent"
	"hearth/internal/agent/llm"
	"hearth/internal/agent/llm/llmtest"
	"hearth/internal/agent/llm/tokens"
)

// sizeBrain is the scripted model of the prompt-size measurements: on a
// daily run offered the read tools it looks the weight trend up once (the
// tool round the issue counts), then writes the plan; in a chat it
// answers at once.
func sizeBrain(plan string) func(llmtest.Request) llmtest.Reply {
	return func(r llmtest.Request) llmtest.Reply {
		switch {
		case !r.Contains("# Today's dashboard for"):
			return llmtest.Text("Keep going: core day today.", 0, 0)
		case slices.Contains(r.ToolNames(), "get_weight_trend") && !r.HasToolResults():
			return llmtest.Tool("get_weight_trend", map[string]any{})
		}
		return llmtest.Text(plan, 0, 0)
	}
}

// renderedPrompt is a request in the order a chat template lays it out
// for the server's KV cache: the system message, then the tool
// definitions (Qwen 2.5's and Hermes-style templates write them into the
// system turn, before the conversation), then the response schema, then
// the other messages. Its byte-identical prefix across requests is what a
// llama.cpp or Ollama slot can reuse.
func renderedPrompt(r llmtest.Request) string {
	var b strings.Builder
	msgs := r.Messages()
	if len(msgs) > 0 && msgs[0].Role == "system" {
		b.WriteString("system: " + msgs[0].Content + "\n")
		msgs = msgs[1:]
	}
	if t, ok := r.Body["tools"]; ok {
		j, _ := json.Marshal(t)
		b.WriteString("tools: " + string(j) + "\n")
	}
	if s := r.Schema(); s != nil {
		j, _ := json.Marshal(s)
		b.WriteString("schema: " + string(j) + "\n")
	}
	for _, m := range msgs {
		b.WriteString(m.Role + ": " + m.Content + "\n")
		for _, c := range m.ToolCalls {
			b.WriteString("call " + c.Name + c.Arguments + "\n")
		}
	}
	return b.String()
}

// sharedPrefix is the byte-identical start of a and b.
func sharedPrefix(a, b string) string {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return a[:n]
}

// promptFigures are one comparison's figures in tokens.
type promptFigures struct{ shared, afterA, afterB int }

func comparePrompts(a, b llmtest.Request) promptFigures {
	ra, rb := renderedPrompt(a), renderedPrompt(b)
	p := sharedPrefix(ra, rb)
	return promptFigures{shared: tokens.Count(p), afterA: tokens.Count(ra[len(p):]), afterB: tokens.Count(rb[len(p):])}
}

// promptSizes runs the daily dashboard for Maya and Rhea, Maya's again
// the next day, and a kiosk chat turn, against the scripted server, and
// returns each run's requests with the runs.
type sizeRuns struct {
	maya, rhea, mayaNext, chat agent.Run
	reqs                       map[string][]llmtest.Request
}

func measurePrompts(t *testing.T, fam llmtest.Family) sizeRuns {
	t.Helper()
	srv := llmtest.NewFamily(t, fam)
	b, err := json.Marshal(modelDoc("local:ember-core-04", "Hollow Body Basics", 16, "Strong week so far. Today is core day: Hollow Body Basics."))
	if err != nil {
		t.Fatal(err)
	}
	srv.Otherwise(sizeBrain(string(b)))
	rt, err := llm.NewOpenAI(llm.OpenAIConfig{BaseURL: srv.URL(), APIKey: "test", Model: "fake", RequestTimeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, fixtureOpts{model: rt})
	for _, h := range households {
		if h.id == "maya" || h.id == "rhea" {
			h.seed(f, h.id)
		}
	}
	out := sizeRuns{reqs: map[string][]llmtest.Request{}}
	seen := 0
	take := func(name string) {
		all := srv.ChatRequests()
		out.reqs[name] = all[seen:]
		seen = len(all)
	}
	out.maya = f.run("maya")
	take("maya")
	out.rhea = f.run("rhea")
	take("rhea")
	f.clk.Advance(24 * time.Hour)
	out.mayaNext = f.run("maya")
	take("mayaNext")
	r, err := f.orch.Run(f.ctx, agent.Request{Agent: AgentID, Member: "maya", Message: "How am I doing this week?",
		Chat: true, FromMember: true, Surface: agent.SurfaceKiosk})
	if err != nil {
		t.Fatal(err)
	}
	out.chat = r
	take("chat")
	return out
}

func partsLine(p agent.PromptTokens) string {
	return fmt.Sprintf("total %5d = system %4d + tools %5d (%2d) + schema %4d + facts %4d + memory %3d + history %4d",
		p.Total(), p.System, p.Tools, p.ToolCount, p.Schema, p.Facts, p.Memory, p.History)
}

// TestPromptSizes prints the prompt figures BENCHMARKS.md records (run
// with -v): per run, each request by part and the total, and the shared
// prefix of two members' and two days' first requests.
func TestPromptSizes(t *testing.T) {
	for _, fam := range []llmtest.Family{{Name: "permissive"}, llmtest.LlamaCpp(llmtest.LlamaCppOptions{}),
		llmtest.Ollama(llmtest.OllamaOptions{})} {
		t.Run(fam.Name, func(t *testing.T) { logPromptSizes(t, measurePrompts(t, fam)) })
	}
}

func logPromptSizes(t *testing.T, m sizeRuns) {
	for _, c := range []struct {
		name string
		r    agent.Run
	}{{"daily maya", m.maya}, {"daily rhea", m.rhea}, {"daily maya next day", m.mayaNext}, {"kiosk chat", m.chat}} {
		t.Logf("%s: run %s, %d requests, server usage %d in", c.name, c.r.Status, len(c.r.PromptTokens), c.r.TokensIn)
		for i, p := range c.r.PromptTokens {
			t.Logf("  request %d: %s", i+1, partsLine(p))
		}
		t.Logf("  run:       %s", partsLine(agent.SumPromptTokens(c.r.PromptTokens)))
	}
	for _, c := range []struct {
		name string
		a, b llmtest.Request
	}{
		{"maya vs rhea, first request", m.reqs["maya"][0], m.reqs["rhea"][0]},
		{"maya today vs tomorrow, first request", m.reqs["maya"][0], m.reqs["mayaNext"][0]},
	} {
		f := comparePrompts(c.a, c.b)
		t.Logf("%s: shared prefix %d tokens; after it %d and %d tokens", c.name, f.shared, f.afterA, f.afterB)
	}
}

// Issue 36's targets, measured with the offline tokenizer.
const (
	dailyTarget = 4000 // prompt tokens per member per daily run, all requests
	chatTarget  = 2000 // a chat turn's prompt before the conversation
	diffTarget  = 1500 // what differs after the shared prefix: two members, or two days of one
)

// TestPromptTargets sends two members' daily runs and two days of one
// member's, and a kiosk chat turn, to the scripted server as each local
// server family takes them, and holds the prompts to the targets: the
// system prompt, tool definitions and schema are a byte-identical prefix
// of every daily request, and what follows it is small.
func TestPromptTargets(t *testing.T) {
	for _, fam := range []llmtest.Family{{Name: "permissive"}, llmtest.LlamaCpp(llmtest.LlamaCppOptions{}),
		llmtest.Ollama(llmtest.OllamaOptions{})} {
		t.Run(fam.Name, func(t *testing.T) {
			m := measurePrompts(t, fam)
			for name, r := range map[string]agent.Run{"maya": m.maya, "rhea": m.rhea, "maya next day": m.mayaNext} {
				if r.Status != agent.StatusSucceeded || len(r.PromptTokens) == 0 {
					t.Fatalf("%s: run %s (%s), %d prompts", name, r.Status, r.FallbackReason, len(r.PromptTokens))
				}
				if n := agent.SumPromptTokens(r.PromptTokens).Total(); n > dailyTarget {
					t.Errorf("%s: the daily run sent %d prompt tokens, target %d", name, n, dailyTarget)
				}
			}
			chat := agent.SumPromptTokens(m.chat.PromptTokens)
			if n := chat.Total() - chat.History; n > chatTarget || chat.ToolCount == 0 {
				t.Errorf("kiosk chat: %d prompt tokens before the conversation (%d tools), target %d", n, chat.ToolCount, chatTarget)
			}
			for _, c := range []struct {
				name  string
				a, b  llmtest.Request
				limit int
			}{
				{"maya vs rhea", m.reqs["maya"][0], m.reqs["rhea"][0], diffTarget},
				{"maya today vs tomorrow", m.reqs["maya"][0], m.reqs["mayaNext"][0], diffTarget},
			} {
				ra := renderedPrompt(c.a)
				shared := sharedPrefix(ra, renderedPrompt(c.b))
				if fixed := fixedPart(ra); !strings.HasPrefix(shared, fixed) {
					t.Errorf("%s: the shared prefix (%d bytes) stops inside the system prompt, tools and schema (%d bytes)",
						c.name, len(shared), len(fixed))
				}
				if f := comparePrompts(c.a, c.b); f.afterA > c.limit || f.afterB > c.limit {
					t.Errorf("%s: %d and %d tokens differ after the shared prefix of %d, want ≤ %d",
						c.name, f.afterA, f.afterB, f.shared, c.limit)
				}
			}
		})
	}
}

// fixedPart is a rendered request up to its first user message: the
// system prompt, the tool definitions and the schema.
func fixedPart(rendered string) string {
	i := strings.Index(rendered, "\nuser: ")
	if i < 0 {
		return rendered
	}
	return rendered[:i+1]
}
