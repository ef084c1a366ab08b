package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"hearth/internal/agent"
	"hearth/internal/agent/definition"
	"hearth/internal/agent/llm/llmtest"
	"hearth/internal/app"
	"hearth/internal/schedule"
	"hearth/internal/testkit"
)

// greeterDef is an agent made in admin: a definition, no code.
var greeterDef = definition.Definition{AgentID: "greeter", SystemPrompt: "You greet the member by name.",
	UserTemplate: "{{message}} (the member is {{user.name}})", MaxIterations: 1}

func apiRun(t *testing.T, base, agentID string) (int, agent.Run) {
	t.Helper()
	resp, err := http.Post(base+"/api/agents/"+agentID+"/run", "application/json",
		strings.NewReader(`{"member": "ada", "message": "Say hello"}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var run agent.Run
	if resp.StatusCode == http.StatusOK {
		if err := json.Unmarshal(b, &run); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
	}
	return resp.StatusCode, run
}

func listed(t *testing.T, base, agentID string) bool {
	t.Helper()
	resp, err := http.Get(base + "/api/agents")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body struct{ Agents []agent.AgentInfo }
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		t.Fatal(err)
	}
	for _, a := range body.Agents {
		if a.ID == agentID {
			return true
		}
	}
	return false
}

// scheduledRun creates a freeform task for the agent, runs it now and
// returns the finished task.
func scheduledRun(t *testing.T, a *app.App, agentID string) schedule.Task {
	t.Helper()
	ctx := context.Background()
	task, err := a.Schedule.Create(ctx, schedule.TaskInput{Description: "Greet Ada", Kind: schedule.KindRecurring, Schedule: "0 9 * * *",
		AgentID: agentID, MemberID: "ada", Prompt: "Say good morning"}, schedule.ByUser)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Schedule.RunNow(ctx, task.ID); err != nil {
		t.Fatal(err)
	}
	testkit.WaitFor(t, testkit.Patience, "the scheduled run to finish", func() bool {
		if task, err = a.Schedule.Get(ctx, task.ID); err != nil {
			t.Fatal(err)
		}
		return task.RunCount > 0 && !task.Running
	})
	return task
}

// TestAdminMadeAgentRunsViaAPIAndSchedule: an agent made in admin is listed
// in /api/agents, answers POST /api/agents/:agent/run and runs as the
// target of a scheduled task (with a model: the scripted server).
func TestAdminMadeAgentRunsViaAPIAndSchedule(t *testing.T) {
	srv := llmtest.New(t)
	srv.Otherwise(func(r llmtest.Request) llmtest.Reply { return llmtest.Text("Hello, "+r.LastMessage().Content, 5, 5) })
	dir := t.TempDir()
	run := startApp(t, app.Config{Addr: "127.0.0.1:0", DataDir: dir, DBPath: filepath.Join(dir, "hearth.db"), Location: time.UTC,
		KioskIdle: 10 * time.Minute, OpenAIBaseURL: srv.URL(), OpenAIKey: "k", Model: "fake"})
	seed(t, run.app)
	ctx := context.Background()
	if code, _ := apiRun(t, run.url, "greeter"); code != http.StatusNotFound {
		t.Fatalf("before it exists: %d", code)
	}
	if _, err := run.app.Definitions.Save(ctx, greeterDef, "admin", ""); err != nil {
		t.Fatal(err)
	}
	if !listed(t, run.url, "greeter") {
		t.Fatal("/api/agents does not list the agent made in admin")
	}
	code, r := apiRun(t, run.url, "greeter")
	if code != http.StatusOK || r.Status != agent.StatusSucceeded || !strings.Contains(string(r.Output), "Hello, Say hello (the member is Ada") {
		t.Fatalf("API run: %d %s %s", code, r.Status, r.Output)
	}
	task := scheduledRun(t, run.app, "greeter")
	sr, err := run.app.Agents.Runs().Get(ctx, task.LastRunID)
	if err != nil || task.LastOutcome != schedule.OutcomeRan || sr.Agent != "greeter" || sr.Status != agent.StatusSucceeded ||
		!strings.Contains(string(sr.Output), "Say good morning") || sr.Origin != schedule.TaskOrigin(task.ID) {
		t.Fatalf("scheduled run: task %s %q, run %+v, %v", task.LastOutcome, task.LastNote, sr, err)
	}
}

// TestAdminMadeAgentWithoutAModelSaysSo: with the heuristic runtime the
// agent made in admin answers with a recorded "needs a model" run, through
// the API and a schedule, never an error.
func TestAdminMadeAgentWithoutAModelSaysSo(t *testing.T) {
	run := seededApp(t)
	if _, err := run.app.Definitions.Save(context.Background(), greeterDef, "admin", ""); err != nil {
		t.Fatal(err)
	}
	code, r := apiRun(t, run.url, "greeter")
	if code != http.StatusOK || r.Status != agent.StatusFellBack || r.FallbackReason != definition.FallbackNeedsModel ||
		!strings.Contains(string(r.Output), "no language model is configured") {
		t.Fatalf("API run without a model: %d %s %q %s", code, r.Status, r.FallbackReason, r.Output)
	}
	task := scheduledRun(t, run.app, "greeter")
	if task.LastOutcome != schedule.OutcomeRan || !strings.Contains(task.LastNote, "needs a model") || task.LastRunID == 0 {
		t.Fatalf("scheduled run without a model: %s %q run %d", task.LastOutcome, task.LastNote, task.LastRunID)
	}
}

// chatTurn starts a thread with the agent for ada and sends one message
// through the API; it returns the answer's text (or the error body).
func chatTurn(t *testing.T, base, agentID, msg string) (int, string) {
	t.Helper()
	return chatTurnAs(t, base, agentID, "ada", msg)
}

// chatTurnAs is chatTurn for member.
func chatTurnAs(t *testing.T, base, agentID, member, msg string) (int, string) {
	t.Helper()
	resp, err := http.Post(base+"/api/agents/"+agentID+"/threads", "application/json", strings.NewReader(`{"member": "`+member+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	var th agent.Thread
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		return resp.StatusCode, string(b)
	}
	if err := json.Unmarshal(b, &th); err != nil {
		t.Fatal(err)
	}
	body, _ := json.Marshal(map[string]string{"content": msg})
	resp, err = http.Post(base+"/api/threads/"+strconv.FormatInt(th.ID, 10)+"/messages", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ = io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return resp.StatusCode, string(b)
	}
	var out struct {
		Message agent.ThreadMessage `json:"message"`
	}
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return resp.StatusCode, out.Message.Content
}

// TestAdminMadeAgentCanBeChattedWith: an agent made in admin answers in a
// conversation as its definition says: its system prompt with the member
// filled in, only its own tools (a call is stored in the thread), and
// without a model it says plainly that it needs one. Before, the threads
// API answered "unknown agent".
func TestAdminMadeAgentCanBeChattedWith(t *testing.T) {
	def := definition.Definition{AgentID: "weigher", SystemPrompt: "You talk about {{user.name}}'s weight.",
		ToolIDs: []string{"get_weight_trend"}, MaxIterations: 3}
	srv := llmtest.New(t)
	var offered [][]string
	var system string
	srv.Otherwise(func(r llmtest.Request) llmtest.Reply {
		offered = append(offered, r.ToolNames())
		system = r.Messages()[0].Content
		if last := r.LastMessage(); last.Role == "tool" {
			return llmtest.Text("Your trend is in: "+last.Content[:min(len(last.Content), 40)], 5, 5)
		}
		return llmtest.Tool("get_weight_trend", map[string]any{})
	})
	dir := t.TempDir()
	run := startApp(t, app.Config{Addr: "127.0.0.1:0", DataDir: dir, DBPath: filepath.Join(dir, "hearth.db"), Location: time.UTC,
		KioskIdle: 10 * time.Minute, OpenAIBaseURL: srv.URL(), OpenAIKey: "k", Model: "fake"})
	seed(t, run.app)
	if _, err := run.app.Definitions.Save(context.Background(), def, "admin", ""); err != nil {
		t.Fatal(err)
	}
	code, answer := chatTurn(t, run.url, "weigher", "How am I doing?")
	if code != http.StatusOK || !strings.HasPrefix(answer, "Your trend is in: ") {
		t.Fatalf("chat with the agent made in admin: %d %q", code, answer)
	}
	if !strings.HasPrefix(system, "You talk about Ada's weight.") {
		t.Errorf("system prompt = %.120q, want the placeholder filled for the member", system)
	}
	for _, names := range offered {
		if len(names) != 1 || names[0] != "get_weight_trend" {
			t.Errorf("tools offered = %v, want only the definition's get_weight_trend", names)
		}
	}
	ts, err := run.app.Agents.Threads().Threads(context.Background(), "weigher", "ada", 10)
	if err != nil || len(ts) != 1 {
		t.Fatalf("threads = %v, %v", ts, err)
	}
	msgs, err := run.app.Agents.Threads().Messages(context.Background(), ts[0].ID, 0, 50)
	if err != nil {
		t.Fatal(err)
	}
	var called bool
	for _, m := range msgs {
		called = called || (m.Type == agent.MessageToolCall && m.ToolName == "get_weight_trend")
	}
	if !called {
		t.Errorf("the thread has no stored call of get_weight_trend: %+v", msgs)
	}

	bare := seededApp(t)
	if _, err := bare.app.Definitions.Save(context.Background(), def, "admin", ""); err != nil {
		t.Fatal(err)
	}
	code, answer = chatTurn(t, bare.url, "weigher", "How am I doing?")
	if code != http.StatusOK || answer != definition.NeedsModelReply {
		t.Fatalf("chat without a model: %d %q", code, answer)
	}
}
