package app_test

import (
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"hearth/internal/agent"
	"hearth/internal/agent/llm/llmtest"
	"hearth/internal/app"
	"hearth/internal/store"
)

// Admin → Model shows the cost in plain figures, worked out by hand from
// known runs: tokens per member per day by part over the last 7 days, the
// monthly projection at the configured price (an unpriced local model
// costs 0), and the median and 95th percentile time per model run. A run
// older than the window must not count.
func TestAdminModelCostFigures(t *testing.T) {
	model := llmtest.New(t)
	dir := t.TempDir()
	srv := startApp(t, app.Config{Addr: "127.0.0.1:0", DataDir: dir, DBPath: filepath.Join(dir, "hearth.db"),
		Location: time.UTC, Demo: true, KioskIdle: 10 * time.Minute, CatchUp: 12 * time.Hour,
		Prices:        agent.Prices{"priced-model": {InputPerMTok: 2, OutputPerMTok: 8}},
		OpenAIBaseURL: model.URL(), Model: "priced-model", RunBudget: agent.RunBudget{PromptTokens: 4000}})
	now := time.Now().UTC()
	for _, r := range []struct {
		member, part, model string
		in, out             int64
		ago                 time.Duration
		took                time.Duration
	}{
		{"maya", "daily-dashboard", "priced-model", 7000, 700, 2 * time.Hour, 10 * time.Second},
		{"maya", "daily-dashboard", "priced-model", 7000, 700, 26 * time.Hour, 20 * time.Second},
		{"maya", "", "priced-model", 3500, 350, 3 * time.Hour, 4 * time.Second},
		{"theo", "", "local-model", 1400, 70, 4 * time.Hour, 30 * time.Second},
		{"theo", "", "priced-model", 100000, 9000, 8 * 24 * time.Hour, time.Hour}, // outside the window
	} {
		created := now.Add(-r.ago)
		if _, err := srv.app.DB.Write.Exec(`INSERT INTO agent_runs (agent_id, assignment_id, member_id, triggered_by, status,
			created_at, started_at, finished_at, model, tokens_in, tokens_out) VALUES ('coach', ?, ?, 'manual', 'succeeded', ?, ?, ?, ?, ?, ?)`,
			r.part, r.member, store.FormatTime(created), store.FormatTime(created), store.FormatTime(created.Add(r.took)),
			r.model, r.in, r.out); err != nil {
			t.Fatal(err)
		}
	}
	resp, err := http.Get(srv.url + "/admin/model")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /admin/model: %d", resp.StatusCode)
	}
	page := regexp.MustCompile(`>\s+<`).ReplaceAllString(string(b), "><")
	// Per day: tokens / 7. Per month: cost / 7 × 30, cost = in × $2/M + out × $8/M.
	// maya daily-dashboard: 14,000 / 1,400 → 2,000 / 200 a day; $0.0392 → $0.168 a month.
	// maya chat: 3,500 / 350 → 500 / 50; $0.0098 → $0.042. theo chat, local model: 200 / 10, $0.
	// Times 4, 10, 20, 30 s: nearest-rank median 10 s, p95 30 s.
	for _, want := range []string{
		"priced-model: $2.00 per million input tokens, $8.00 per million output tokens",
		`<span data-figure="run-budget">4,000 prompt tokens, no cap on completion tokens</span>`,
		`<strong data-figure="monthly">$0.210</strong>`,
		`<strong data-figure="median">10.0 s</strong>`,
		`<strong data-figure="p95">30.0 s</strong>`,
		"(start to finish, 4 runs)",
		"<tr><td>maya</td><td>chat</td><td>1</td><td>500</td><td>50</td><td>$0.042</td></tr>",
		"<tr><td>maya</td><td>daily-dashboard</td><td>2</td><td>2,000</td><td>200</td><td>$0.168</td></tr>",
		"<tr><td>theo</td><td>chat</td><td>1</td><td>200</td><td>10</td><td>$0.00</td></tr>",
	} {
		if !strings.Contains(page, want) {
			i := strings.Index(page, `id="model-usage"`)
			t.Errorf("Admin → Model lacks %q in:\n%.2500s", want, page[max(i, 0):])
		}
	}
}
