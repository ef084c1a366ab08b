package app_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"hearth/internal/agent"
	"hearth/internal/agent/definition"
	"hearth/internal/agent/llm/llmtest"
	"hearth/internal/app"
	"hearth/internal/schedule"
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
	for deadline := time.Now().Add(20 * time.Second); task.RunCount == 0 || task.Running; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the scheduled run did not finish")
		}
		if task, err = a.Schedule.Get(ctx, task.ID); err != nil {
			t.Fatal(err)
		}
	}
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
