package faulttest

import (
	"context"
	"database/sql"
	"hearth/internal/testkit"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"hearth/internal/agent"
	"hearth/internal/agent/llm"
	"hearth/internal/agent/llm/llmtest"
	"hearth/internal/app"
	"hearth/internal/coach"
	"hearth/internal/live"
)

// newApp builds the app in-process over a temp demo database; extra env
// entries configure it like the binary's environment does.
func newApp(t *testing.T, extra map[string]string) (*app.App, string) {
	t.Helper()
	dir := t.TempDir()
	env := map[string]string{"HEARTH_ADDR": "127.0.0.1:0", "HEARTH_DATA": dir, "HEARTH_DEMO": "1", "HEARTH_TZ": "UTC"}
	for k, v := range extra {
		env[k] = v
	}
	cfg, err := app.LoadConfig(nil, func(k string) string { return env[k] }, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	a, err := app.New(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	return a, dir
}

// healthy checks that the server answers /healthz and a member dashboard.
func healthy(t *testing.T, a *app.App, when string) {
	t.Helper()
	for _, p := range []string{"/healthz", "/m/maya", "/api/v1/members"} {
		req := httptest.NewRequest(http.MethodGet, "http://127.0.0.1"+p, nil)
		rec := httptest.NewRecorder()
		start := time.Now()
		a.Echo.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			t.Errorf("%s: GET %s = %d", when, p, rec.Code)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("%s: GET %s took %s", when, p, d)
		}
	}
}

// TestHangingModelKeepsServerHealthy: while the coach's run waits on a
// model that never answers, pages, the API and /healthz answer at once; a
// shutdown ends the run as interrupted instead of hanging.
func TestHangingModelKeepsServerHealthy(t *testing.T) {
	model := llmtest.New(t)
	model.Otherwise(func(llmtest.Request) llmtest.Reply { return llmtest.Reply{Hang: true} })
	a, dir := newApp(t, map[string]string{"OPENAI_BASE_URL": model.URL(), "OPENAI_API_KEY": "sk-test"})
	ctx := context.Background()
	run, err := a.Agents.Start(ctx, agent.Request{Agent: coach.AgentID, Assignment: coach.DailyDashboardID, Member: "maya"})
	if err != nil {
		t.Fatal(err)
	}
	testkit.WaitFor(t, testkit.Patience, "the run to reach the model", func() bool { return len(model.ChatRequests()) > 0 })
	healthy(t, a, "model hanging")

	start := time.Now()
	if err := a.Close(); err != nil {
		t.Fatalf("close with a hanging model: %v", err)
	}
	if d := time.Since(start); d > 6*time.Second {
		t.Errorf("close took %s", d)
	}
	withDB(t, dir, func(db *sql.DB) {
		var status string
		if err := db.QueryRow(`SELECT status FROM agent_runs WHERE id = ?`, run.ID).Scan(&status); err != nil {
			t.Fatal(err)
		}
		if status != string(agent.StatusInterrupted) {
			t.Errorf("run after shutdown: %s, want interrupted", status)
		}
		integrityOK(t, db)
	})
}

// TestModelFaultsFallBack: a model that hangs past the request timeout,
// answers garbage, drops the connection mid-body, fails with 500s or
// answers JSON that is not a dashboard: each run ends fell_back with the
// heuristic coach's document in place and a reason, and the server keeps
// answering. The runtime here has the short timeouts a test can wait for;
// the app's own are in app/agents.go.
func TestModelFaultsFallBack(t *testing.T) {
	a, _ := newApp(t, nil)
	t.Cleanup(func() { _ = a.Close() })
	faults := map[string]llmtest.Reply{
		"hang":           {Hang: true},
		"garbage":        {Body: `{"id": "chatcmpl-1", "choices": [{"message": {"content": `},
		"not json":       {Body: `<html>502 Bad Gateway</html>`},
		"close mid-body": {CloseMidBody: true},
		"500":            llmtest.Error(http.StatusInternalServerError),
		"wrong document": llmtest.Text(`{"hello": "world"}`, 10, 5),
	}
	for name, reply := range faults {
		t.Run(name, func(t *testing.T) {
			model := llmtest.New(t)
			model.Otherwise(func(llmtest.Request) llmtest.Reply { return reply })
			rt, err := llm.NewRuntimes(llm.OpenAIConfig{BaseURL: model.URL(), APIKey: "sk-test", Model: "test-model",
				RequestTimeout: 300 * time.Millisecond, MaxRetries: 1, MaxRetryDelay: 10 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			hub := live.NewHub()
			defer hub.Close()
			o, err := agent.NewOrchestrator(a.DB, rt, nil, hub, nil, agent.Options{Location: time.UTC, RunTimeout: 20 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			defer o.Close(context.Background())
			if err := o.Register(coach.New(coach.Deps{DB: a.DB, Catalog: a.Catalog, Programs: a.Programs,
				Dashboards: a.Dashboards, Location: time.UTC})); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			start := time.Now()
			r, err := o.Run(ctx, agent.Request{Agent: coach.AgentID, Assignment: coach.DailyDashboardID, Member: "maya"})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: run %s in %s, fallback %q, error %q", name, r.Status, time.Since(start).Round(time.Millisecond), r.FallbackReason, r.Error)
			if r.Status != agent.StatusFellBack || r.FallbackReason == "" {
				t.Fatalf("run ended %s (fallback %q, error %q), want fell_back with a reason", r.Status, r.FallbackReason, r.Error)
			}
			if len(model.ChatRequests()) == 0 {
				t.Fatal("the model was never asked")
			}
			if _, err := a.Dashboards.Get(ctx, "maya", a.Dashboards.Day(time.Now())); err != nil {
				t.Fatalf("no document for today after the fallback: %v", err)
			}
			if strings.Contains(r.Error+r.FallbackReason, "sk-test") {
				t.Fatal("the API key leaked into the run record")
			}
			healthy(t, a, name)
		})
	}
}
