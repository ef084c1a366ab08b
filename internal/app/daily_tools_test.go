package app

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"hearth/internal/agent"
	"hearth/internal/agent/llm/llmtest"
	"hearth/internal/coach"
	"hearth/internal/health"
	"hearth/internal/lifeplan"
)

// dailyTools are the tools the assembled app's daily run offers its
// model: the seed's list, lifeplan_propose_evidence only for a member
// with a belief open to evidence.
var (
	dailyTools        = []string{"forget", "lifeplan_propose_evidence", "log_coaching_note", "remember"}
	dailyToolsOffered = []string{"forget", "log_coaching_note", "remember"}
)

// TestDailyRunOffersItsModelToolsOnly: in the assembled app (the coach's
// seeded definition shaping the run) the daily run's model is offered the
// assignment's model tools, as internal/coach's TestPromptTargets
// measures the prompt, not every coach tool. Before, the seed listed all
// 29, and a household's daily request carried ~3,000 tokens of tool
// definitions the package's measurement never saw.
func TestDailyRunOffersItsModelToolsOnly(t *testing.T) {
	a, srv := modelApp(t)
	var offered [][]string
	srv.Otherwise(func(r llmtest.Request) llmtest.Reply {
		offered = append(offered, r.ToolNames())
		return llmtest.JSON(minimalDoc(), 10, 5)
	})
	run := dailyRun(t, a, "maya")
	if run.Status != agent.StatusSucceeded {
		t.Fatalf("run %s (%s %s)", run.Status, run.FallbackReason, run.Error)
	}
	if len(offered) == 0 {
		t.Fatal("the model was not asked")
	}
	if got := slices.Sorted(slices.Values(offered[0])); !slices.Equal(got, dailyToolsOffered) {
		t.Fatalf("the daily run offered %d tools %v, want %v", len(got), got, dailyToolsOffered)
	}
	// The package's target (internal/coach TestPromptTargets), held by
	// the assembled app and the demo household too.
	t.Logf("daily run: %+v", agent.SumPromptTokens(run.PromptTokens))
	if n := agent.SumPromptTokens(run.PromptTokens).Total(); n > 4000 || n == 0 {
		t.Fatalf("the daily run sent %d prompt tokens, target ≤ 4,000", n)
	}
}

// TestCoachSeedUpgradesUneditedDefinitions: a household whose coach
// definition is still the system's old seed (every tool) gets the slim
// tool list in a new version at the next start; one the admin saved keeps
// its tools.
func TestCoachSeedUpgradesUneditedDefinitions(t *testing.T) {
	ctx := context.Background()
	cfg := testConfig(t)
	reopen := func() *App {
		t.Helper()
		a, err := New(ctx, cfg, nil)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	a := reopen()
	cur, err := a.Definitions.Active(ctx, coach.AgentID)
	if err != nil {
		t.Fatal(err)
	}
	if got := slices.Sorted(slices.Values(cur.ToolIDs)); !slices.Equal(got, dailyTools) || cur.Number != 1 {
		t.Fatalf("a new household's seed: version %d tools %v, want 1 %v", cur.Number, got, dailyTools)
	}
	old := cur.Definition
	old.ToolIDs = []string{"get_weight_trend", "get_health_summary", "remember", "forget", "log_coaching_note", "write_dashboard"}
	if _, err := a.Definitions.Save(ctx, old, "system", "seeded from the code defaults"); err != nil {
		t.Fatal(err)
	}
	_ = a.Close()

	a = reopen()
	cur, err = a.Definitions.Active(ctx, coach.AgentID)
	if err != nil {
		t.Fatal(err)
	}
	if got := slices.Sorted(slices.Values(cur.ToolIDs)); !slices.Equal(got, dailyTools) || cur.ChangeNote != coach.SeedUpdateNote {
		t.Fatalf("after the start: version %d (%q) tools %v, want %v", cur.Number, cur.ChangeNote, got, dailyTools)
	}
	mine := cur.Definition
	mine.ToolIDs = []string{"get_health_summary", "remember"}
	if _, err := a.Definitions.Save(ctx, mine, "admin", "my tools"); err != nil {
		t.Fatal(err)
	}
	_ = a.Close()

	a = reopen()
	defer a.Close()
	cur, err = a.Definitions.Active(ctx, coach.AgentID)
	if err != nil || !slices.Equal(cur.ToolIDs, mine.ToolIDs) || cur.CreatedBy != "admin" {
		t.Fatalf("the admin's version after a start: %v by %s tools %v (%v)", cur.Number, cur.CreatedBy, cur.ToolIDs, err)
	}
}

// lifeGoalFor links a new fitness goal of member's to a life-plan goal
// with the open belief "if I train in the morning then I sleep better",
// and returns the belief.
func lifeGoalFor(t *testing.T, a *App, member string) lifeplan.Belief {
	t.Helper()
	ctx := context.Background()
	fit, err := a.DB.AddGoal(ctx, health.Goal{MemberID: member, Kind: "custom", Description: "Run a 10k"})
	if err != nil {
		t.Fatal(err)
	}
	life, err := a.LifePlan.AddGoal(ctx, member, lifeplan.GoalInput{Name: "Hike with my kids"}, "member")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.LifePlan.LinkFitnessGoal(ctx, member, life.ID, fit.ID); err != nil {
		t.Fatal(err)
	}
	b, err := a.LifePlan.AddBelief(ctx, member, lifeplan.BeliefInput{If: "I train in the morning", Then: "I sleep better"})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestDailyRunReadsTheLifePlan: the daily prompt says which life goal a
// fitness goal serves and lists the open belief; the model's proposed
// evidence is a suggestion on Maya's belief (the member decides), and a
// proposal naming Theo's belief reaches nothing. Without a model the
// briefing names the life goal.
func TestDailyRunReadsTheLifePlan(t *testing.T) {
	ctx := context.Background()
	a, srv := modelApp(t)
	mine := lifeGoalFor(t, a, "maya")
	theirs := lifeGoalFor(t, a, "theo")
	var prompt string
	var offered []string
	srv.Otherwise(func(r llmtest.Request) llmtest.Reply {
		if !r.HasToolResults() {
			prompt, offered = r.LastMessage().Content, r.ToolNames()
			return llmtest.Reply{ToolCalls: []llmtest.Call{
				{Name: "lifeplan_propose_evidence", Arguments: fmt.Sprintf(`{"belief_id": %d, "text": "On your 3 morning sessions you logged 40 more minutes of sleep."}`, mine.ID)},
				{Name: "lifeplan_propose_evidence", Arguments: fmt.Sprintf(`{"belief_id": %d, "text": "Theo's, guessed"}`, theirs.ID)}}}
		}
		return llmtest.JSON(minimalDoc(), 10, 5)
	})
	if run := dailyRun(t, a, "maya"); run.Status != agent.StatusSucceeded {
		t.Fatalf("run %s (%s %s)", run.Status, run.FallbackReason, run.Error)
	}
	if got := slices.Sorted(slices.Values(offered)); !slices.Equal(got, dailyTools) {
		t.Errorf("with an open belief the daily run offered %v, want %v", got, dailyTools)
	}
	for _, want := range []string{`Life plan: "Run a 10k" serves their life goal "Hike with my kids"`,
		`(hypothesized): if "I train in the morning" then "I sleep better"`} {
		if !strings.Contains(prompt, want) {
			t.Errorf("the daily prompt lacks %q:\n%s", want, prompt)
		}
	}
	bs, err := a.LifePlan.Beliefs(ctx, "maya")
	if err != nil || len(bs) != 1 || len(bs[0].Evidence) != 1 || bs[0].Evidence[0].Status != lifeplan.Suggested ||
		bs[0].Evidence[0].Source != lifeplan.FromData {
		t.Fatalf("maya's beliefs = %+v (%v), want one suggested note from the data", bs, err)
	}
	if bs, _ := a.LifePlan.Beliefs(ctx, "theo"); len(bs) != 1 || len(bs[0].Evidence) != 0 {
		t.Fatalf("theo's beliefs = %+v: a run for maya reached them", bs)
	}
}

// TestHeuristicBriefingNamesTheLifeGoal: without a model, the briefing
// ends with the life goal the member's fitness goal serves.
func TestHeuristicBriefingNamesTheLifeGoal(t *testing.T) {
	ctx := context.Background()
	a, err := New(ctx, testConfig(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	lifeGoalFor(t, a, "maya")
	if run := dailyRun(t, a, "maya"); run.Status != agent.StatusSucceeded {
		t.Fatalf("run %s (%s %s)", run.Status, run.FallbackReason, run.Error)
	}
	st, err := a.Dashboards.Get(ctx, "maya", a.Dashboards.Day(time.Now()))
	if err != nil {
		t.Fatal(err)
	}
	if want := "Your goal “Run a 10k” serves your life goal “Hike with my kids”."; !strings.Contains(st.Document.Coach.Briefing, want) {
		t.Fatalf("briefing %q lacks %q", st.Document.Coach.Briefing, want)
	}
}
