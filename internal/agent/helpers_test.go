package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"hearth/internal/agent"
	"hearth/internal/agent/llm"
	"hearth/internal/agent/llm/llmtest"
	"hearth/internal/live"
	"hearth/internal/store"
	"hearth/internal/store/storetest"
)

// clock is a settable test clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Date(2026, 2, 14, 9, 0, 0, 0, time.UTC)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// events records what the orchestrator published; log is shared with the
// test assignment so phases and assignment calls interleave in one order.
type events struct {
	mu  sync.Mutex
	all []published
	log *callLog
}

type published struct {
	topic, kind string
	ev          agent.RunEvent
}

func (e *events) Publish(topic string, kind live.Kind, data any) {
	e.mu.Lock()
	defer e.mu.Unlock()
	ev, _ := data.(agent.RunEvent)
	e.all = append(e.all, published{topic, string(kind), ev})
	if topic == "admin" && ev.Phase != "" && e.log != nil {
		e.log.addPhase(ev.Phase)
	}
}

func (e *events) forRun(topic string, id int64) []agent.RunEvent {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []agent.RunEvent
	for _, p := range e.all {
		if p.topic == topic && p.ev.ID == id {
			out = append(out, p.ev)
		}
	}
	return out
}

// callLog is an ordered record of phases and assignment calls (tests that
// check order run one run at a time).
type callLog struct {
	mu    sync.Mutex
	calls []string
}

func (l *callLog) add(s string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.calls = append(l.calls, s)
}

// addPhase logs a phase once per contiguous stretch (a phase is published
// again when its state is re-saved).
func (l *callLog) addPhase(phase string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := "phase:" + phase
	if len(l.calls) == 0 || l.calls[len(l.calls)-1] != s {
		l.calls = append(l.calls, s)
	}
}

func (l *callLog) take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.calls
	l.calls = nil
	return out
}

type memberList []string

func (m memberList) MemberIDs(context.Context) ([]string, error) { return m, nil }

// output is the test assignment's document.
type output struct {
	Title string `json:"title"`
	Score int    `json:"score"`
}

var outputSchema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"title": map[string]any{"type": "string", "minLength": 1},
		"score": map[string]any{"type": "integer", "minimum": 0},
	},
	"required":             []string{"title", "score"},
	"additionalProperties": false,
}

// testAssignment is a tiny assignment: it gathers a map (optionally calling
// tools), asks for {title, score}, rejects the title "forbidden" as a
// domain rule, and act stores the output in test_outputs and optionally
// writes memory.
type testAssignment struct {
	log *callLog

	mu          sync.Mutex
	gathered    map[string]any
	gatherTools []string
	plan        any
	planErr     error
	actErr      error
	actMemory   map[string]string
	actTTL      time.Duration
	seenMemory  []string // Serialize() as seen by Prompt, per run
}

func (a *testAssignment) ID() string              { return "daily" }
func (a *testAssignment) Description() string     { return "Daily summary" }
func (a *testAssignment) DefaultSchedule() string { return "0 4 * * *" }
func (a *testAssignment) OutputSchema() agent.OutputSchema {
	return agent.OutputSchema{Name: "summary", Schema: outputSchema}
}

func (a *testAssignment) Gather(ctx context.Context, env *agent.Env) (any, error) {
	a.log.add("gather")
	a.mu.Lock()
	g := map[string]any{"steps": 1000}
	for k, v := range a.gathered {
		g[k] = v
	}
	tools := a.gatherTools
	a.mu.Unlock()
	for _, name := range tools {
		v, err := env.Call(ctx, name, map[string]any{})
		if err != nil {
			return nil, err
		}
		g[name] = v
	}
	return g, nil
}

func (a *testAssignment) Prompt(_ context.Context, gathered any, mem *agent.Memory) (agent.Prompt, error) {
	b, _ := json.Marshal(gathered)
	ser := mem.Serialize()
	a.log.add("prompt")
	a.mu.Lock()
	a.seenMemory = append(a.seenMemory, ser)
	a.mu.Unlock()
	return agent.Prompt{System: "Answer with JSON.", User: "## Data\n" + string(b) + "\n\n## Working memory\n" + ser}, nil
}

func (a *testAssignment) ValidateDomain(_ context.Context, _ any, out json.RawMessage) []agent.ValidationError {
	a.log.add("validate_domain")
	var o output
	_ = json.Unmarshal(out, &o)
	if o.Title == "forbidden" {
		return []agent.ValidationError{{Path: "/title", Message: "title is not allowed"}}
	}
	return nil
}

func (a *testAssignment) Plan(context.Context, any, *agent.Memory) (any, error) {
	a.log.add("plan")
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.planErr != nil {
		return nil, a.planErr
	}
	if a.plan != nil {
		return a.plan, nil
	}
	return output{Title: "heuristic", Score: 1}, nil
}

func (a *testAssignment) Act(ctx context.Context, tx *store.Tx, act *agent.ActEnv) error {
	a.log.add("act")
	if _, err := tx.ExecContext(ctx, `INSERT INTO test_outputs (member, body, source) VALUES (?, ?, ?)`,
		act.Scope.MemberID, string(act.Output), act.Source); err != nil {
		return err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	for k, v := range a.actMemory {
		if err := act.Memory.Set(k, v, a.actTTL); err != nil {
			return err
		}
	}
	return a.actErr
}

// whoamiTool returns the scope's member; its schema accepts a "member"
// argument that a prompt-injected call might use to aim at someone else.
func whoamiTool(seen *[]string, mu *sync.Mutex) agent.ToolFactory {
	return agent.ToolFactoryFunc(func() []agent.Tool {
		return []agent.Tool{{
			Name:        "whoami",
			Description: "Says whose data this run may read.",
			Parameters: map[string]any{"type": "object", "properties": map[string]any{
				"member": map[string]any{"type": "string"}}},
			Execute: func(_ context.Context, s agent.Scope, args json.RawMessage) (any, error) {
				mu.Lock()
				*seen = append(*seen, s.MemberID+" "+string(args))
				mu.Unlock()
				return map[string]string{"member": s.MemberID}, nil
			},
		}}
	})
}

// fixture is an orchestrator over a real database with one test agent.
type fixture struct {
	db    *store.DB
	orch  *agent.Orchestrator
	asg   *testAssignment
	ev    *events
	log   *callLog
	clock *clock
	srv   *llmtest.Server // nil without a model
	seen  []string        // whoami calls
	mu    sync.Mutex
}

type fixtureOpts struct {
	model      bool // wire llm.OpenAI to a fake server
	clientMod  func(*llm.OpenAIConfig)
	opts       agent.Options
	settings   agent.ModelSettings
	members    []string
	noReuse    bool
	extraTools []agent.ToolFactory
	chat       agent.Conversation
}

func newFixture(t *testing.T, fo fixtureOpts) *fixture {
	t.Helper()
	f := &fixture{db: storetest.Open(t), clock: newClock(), log: &callLog{}}
	if _, err := f.db.Write.Exec(`CREATE TABLE test_outputs (id INTEGER PRIMARY KEY, member TEXT, body TEXT, source TEXT)`); err != nil {
		t.Fatal(err)
	}
	if fo.members == nil {
		fo.members = []string{"ada", "bob"}
	}
	for _, m := range fo.members {
		storetest.Member(t, f.db, m)
	}
	f.ev = &events{log: f.log}
	f.asg = &testAssignment{log: f.log}
	rt := agent.Runtimes{Heuristic: llm.Heuristic{}}
	if fo.model {
		f.srv = llmtest.New(t)
		cfg := llm.OpenAIConfig{BaseURL: f.srv.URL(), APIKey: "k", Model: "fake-model", RequestTimeout: 5 * time.Second}
		if fo.clientMod != nil {
			fo.clientMod(&cfg)
		}
		c, err := llm.NewOpenAI(cfg)
		if err != nil {
			t.Fatal(err)
		}
		rt.Model = c
	}
	opts := fo.opts
	if opts.Now == nil {
		opts.Now = f.clock.Now
	}
	orch, err := agent.NewOrchestrator(f.db, rt, memberList(fo.members), f.ev, nil, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := orch.Close(ctx); err != nil {
			t.Errorf("close: %v", err)
		}
	})
	tools := append([]agent.ToolFactory{whoamiTool(&f.seen, &f.mu)}, fo.extraTools...)
	if err := orch.Register(agent.Agent{
		ID: "tester", Description: "Test agent", SystemPrompt: "You are a test agent.",
		Tools: tools, Assignments: []agent.Assignment{f.asg}, Model: fo.settings, NoReuse: fo.noReuse, Chat: fo.chat,
		ToolLabels: map[string]string{"whoami": "checked who you are"},
	}); err != nil {
		t.Fatal(err)
	}
	f.orch = orch
	return f
}

func (f *fixture) run(t *testing.T, member string) agent.Run {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	r, err := f.orch.Run(ctx, agent.Request{Agent: "tester", Assignment: "daily", Member: member})
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	return r
}

func (f *fixture) outputs(t *testing.T) []string {
	t.Helper()
	rows, err := f.db.Read.Query(`SELECT member || ' ' || source || ' ' || body FROM test_outputs ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

func (f *fixture) memory(t *testing.T, member string) map[string]string {
	t.Helper()
	entries, err := f.orch.Memory().Entries(context.Background(), "tester", member)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, e := range entries {
		out[e.Key] = e.Value
	}
	return out
}

func jsonOut(title string, score int) llmtest.Reply {
	return llmtest.JSON(output{Title: title, Score: score}, 100, 20)
}

func mustEqual[T comparable](t *testing.T, what string, got, want T) {
	t.Helper()
	if got != want {
		t.Fatalf("%s = %v, want %v", what, got, want)
	}
}

var errAct = errors.New("act exploded")

func fmtRun(r agent.Run) string {
	return fmt.Sprintf("run %d %s model=%s attempts=%d err=%q fallback=%q out=%s", r.ID, r.Status, r.Model, r.Attempts, r.Error, r.FallbackReason, r.Output)
}
