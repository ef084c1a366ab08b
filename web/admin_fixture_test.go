package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"hearth/internal/agent"
	"hearth/internal/agent/llm"
	"hearth/internal/content"
	"hearth/internal/household"
	"hearth/internal/importer"
	"hearth/internal/live"
	"hearth/internal/schedule"
	"hearth/internal/session"
	"hearth/internal/store"
	"hearth/internal/store/storetest"
	"hearth/web"
	"hearth/web/admin"
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

type dbMembers struct{ db *store.DB }

func (m dbMembers) MemberIDs(ctx context.Context) ([]string, error) {
	ms, err := m.db.ListMembers(ctx)
	ids := make([]string, len(ms))
	for i, x := range ms {
		ids[i] = x.ID
	}
	return ids, err
}

// orchRunner lets the scheduler fire real runs of the orchestrator.
type orchRunner struct{ o *agent.Orchestrator }

func (r orchRunner) RunAssignment(ctx context.Context, agentID, assignmentID, memberID, _, origin string) (int64, error) {
	if memberID == "" {
		runs, err := r.o.RunAssignmentForAll(ctx, agentID, assignmentID, agent.TriggerSchedule)
		if len(runs) == 0 {
			return 0, err
		}
		return runs[len(runs)-1].ID, err
	}
	run, err := r.o.RunAssignment(ctx, agent.AssignmentRequest{Agent: agentID, Assignment: assignmentID, Member: memberID, Trigger: agent.TriggerSchedule, Origin: origin})
	return run.ID, err
}

func (r orchRunner) RunFreeform(ctx context.Context, agentID, memberID, prompt, _, origin string) (int64, error) {
	run, err := r.o.Freeform(ctx, agent.FreeformRequest{Agent: agentID, Member: memberID, Message: prompt, Trigger: agent.TriggerSchedule, Origin: origin})
	return run.ID, err
}

func (orchRunner) Idle(string) bool { return true }

// dbImporter is the importer over the test database (the app wires the same).
type dbImporter struct{ db *store.DB }

func (i dbImporter) Import(ctx context.Context, opts importer.Options, name string, r io.ReaderAt, size int64) (importer.Summary, error) {
	return importer.Import(ctx, i.db, opts, name, r, size)
}

func (i dbImporter) Recent(ctx context.Context, member string, limit int) ([]importer.Run, error) {
	return importer.ListRuns(ctx, i.db, member, limit)
}

// adminEnv is a real server over real SQLite with a real orchestrator
// (heuristic runtime, the "tester" agent) and a real scheduler on a fake clock.
type adminEnv struct {
	t      *testing.T
	db     *store.DB
	hub    *live.Hub
	orch   *agent.Orchestrator
	sched  *schedule.Service
	clock  *clockwork.FakeClock
	cat    *content.Catalog
	e      http.Handler
	srv    *httptest.Server
	client *http.Client // a browser: cookie jar, no redirects followed
	gate   chan struct{}
	// uploadDir holds import uploads while they are read.
	uploadDir string
	maxImport int64
	// model is Admin → Model (nil: the page is absent).
	model admin.ModelAdmin
	// sessions keeps the admin's sessions in the database (nil: in memory).
	sessions *session.Store
	// agentClock makes the agents (their memory's expiry) read env.clock.
	agentClock bool
}

type envOption func(*web.Options, *adminEnv)

func withPassword(pw, token string) envOption {
	return func(o *web.Options, _ *adminEnv) {
		o.AdminPassword, o.APIToken = pw, token
	}
}

// withStoredSessions keeps admin sessions, trusted-browser marks and login
// links in the env's database, as the app does.
func withStoredSessions() envOption {
	return func(_ *web.Options, env *adminEnv) { env.sessions = session.New(env.db) }
}

// withAgentClock gives the agents the env's fake clock (memory expiry).
func withAgentClock() envOption {
	return func(_ *web.Options, env *adminEnv) { env.agentClock = true }
}

// withMaxImport caps import uploads at n bytes.
func withMaxImport(n int64) envOption {
	return func(_ *web.Options, env *adminEnv) { env.maxImport = n }
}

// withModel serves Admin → Model from what build makes over the env's hub.
func withModel(build func(hub *live.Hub) admin.ModelAdmin) envOption {
	return func(_ *web.Options, env *adminEnv) { env.model = build(env.hub) }
}

// withGate makes the test assignment wait in Gather until env.release.
func withGate() envOption {
	return func(_ *web.Options, env *adminEnv) { env.gate = make(chan struct{}) }
}

func newAdminEnv(t *testing.T, opts ...envOption) *adminEnv {
	t.Helper()
	db := storetest.Open(t)
	storetest.Member(t, db, "ada")
	storetest.Member(t, db, "bo")
	env := &adminEnv{t: t, db: db, hub: live.NewHub(), clock: clockwork.NewFakeClockAt(time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC))}
	o := web.Options{Location: time.UTC, KeepAlive: 200 * time.Millisecond}
	for _, opt := range opts {
		opt(&o, env)
	}
	var agentOpt agent.Options
	if env.agentClock {
		agentOpt.Now = env.clock.Now
	}
	orch, err := agent.NewOrchestrator(db, agent.Runtimes{Heuristic: llm.Heuristic{}}, dbMembers{db}, env.hub, nil, agentOpt)
	if err != nil {
		t.Fatal(err)
	}
	if err := orch.Register(agent.Agent{ID: "tester", Description: "Writes notes", Assignments: []agent.Assignment{noteTask{gate: env.gate}}}); err != nil {
		t.Fatal(err)
	}
	env.orch = orch
	sched, err := schedule.New(db, orchRunner{orch}, env.hub, nil, schedule.Options{Location: time.UTC, Clock: env.clock,
		DefaultAgent: "tester", DefaultAssignment: "note",
		CheckTarget: func(agentID, assignmentID string) error {
			info, err := orch.Agent(agentID)
			if err != nil || assignmentID == "" {
				return err
			}
			for _, as := range info.Assignments {
				if as.ID == assignmentID {
					return nil
				}
			}
			return fmt.Errorf("agent %s has no assignment %q", agentID, assignmentID)
		}})
	if err != nil {
		t.Fatal(err)
	}
	if err := sched.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	env.sched = sched
	env.cat = content.NewCatalog(db, nil)
	env.uploadDir = filepath.Join(t.TempDir(), "imports") // created on the first upload
	hh := household.New(db, env.hub)
	deps := web.Deps{Household: hh, Live: env.hub, Ping: db.Ping,
		Admin: web.AdminDeps{Household: hh, Agents: orch, Schedule: sched, Catalog: env.cat, Importer: dbImporter{db},
			UploadDir: env.uploadDir, MaxImportBytes: env.maxImport, Model: env.model}}
	if env.sessions != nil {
		deps.Sessions = env.sessions
	}
	e, err := web.New(deps, o)
	if err != nil {
		t.Fatal(err)
	}
	env.e = e
	env.srv = httptest.NewServer(e)
	jar, _ := cookiejar.New(nil)
	env.client = &http.Client{Jar: jar, Timeout: 10 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	t.Cleanup(func() {
		env.release()
		env.srv.CloseClientConnections()
		env.srv.Close()
		env.hub.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = sched.Stop(ctx)
		_ = orch.Close(ctx)
	})
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
