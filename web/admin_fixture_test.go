package web_test

import (
	"context"
	"encoding/json"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"hearth/internal/agent"
	"hearth/internal/app"
	"hearth/internal/content"
	"hearth/internal/live"
	"hearth/internal/schedule"
	"hearth/internal/session"
	"hearth/internal/store"
	"hearth/internal/store/storetest"
)

// noteTask is the tiny test assignment: it writes a note into memory. When
// gate is set, Gather waits for it, so a run stays active until released.
type noteTask struct{ gate chan struct{} }

func (noteTask) ID() string              { return "note" }
func (noteTask) Description() string     { return "Write a note" }
func (noteTask) DefaultSchedule() string { return "0 6 * * *" }
func (noteTask) OutputSchema() agent.OutputSchema {
	return agent.OutputSchema{Name: "note", Schema: map[string]any{
		"type":                 "object",
		"properties":           map[string]any{"text": map[string]any{"type": "string", "minLength": 1}},
		"required":             []string{"text"},
		"additionalProperties": false,
	}}
}
func (n noteTask) Gather(ctx context.Context, env *agent.Env) (any, error) {
	if n.gate != nil {
		select {
		case <-n.gate:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return map[string]string{"member": env.Scope.MemberID}, nil
}
func (noteTask) Prompt(_ context.Context, g any, mem *agent.Memory) (agent.Prompt, error) {
	b, _ := json.Marshal(g)
	return agent.Prompt{System: "You write notes.", User: "Note for " + string(b) + "\n" + mem.Serialize()}, nil
}
func (noteTask) ValidateDomain(context.Context, any, json.RawMessage) []agent.ValidationError {
	return nil
}
func (noteTask) Plan(_ context.Context, g any, _ *agent.Memory) (any, error) {
	return map[string]string{"text": "Keep going, " + g.(map[string]string)["member"] + "!"}, nil
}
func (noteTask) Act(_ context.Context, _ *store.Tx, act *agent.ActEnv) error {
	var out struct{ Text string }
	if err := json.Unmarshal(act.Output, &out); err != nil {
		return err
	}
	return act.Memory.Set("last_note", out.Text, 24*time.Hour)
}

// adminEnv is the real app (newTestApp) served on a loopback port, with
// members ada and bo, the "tester" agent registered beside the coach, and
// the scheduler on a fake clock at Mon 2 Mar 2026 09:00 UTC.
type adminEnv struct {
	t      *testing.T
	app    *app.App
	db     *store.DB
	hub    *live.Hub
	orch   *agent.Orchestrator
	sched  *schedule.Service
	clock  *clockwork.FakeClock
	cat    *content.Catalog
	e      http.Handler
	srv    *served
	client *http.Client // a browser: cookie jar, no redirects followed
	gate   chan struct{}
	// uploadDir holds import uploads while they are read.
	uploadDir string
	// sessions are the admin's sessions, trusted-browser marks and login
	// links, kept in the database.
	sessions *session.Store
}

func newAdminEnv(t *testing.T, opts ...appOption) *adminEnv {
	t.Helper()
	at := withClockAt(time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC))
	ta := newTestApp(t, append([]appOption{at}, opts...)...)
	a := ta.app
	storetest.Member(t, a.DB, "ada")
	storetest.Member(t, a.DB, "bo")
	env := &adminEnv{t: t, app: a, db: a.DB, hub: a.Hub, orch: a.Agents, sched: a.Schedule, clock: ta.clock, cat: a.Catalog,
		e: a.Echo, client: browser(10 * time.Second), gate: ta.gate, uploadDir: filepath.Join(ta.dir, "imports"), sessions: a.Sessions}
	if err := a.Agents.Register(agent.Agent{ID: "tester", Description: "Writes notes", Assignments: []agent.Assignment{noteTask{gate: env.gate}}}); err != nil {
		t.Fatal(err)
	}
	env.srv = ta.serve()
	t.Cleanup(env.release) // before the app stops (cleanups run last first)
	return env
}

// release lets gated runs continue (idempotent).
func (env *adminEnv) release() {
	if env.gate != nil {
		select {
		case <-env.gate:
		default:
			close(env.gate)
		}
	}
}
