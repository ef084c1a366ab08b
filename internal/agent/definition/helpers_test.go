package definition

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"hearth/internal/agent"
	"hearth/internal/agent/llm"
	"hearth/internal/live"
	"hearth/internal/store"
	"hearth/internal/store/storetest"
)

var testNow = time.Date(2026, 2, 14, 9, 0, 0, 0, time.UTC)

// testCoachID is an agent whose callers supply extra template variables.
const testCoachID = "health-coach"

// fixture is a real database with member ada, a tool registry, context
// resolvers and recording hooks.
type fixture struct {
	t     *testing.T
	db    *store.DB
	reg   Registry
	repo  *Repo
	pub   *recorder
	notes *noteLog
	tools *toolLog
}

type published struct {
	topic, kind string
	data        any
}

// recorder is a Publisher that keeps what it got.
type recorder struct {
	mu  sync.Mutex
	all []published
}

func (r *recorder) Publish(topic string, kind live.Kind, data any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.all = append(r.all, published{topic, string(kind), data})
}

func (r *recorder) kind(kind string) []published {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []published
	for _, p := range r.all {
		if p.kind == kind {
			out = append(out, p)
		}
	}
	return out
}

// noteLog is a NoteLogger that keeps the notes.
type noteLog struct {
	mu    sync.Mutex
	notes []string
}

func (n *noteLog) LogNote(_ context.Context, _ *store.Tx, member, agentID, note string, _ int64) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.notes = append(n.notes, member+"/"+agentID+": "+note)
	return nil
}

func (n *noteLog) all() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]string(nil), n.notes...)
}

// toolLog records the order of tool executions and hook calls.
type toolLog struct {
	mu    sync.Mutex
	calls []string
}

func (l *toolLog) add(s string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.calls = append(l.calls, s)
}

func (l *toolLog) all() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.calls...)
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	db := storetest.Open(t)
	db.Now = func() time.Time { return testNow }
	storetest.Member(t, db, "ada")
	f := &fixture{t: t, db: db, pub: &recorder{}, notes: &noteLog{}, tools: &toolLog{}}
	box, err := agent.NewToolbox(agent.MemoryTools(), agent.ToolFactoryFunc(func() []agent.Tool {
		return []agent.Tool{
			{Name: "get_weight", Description: "Latest weight.", Execute: func(_ context.Context, s agent.Scope, _ json.RawMessage) (any, error) {
				f.tools.add("exec get_weight")
				return map[string]any{"kg": 70.2, "member": s.MemberID}, nil
			}},
			{Name: "send_update", Description: "Send an update.", Parameters: map[string]any{
				"type": "object", "properties": map[string]any{"message": map[string]any{"type": "string"}}, "required": []string{"message"}},
				Execute: func(_ context.Context, _ agent.Scope, args json.RawMessage) (any, error) {
					f.tools.add("exec send_update")
					return map[string]any{"sent": true}, nil
				}},
		}
	}))
	if err != nil {
		t.Fatal(err)
	}
	hooks := BuiltinHooks(f.pub, f.notes)
	hooks["trace"] = func(_ context.Context, ev HookEvent) error {
		f.tools.add("hook " + ev.Point + " " + text(ev.Value))
		return nil
	}
	hooks["broken"] = func(context.Context, HookEvent) error { return errors.New("hook exploded") }
	f.reg = Registry{
		Tools: box,
		Contexts: map[string]ContextResolver{
			ContextMemberProfile: func(_ context.Context, m string) (string, error) {
				return "Member " + m + ", 36, rows twice a week.", nil
			},
			ContextDate:      DateContext(db.Now, time.UTC),
			"health_summary": func(context.Context, string) (string, error) { return "Weight 70.2 kg, trending down.", nil },
		},
		Hooks: hooks,
		Vars:  map[string][]string{testCoachID: {"gathered"}},
	}
	f.repo = NewRepo(db, f.reg)
	return f
}

// def is a minimal valid definition.
func def(id, system string) Definition {
	return Definition{AgentID: id, SystemPrompt: system, MaxIterations: 4, MaxRetries: 1}
}

// save saves d and fails the test on error.
func (f *fixture) save(d Definition) Version {
	f.t.Helper()
	v, err := f.repo.Save(context.Background(), d, "test", "")
	if err != nil {
		f.t.Fatalf("save %s: %v", d.AgentID, err)
	}
	return v
}

// force inserts d as the agent's next version without validation, as a
// hand edit in SQLite would.
func (f *fixture) force(d Definition) {
	f.t.Helper()
	if err := prepare(&d); err != nil {
		f.t.Fatal(err)
	}
	var last int
	if err := f.db.Read.QueryRow(`SELECT COALESCE(MAX(version), 0) FROM agent_definitions WHERE agent_id = ?`, d.AgentID).Scan(&last); err != nil {
		f.t.Fatal(err)
	}
	v := Version{Definition: d, Number: last + 1, Active: true, CreatedAt: testNow, CreatedBy: "sqlite"}
	if _, err := insertVersion(context.Background(), f.db.Write, &v); err != nil {
		f.t.Fatal(err)
	}
	f.repo.invalidate()
}

// engine returns an orchestrator over the fixture's database with rt as
// the model (nil = none), four model calls at once, closed at cleanup.
func (f *fixture) engine(rt agent.Runtime, opts agent.Options) *agent.Orchestrator {
	f.t.Helper()
	opts.Prices = agent.Prices{"gpt-test": {InputPerMTok: 1, OutputPerMTok: 2}}
	if opts.MaxConcurrentModelCalls == 0 {
		opts.MaxConcurrentModelCalls = 4
	}
	o, err := agent.NewOrchestrator(f.db, agent.Runtimes{Model: rt, Heuristic: llm.Heuristic{}}, nil, f.pub, nil, opts)
	if err != nil {
		f.t.Fatal(err)
	}
	f.t.Cleanup(func() { _ = o.Close(context.Background()) })
	return o
}

// runner returns a runner over the fixture with rt as the model.
func (f *fixture) runner(rt agent.Runtime) *Invoker {
	f.t.Helper()
	return f.runnerOn(f.engine(rt, agent.Options{}))
}

// runnerOn returns a runner over the fixture on engine e.
func (f *fixture) runnerOn(e Engine) *Invoker {
	f.t.Helper()
	r, err := NewInvoker(f.repo, e, Options{Members: func(_ context.Context, id string) (map[string]any, error) {
		return map[string]any{"id": id, "name": "Ada", "profile": map[string]any{"goal": "strength"}}, nil
	}})
	if err != nil {
		f.t.Fatal(err)
	}
	return r
}

// run reads a run back from the database.
func (f *fixture) run(id int64) agent.Run {
	f.t.Helper()
	r, err := agent.NewRunStore(f.db, nil).Get(context.Background(), id)
	if err != nil {
		f.t.Fatal(err)
	}
	return r
}

// fakeModel is an agent.Runtime answering by the agent named in the system
// prompt's first line ("agent:<id>"); it records every request.
type fakeModel struct {
	mu      sync.Mutex
	reqs    []agent.ModelRequest
	answers map[string]func(ctx context.Context, req agent.ModelRequest) (string, error)
}

func newFakeModel() *fakeModel {
	return &fakeModel{answers: map[string]func(context.Context, agent.ModelRequest) (string, error){}}
}

// on sets the answer of one agent.
func (m *fakeModel) on(agentID string, fn func(ctx context.Context, req agent.ModelRequest) (string, error)) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.answers[agentID] = fn
}

// reply makes an agent always answer text.
func (m *fakeModel) reply(agentID, text string) {
	m.on(agentID, func(context.Context, agent.ModelRequest) (string, error) { return text, nil })
}

func (m *fakeModel) Execute(ctx context.Context, req agent.ModelRequest) (agent.Result, error) {
	id, _, _ := strings.Cut(strings.TrimPrefix(req.System, "agent:"), "\n")
	id = strings.TrimSpace(id)
	m.mu.Lock()
	m.reqs = append(m.reqs, req)
	fn := m.answers[id]
	m.mu.Unlock()
	res := agent.Result{Model: "gpt-test", Usage: agent.Usage{InputTokens: 10, OutputTokens: 5}}
	if fn == nil {
		return res, errors.New("fake model: no answer for " + id)
	}
	out, err := fn(ctx, req)
	res.Output = out
	return res, err
}

func (m *fakeModel) requests(agentID string) []agent.ModelRequest {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []agent.ModelRequest
	for _, r := range m.reqs {
		if strings.HasPrefix(r.System, "agent:"+agentID+"\n") || r.System == "agent:"+agentID {
			out = append(out, r)
		}
	}
	return out
}

// waitAll blocks until n goroutines called it or the deadline passes; it
// reports whether they all met (proof that they ran at the same time).
type barrier struct {
	mu      sync.Mutex
	n, seen int
	met     chan struct{}
}

func newBarrier(n int) *barrier { return &barrier{n: n, met: make(chan struct{})} }

func (b *barrier) wait(ctx context.Context) bool {
	b.mu.Lock()
	b.seen++
	if b.seen == b.n {
		close(b.met)
	}
	b.mu.Unlock()
	select {
	case <-b.met:
		return true
	case <-time.After(5 * time.Second):
		return false
	case <-ctx.Done():
		return false
	}
}

func errorsAs(err error, target any) bool { return errors.As(err, target) }
