package app_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"hearth/internal/agent"
	"hearth/internal/agent/llm/llmtest"
	"hearth/internal/app"
	"hearth/internal/coach"
)

// The household's run budget (config) reaches the coach's daily run: its
// first request (~3,900 tokens, see TestDailyRunOffersItsModelToolsOnly)
// does not fit 3,000 prompt tokens, so nothing is sent and the built-in
// coach answers with reason budget.
func TestHouseholdRunBudgetStopsTheDailyRun(t *testing.T) {
	model := llmtest.New(t)
	model.Otherwise(smallModel)
	dir := t.TempDir()
	srv := startApp(t, app.Config{Addr: "127.0.0.1:0", DataDir: dir, DBPath: filepath.Join(dir, "hearth.db"),
		Location: time.UTC, Demo: true, KioskIdle: 10 * time.Minute, CatchUp: 12 * time.Hour, Prices: app.DefaultPrices,
		OpenAIBaseURL: model.URL(), Model: "small-model", RunBudget: agent.RunBudget{PromptTokens: 3000}})
	run, err := srv.app.Agents.Run(context.Background(), agent.Request{Agent: coach.AgentID, Assignment: coach.DailyDashboardID,
		Member: "maya", Trigger: agent.TriggerManual})
	if err != nil {
		t.Fatal(err)
	}
	if run.Status != agent.StatusFellBack || run.FallbackReason != agent.FallbackBudget || run.TokensIn != 0 {
		t.Fatalf("run = %s %q tokens %d", run.Status, run.FallbackReason, run.TokensIn)
	}
	if n := len(model.ChatRequests()); n != 0 {
		t.Fatalf("%d requests sent over the budget", n)
	}
}
