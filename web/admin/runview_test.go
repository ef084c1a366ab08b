package admin

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"hearth/internal/agent"
	"hearth/views/adminview"
)

func TestRunViewPhasesAndDetail(t *testing.T) {
	s := &core{opt: Options{Location: time.UTC}}
	start := time.Date(2026, 3, 2, 4, 0, 0, 0, time.UTC)
	end := start.Add(1500 * time.Millisecond)
	running := agent.Run{ID: 7, Agent: "coach", Assignment: "daily", Member: "ada", Status: agent.StatusRunning,
		Phase: agent.PhaseReason, StartedAt: &start,
		Timings: []agent.PhaseTiming{{Phase: agent.PhaseLoadMemory, MS: 0.4}, {Phase: agent.PhasePrune, MS: 0.1},
			{Phase: agent.PhaseGather, MS: 12}, {Phase: agent.PhasePrompt, MS: 1}}}
	v := s.runView(running)
	states := map[string]string{}
	for _, p := range v.Phases {
		states[p.Name] = p.State
	}
	if len(v.Phases) != 8 || states["gather"] != "done" || states["reason"] != "current" || states["act"] != "pending" || !v.Active {
		t.Fatalf("phases = %+v", v.Phases)
	}
	if v.Phases[0].Took != "400 µs" || v.Phases[2].Took != "12 ms" {
		t.Fatalf("timings = %q %q", v.Phases[0].Took, v.Phases[2].Took)
	}

	fell := agent.Run{ID: 8, Agent: "coach", Assignment: "daily", Member: "ada", Status: agent.StatusFellBack,
		StartedAt: &start, FinishedAt: &end, Attempts: 3, Model: "gpt-4o-mini", TokensIn: 1200, TokensOut: 300, CostUSD: 0.00036,
		FallbackReason: "model output invalid after 3 attempts", Output: json.RawMessage(`{"briefing":"<b>Hi</b>"}`),
		Prompt:    &agent.Prompt{System: "sys", User: "user text"},
		ToolCalls: []agent.ToolCall{{Name: "get_weight_trend", Args: json.RawMessage(`{"days":7}`), Result: json.RawMessage(`"down 0.4 kg"`)}},
		Effects: []agent.EffectOutcome{{Key: "schedule_action:ab", Tool: "schedule_action", Outcome: agent.EffectDiscarded,
			Reason: "the run's output is not the model's"}},
		ValidationErrors: []agent.AttemptErrors{{Attempt: 1, Source: "model",
			Errors: []agent.ValidationError{{Path: "/coach/briefing", Message: "missing property"}}}},
		Steps: json.RawMessage(`[{"agent_id":"coach","depth":0,"attempts":2,"notes":["hook send_message (after_agent) fired with \"<i>Hi</i>\""],"ms":1},` +
			`{"agent_id":"reviewer","key":"review","depth":1,"attempts":1,"ms":1}]`),
		PromptTokens: []agent.PromptTokens{{System: 311, Tools: 4242, ToolCount: 28, Schema: 655, Facts: 1717, Memory: 23},
			{System: 311, Tools: 4242, ToolCount: 28, Schema: 655, Facts: 1717, Memory: 23, History: 96}}}
	d := s.runDetail(fell)
	if d.Duration != "1.5 s" || d.Cost != "$0.0004" || d.Active {
		t.Fatalf("detail = %+v", d.RunView)
	}
	var b bytes.Buffer
	if err := adminview.RunDetailView(d).Render(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	for _, want := range []string{"Used the heuristic planner instead of the model: model output invalid after 3 attempts",
		"/coach/briefing: missing property", "Attempt 1 (model)", "get_weight_trend", "&#34;days&#34;: 7", "down 0.4 kg",
		"&lt;b&gt;Hi&lt;/b&gt;", "gpt-4o-mini", "1200", "user text", `data-status="fell_back"`,
		"<code>schedule_action</code>: discarded", "the run&#39;s output is not the model&#39;s",
		"Definition pipeline", "<code>reviewer</code>",
		"Counted offline with All requests (o200k_base); the server reported 1200 in", "<td>4242 <small class=\"muted\">(28 tools)</small></td>",
		"<td>6948</td>", "<td>7044</td>", "<th scope=\"row\">All requests (o200k_base)</th>", "<td>13992</td>", "<code>review</code>", "hook send_message (after_agent) fired with &#34;&lt;i&gt;Hi&lt;/i&gt;&#34;"} {
		if !strings.Contains(html, want) {
			t.Errorf("run detail lacks %q", want)
		}
	}
	if strings.Contains(html, "<b>Hi</b>") {
		t.Error("model output rendered as HTML")
	}
}

func TestParseTTL(t *testing.T) {
	for in, want := range map[string]time.Duration{"": 0, "90m": 90 * time.Minute, "1h30m": 90 * time.Minute, "7d": 7 * 24 * time.Hour,
		"2w": 14 * 24 * time.Hour, " 48H ": 48 * time.Hour} {
		if got, err := parseTTL(in); err != nil || got != want {
			t.Errorf("parseTTL(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"soon", "-5m", "0", "0d", "5", "11000d"} {
		if _, err := parseTTL(in); err == nil {
			t.Errorf("parseTTL(%q) accepted", in)
		}
	}
}

func FuzzParseTTL(f *testing.F) {
	for _, s := range []string{"", "90m", "7d", "2w", "1h30m", "-1d", "9999999999999d", "1e9h"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := parseTTL(s)
		if err == nil && (d < 0 || d > 10*365*24*time.Hour) {
			t.Fatalf("parseTTL(%q) = %v", s, d)
		}
	})
}
