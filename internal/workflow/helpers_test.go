package workflow_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"hearth/internal/live"
	"hearth/internal/store"
	"hearth/internal/store/storetest"
	"hearth/internal/workflow"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// recorder keeps the events the runtime published.
type recorder struct {
	mu  sync.Mutex
	all []live.Event
}

func (r *recorder) Publish(topic string, kind live.Kind, data any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.all = append(r.all, live.Event{Topic: topic, Kind: kind, Data: data})
}

// types lists the event types of run id on topic, in order.
func (r *recorder) types(topic string, id int64) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, e := range r.all {
		ev, ok := e.Data.(workflow.Event)
		if e.Topic == topic && ok && ev.RunID == id && e.Kind == live.KindWorkflow {
			s := ev.Type
			if ev.Path != "" {
				s += ":" + ev.Path
			} else {
				s += ":" + ev.Status
			}
			out = append(out, s)
		}
	}
	return out
}

type env struct {
	db  *store.DB
	rt  *workflow.Runtime
	pub *recorder
}

func newEnv(t *testing.T) *env {
	t.Helper()
	db := storetest.Open(t)
	storetest.Member(t, db, "maya")
	storetest.Member(t, db, "sam")
	e := &env{db: db, pub: &recorder{}}
	e.rt = e.runtime(t)
	return e
}

// runtime opens another runtime on the same database (a restart).
func (e *env) runtime(t *testing.T) *workflow.Runtime {
	rt := workflow.NewRuntime(e.db, workflow.Options{Publisher: e.pub})
	t.Cleanup(func() { _ = rt.Close(context.Background()) })
	return rt
}

func (e *env) register(t *testing.T, rt *workflow.Runtime, w *workflow.Workflow) {
	t.Helper()
	if err := rt.Register(w); err != nil {
		t.Fatal(err)
	}
}

func commit(t *testing.T, b *workflow.Builder) *workflow.Workflow {
	t.Helper()
	w, err := b.Commit()
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// wait waits for run id to leave running.
func wait(t *testing.T, rt *workflow.Runtime, id int64) workflow.Run {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	r, err := rt.Wait(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func start(t *testing.T, rt *workflow.Runtime, wf, member string, input string) workflow.Run {
	t.Helper()
	r, err := rt.Start(context.Background(), workflow.StartRequest{Workflow: wf, Member: member, Input: json.RawMessage(input)})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// counter counts executions per step id.
type counter struct {
	mu sync.Mutex
	n  map[string]int
}

func (c *counter) inc(id string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n == nil {
		c.n = map[string]int{}
	}
	c.n[id]++
	return c.n[id]
}

func (c *counter) get(id string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[id]
}

var numSchema = map[string]any{
	"type": "object", "required": []string{"n"}, "additionalProperties": false,
	"properties": map[string]any{"n": map[string]any{"type": "integer"}},
}

type num struct {
	N int `json:"n"`
}

// addStep adds d to the input's n.
func addStep(id string, d int, cnt *counter) *workflow.Step {
	return &workflow.Step{ID: id, Input: numSchema, Output: numSchema,
		Run: func(ctx context.Context, c *workflow.Context) (any, error) {
			cnt.inc(id)
			var in num
			if err := c.Decode(&in); err != nil {
				return nil, err
			}
			return num{N: in.N + d}, nil
		}}
}

func asJSON(t *testing.T, raw json.RawMessage, v any) {
	t.Helper()
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
}

func paths(r workflow.Run) []string {
	var out []string
	for _, s := range r.Steps {
		out = append(out, s.Path+"="+string(s.Status))
	}
	return out
}
