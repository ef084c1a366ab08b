package app

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"hearth/internal/agent"
	"hearth/internal/agent/llm/llmtest"
	"hearth/internal/coach"
	"hearth/internal/schedule"
)

// modelApp is a demo app whose model is the scripted fake server, with the
// scheduler started (tasks are armed).
func modelApp(t *testing.T) (*App, *llmtest.Server) {
	t.Helper()
	ctx := context.Background()
	srv := llmtest.New(t)
	cfg := testConfig(t)
	cfg.OpenAIBaseURL, cfg.OpenAIKey, cfg.Model = srv.URL(), "test-key", "fake"
	a, err := New(ctx, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = a.Close() })
	if err := a.Schedule.Start(ctx); err != nil {
		t.Fatal(err)
	}
	return a, srv
}

// minimalDoc is a dashboard document that passes the schema and the coach's
// domain checks whatever the member's data (no content, no numbers).
func minimalDoc() map[string]any {
	return map[string]any{
		"generated_at": time.Now().UTC().Format(time.RFC3339),
		"curated":      map[string]any{"up_next": map[string]any{"primary": nil, "alternates": []any{}}, "playlist_suggestion": []any{}},
		"coach":        map[string]any{"briefing": "Good morning, keep going.", "cta": []any{}, "prompts": []any{}, "feedback": []any{}},
	}
}

func dailyRun(t *testing.T, a *App, member string) agent.Run {
	t.Helper()
	r, err := a.Agents.Run(context.Background(), agent.Request{Agent: coach.AgentID,
		Assignment: coach.DailyDashboardID, Member: member, Trigger: agent.TriggerManual})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func agentTasks(t *testing.T, a *App, member string) []schedule.Task {
	t.Helper()
	tasks, err := a.Schedule.List(context.Background(), schedule.TaskFilter{CreatedBy: schedule.ByAgent, MemberID: member})
	if err != nil {
		t.Fatal(err)
	}
	return tasks
}

// offerInDailyRun adds tools to the coach's definition, as an admin
// would on Admin → Agents: the seed offers the daily run's model only its
// memory and notes (coach.DailyToolIDs).
func offerInDailyRun(t *testing.T, a *App, tools ...string) {
	t.Helper()
	ctx := context.Background()
	cur, err := a.Definitions.Active(ctx, coach.AgentID)
	if err != nil {
		t.Fatal(err)
	}
	d := cur.Definition
	d.ToolIDs = append(slices.Clone(d.ToolIDs), tools...)
	if _, err := a.Definitions.Save(ctx, d, "admin", "offer "+strings.Join(tools, ", ")); err != nil {
		t.Fatal(err)
	}
}

func memoryValue(t *testing.T, a *App, member, key string) (string, bool) {
	t.Helper()
	es, err := a.Agents.Memory().Entries(context.Background(), coach.AgentID, member)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		if e.Key == key {
			return e.Value, true
		}
	}
	return "", false
}

// A model that schedules a follow-up and remembers something, then fails
// validation three times, leaves nothing behind: the run fell back to the
// heuristic coach, and the model's staged writes were never applied. (On
// the old engine each attempt wrote at once: seven such runs filled the
// member's 20-task allowance with duplicates.)
func TestFellBackRunAppliesNoModelWrites(t *testing.T) {
	a, srv := modelApp(t)
	offerInDailyRun(t, a, "schedule_action")
	when := time.Now().Add(3 * time.Hour).UTC().Format(time.RFC3339)
	srv.Otherwise(func(llmtest.Request) llmtest.Reply { return llmtest.Text("not a dashboard", 10, 5) })
	srv.Push(
		llmtest.Tool("schedule_action", map[string]any{"description": "Ask how the knee feels", "type": "once", "schedule": when, "prompt": "Ask about the knee"}),
		llmtest.Tool("remember", map[string]any{"key": "context:knee", "value": "sore left knee", "ttl_hours": 0}),
	)
	r := dailyRun(t, a, "maya")
	if r.Status != agent.StatusFellBack {
		t.Fatalf("run status %s (%s), want fell_back", r.Status, r.Error)
	}
	if len(r.ToolCalls) < 2 {
		t.Fatalf("the model's tool calls were not recorded: %+v", r.ToolCalls)
	}
	if len(r.Effects) != 2 || r.Effects[0].Outcome != agent.EffectDiscarded || r.Effects[1].Outcome != agent.EffectDiscarded {
		t.Fatalf("effects = %+v, want both staged writes recorded as discarded", r.Effects)
	}
	if tasks := agentTasks(t, a, "maya"); len(tasks) != 0 {
		t.Fatalf("a fell-back run left %d scheduled tasks: %+v", len(tasks), tasks)
	}
	if v, ok := memoryValue(t, a, "maya", "context:knee"); ok {
		t.Fatalf("a fell-back run left the model's memory write %q", v)
	}
	// The heuristic's own document is in place.
	if _, err := a.Dashboards.Get(context.Background(), "maya", a.Dashboards.Day(time.Now())); err != nil {
		t.Fatalf("no document after the fallback: %v", err)
	}
}

// When the output is finally accepted, the writes the model staged are
// applied in the act transaction, once each: the same schedule_action sent
// in two attempts makes one task, armed in gocron.
func TestAcceptedRunAppliesStagedWritesOnce(t *testing.T) {
	a, srv := modelApp(t)
	offerInDailyRun(t, a, "schedule_action")
	when := time.Now().Add(3 * time.Hour).UTC().Format(time.RFC3339)
	follow := map[string]any{"description": "Ask how the knee feels", "type": "once", "schedule": when, "prompt": "Ask about the knee"}
	srv.Push(
		llmtest.Tool("schedule_action", follow),
		llmtest.Tool("remember", map[string]any{"key": "context:knee", "value": "sore left knee", "ttl_hours": 0}),
		llmtest.Text("not a dashboard", 10, 5),
		llmtest.Tool("schedule_action", follow),
		llmtest.JSON(minimalDoc(), 10, 5),
	)
	r := dailyRun(t, a, "maya")
	if r.Status != agent.StatusSucceeded || r.Attempts != 2 {
		t.Fatalf("run %s after %d attempts (%s), want succeeded after 2", r.Status, r.Attempts, r.Error)
	}
	if len(r.Effects) != 2 || r.Effects[0].Tool != "schedule_action" || r.Effects[1].Tool != "remember" ||
		r.Effects[0].Outcome != agent.EffectApplied || r.Effects[1].Outcome != agent.EffectApplied {
		t.Fatalf("effects = %+v, want schedule_action and remember applied once each", r.Effects)
	}
	tasks := agentTasks(t, a, "maya")
	if len(tasks) != 1 {
		t.Fatalf("tasks = %+v, want the one follow-up", tasks)
	}
	if tasks[0].CreatedByRun != r.ID || tasks[0].Status != schedule.StatusActive {
		t.Fatalf("task = %+v, want active and made by run %d", tasks[0], r.ID)
	}
	if _, ok := a.Schedule.Scheduled(tasks[0].ID); !ok {
		t.Fatalf("task %d is not armed", tasks[0].ID)
	}
	if v, ok := memoryValue(t, a, "maya", "context:knee"); !ok || v != "sore left knee" {
		t.Fatalf("memory context:knee = %q, %v", v, ok)
	}
}
