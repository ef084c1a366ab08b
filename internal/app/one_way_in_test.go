package app_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"hearth/internal/agent"
	"hearth/internal/agent/definition"
	"hearth/internal/agent/llm/llmtest"
	"hearth/internal/app"
)

// pathTrace is what one run of the admin-made agent did, as the test
// compares it across the ways in.
type pathTrace struct {
	Status     agent.Status
	Offered    []string // the tools offered in the agent's own model requests
	Corrected  bool     // a reply broke the rule and was sent back
	SubAgent   bool     // the sub-agent was asked and its answer composed
	HookNote   bool     // the after hook wrote a coaching note for the run
	ToolCalled []string
	StepAgents []string
}

// TestAdminMadeAgentIsTheSameOnEveryPath (issue 33): an agent made in admin
// with a tool, a rule, a sub-agent and an after hook behaves the same
// through the agents API, a scheduled task and a chat thread: the same
// tools offered, the rule's failure sent back and corrected, the sub-agent
// called and composed, the hook fired. Before, a chat thread ran a
// projection of it that kept the prompt and tools and dropped the rule,
// the sub-agent and the hook.
func TestAdminMadeAgentIsTheSameOnEveryPath(t *testing.T) {
	checker := definition.Definition{AgentID: "checker", SystemPrompt: "You check in with {{user.name}}.",
		ToolIDs: []string{"get_weight_trend"}, MaxIterations: 3, MaxRetries: 1,
		OutputSchema: map[string]any{"type": "object", "required": []any{"summary", "ok"},
			"properties": map[string]any{"summary": map[string]any{"type": "string"}, "ok": map[string]any{"type": "boolean"}}},
		ValidationRules: []definition.Rule{{Path: "ok", Op: definition.OpEquals, Value: json.RawMessage("true"), Message: "must be ok"}},
		SubAgents:       []definition.SubAgent{{Key: "tip", AgentID: "tipper"}},
		Hooks:           definition.Hooks{After: []definition.HookRef{{Hook: definition.HookLogNote, Source: "summary"}}}}
	tipper := definition.Definition{AgentID: "tipper", SystemPrompt: "You give one tip.", MaxIterations: 1}

	var mu sync.Mutex
	var offered [][]string
	tips := 0
	srv := llmtest.New(t)
	srv.Otherwise(func(r llmtest.Request) llmtest.Reply {
		mu.Lock()
		defer mu.Unlock()
		msgs := r.Messages()
		if strings.HasPrefix(msgs[0].Content, "You give one tip.") {
			tips++
			return llmtest.Text("Drink water.", 3, 3)
		}
		offered = append(offered, r.ToolNames())
		for _, m := range msgs {
			if strings.Contains(m.Content, "must be ok") {
				return llmtest.Text(`{"summary": "Ada is steady", "ok": true}`, 5, 5)
			}
		}
		if r.LastMessage().Role == "tool" {
			return llmtest.Text(`{"summary": "Ada is steady", "ok": false}`, 5, 5)
		}
		return llmtest.Tool("get_weight_trend", map[string]any{})
	})
	dir := t.TempDir()
	run := startApp(t, app.Config{Addr: "127.0.0.1:0", DataDir: dir, DBPath: filepath.Join(dir, "hearth.db"), Location: time.UTC,
		KioskIdle: 10 * time.Minute, OpenAIBaseURL: srv.URL(), OpenAIKey: "k", Model: "fake"})
	seed(t, run.app)
	ctx := context.Background()
	for _, d := range []definition.Definition{tipper, checker} {
		if _, err := run.app.Definitions.Save(ctx, d, "admin", ""); err != nil {
			t.Fatal(err)
		}
	}

	trace := func(path string, runID int64) pathTrace {
		t.Helper()
		r, err := run.app.Agents.Runs().Get(ctx, runID)
		if err != nil {
			t.Fatalf("%s: run %d: %v", path, runID, err)
		}
		mu.Lock()
		tr := pathTrace{Status: r.Status, SubAgent: tips == 1 && strings.Contains(string(r.Output), "Drink water.")}
		for _, names := range offered {
			for _, n := range names {
				if !slices.Contains(tr.Offered, n) {
					tr.Offered = append(tr.Offered, n)
				}
			}
		}
		offered, tips = nil, 0
		mu.Unlock()
		for _, ae := range r.ValidationErrors {
			for _, e := range ae.Errors {
				tr.Corrected = tr.Corrected || e.Message == "must be ok"
			}
		}
		for _, c := range r.ToolCalls {
			tr.ToolCalled = append(tr.ToolCalled, c.Name)
		}
		var steps []definition.Step
		if err := json.Unmarshal(r.Steps, &steps); err != nil {
			t.Fatalf("%s: steps %s: %v", path, r.Steps, err)
		}
		for _, s := range steps {
			tr.StepAgents = append(tr.StepAgents, s.AgentID)
		}
		var n int
		if err := run.app.DB.Read.QueryRowContext(ctx, `SELECT count(*) FROM coaching_notes WHERE run_id = ? AND note = 'Ada is steady'`,
			runID).Scan(&n); err != nil {
			t.Fatal(err)
		}
		tr.HookNote = n == 1
		return tr
	}
	want := pathTrace{Status: agent.StatusSucceeded, Offered: []string{"get_weight_trend"}, Corrected: true, SubAgent: true,
		HookNote: true, ToolCalled: []string{"get_weight_trend"}, StepAgents: []string{"checker", "tipper"}}
	check := func(path string, got pathTrace) {
		t.Helper()
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		if string(g) != string(w) {
			t.Errorf("%s:\n got %s\nwant %s", path, g, w)
		}
	}

	code, r := apiRun(t, run.url, "checker")
	if code != 200 {
		t.Fatalf("API: %d", code)
	}
	check("the agents API", trace("API", r.ID))

	task := scheduledRun(t, run.app, "checker")
	check("a scheduled task", trace("schedule", task.LastRunID))

	code, answer := chatTurn(t, run.url, "checker", "How am I doing?")
	if code != 200 || !strings.Contains(answer, "Drink water.") || !strings.Contains(answer, "Ada is steady") {
		t.Fatalf("chat: %d %q", code, answer)
	}
	ts, err := run.app.Agents.Threads().Threads(ctx, "checker", "ada", 10)
	if err != nil || len(ts) != 1 {
		t.Fatalf("threads = %v, %v", ts, err)
	}
	msgs, err := run.app.Agents.Threads().Messages(ctx, ts[0].ID, 0, 50)
	if err != nil {
		t.Fatal(err)
	}
	var chatRun int64
	var chip bool
	for _, m := range msgs {
		if m.Type == agent.MessageText && m.Role == agent.RoleAssistant && m.RunID != nil {
			chatRun = *m.RunID
		}
		chip = chip || (m.Type == agent.MessageToolCall && m.ToolName == "get_weight_trend")
	}
	if !chip {
		t.Errorf("the thread keeps no call of get_weight_trend: %+v", msgs)
	}
	check("a chat thread", trace("chat", chatRun))
}
