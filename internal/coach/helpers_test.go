package coach

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"hearth/internal/agent"
	"hearth/internal/agent/llm"
	"hearth/internal/content"
	"hearth/internal/dashboard"
	"hearth/internal/health"
	"hearth/internal/lifeplan"
	"hearth/internal/program"
	"hearth/internal/store"
	"hearth/internal/store/storetest"
)

// start is the fixtures' "now": Wednesday 18 Feb 2026, 04:00 UTC.
var start = time.Date(2026, 2, 18, 4, 0, 0, 0, time.UTC)

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

type memberList struct{ db *store.DB }

func (m memberList) MemberIDs(ctx context.Context) ([]string, error) {
	ms, err := m.db.ListMembers(ctx)
	ids := make([]string, len(ms))
	for i, x := range ms {
		ids[i] = x.ID
	}
	return ids, err
}

type fixture struct {
	t     testing.TB
	ctx   context.Context
	db    *store.DB
	clk   *clock
	cat   *content.Catalog
	progs *program.Service
	dash  *dashboard.Store
	orch  *agent.Orchestrator
	deps  Deps
}

type fixtureOpts struct {
	model  agent.Runtime // nil: heuristic only
	tuning TuningSource
	loc    *time.Location // household time zone (nil: UTC)
	empty  bool           // no catalog
	// replan receives the coach's re-plan requests (Deps.Replan).
	replan func(member string, after int64)
	// runTimeout bounds each engine run (0: the engine's default).
	runTimeout time.Duration
}

func newFixture(t testing.TB, o fixtureOpts) *fixture {
	t.Helper()
	ctx := context.Background()
	loc := o.loc
	if loc == nil {
		loc = time.UTC
	}
	db := storetest.Open(t)
	clk := &clock{t: start}
	db.Now = clk.Now
	cat := content.NewCatalog(db, nil)
	if !o.empty {
		if _, err := cat.LoadDemo(ctx); err != nil {
			t.Fatalf("load demo catalog: %v", err)
		}
	}
	f := &fixture{t: t, ctx: ctx, db: db, clk: clk, cat: cat, progs: program.New(db, cat, loc),
		dash: dashboard.NewStore(db, nil, loc)}
	f.deps = Deps{DB: db, Catalog: cat, Programs: f.progs, Dashboards: f.dash, Location: loc, Tuning: o.tuning,
		Replan: o.replan}
	// The app gives the coach the life plan: the daily run offers its
	// model lifeplan_propose_evidence, and the prompt measurements count it.
	life := lifeplan.NewService(db, clk.Now)
	f.deps.LifePlan, f.deps.LifePlanTools = life, lifeplan.LimitedTools(life)
	orch, err := agent.NewOrchestrator(db, agent.Runtimes{Model: o.model, Heuristic: llm.Heuristic{}}, memberList{db}, nil, nil,
		agent.Options{Now: clk.Now, Location: loc, RunTimeout: o.runTimeout})
	if err != nil {
		t.Fatal(err)
	}
	if err := orch.Register(New(f.deps)); err != nil {
		t.Fatalf("register coach: %v", err)
	}
	t.Cleanup(func() { _ = orch.Close(context.Background()) })
	f.orch = orch
	return f
}

// at is a time days before now's date, at hour:00 UTC.
func (f *fixture) at(daysAgo, hour int) time.Time {
	y, m, d := f.clk.Now().Date()
	return time.Date(y, m, d-daysAgo, hour, 0, 0, 0, time.UTC)
}

func (f *fixture) member(m health.Member) {
	f.t.Helper()
	if m.Name == "" {
		m.Name = m.ID
	}
	if _, err := f.db.CreateMember(f.ctx, m); err != nil {
		f.t.Fatalf("member %s: %v", m.ID, err)
	}
}

func (f *fixture) weigh(member string, daysAgo int, kg float64) {
	f.t.Helper()
	if _, err := f.db.AddWeight(f.ctx, health.WeightReading{MemberID: member, MeasuredAt: f.at(daysAgo, 7), WeightKg: kg}); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) meal(member string, daysAgo int, name string, kcal, protein float64) {
	f.t.Helper()
	if _, err := f.db.AddMeal(f.ctx, health.Meal{MemberID: member, EatenAt: f.at(daysAgo, 12), Name: name,
		Calories: kcal, ProteinG: protein, CarbsG: 100, FatG: 40}); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) workout(member string, daysAgo int, typ string, minutes float64, contentID string) {
	f.t.Helper()
	if _, err := f.db.AddWorkout(f.ctx, health.Workout{MemberID: member, StartedAt: f.at(daysAgo, 18), Type: typ,
		Title: typ + " session", DurationMin: minutes, ContentID: contentID}); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) goal(member, desc string) {
	f.t.Helper()
	if _, err := f.db.AddGoal(f.ctx, health.Goal{MemberID: member, Kind: "custom", Description: desc}); err != nil {
		f.t.Fatal(err)
	}
}

// onProgram declares prog starting daysAgo on pattern and advances n times.
func (f *fixture) onProgram(member, prog string, daysAgo int, pattern string, advance int) {
	f.t.Helper()
	startDate := f.at(daysAgo, 0).Format(time.DateOnly)
	if _, err := f.progs.Declare(f.ctx, member, prog, startDate, pattern); err != nil {
		f.t.Fatalf("declare: %v", err)
	}
	for range advance {
		if _, err := f.progs.Advance(f.ctx, member); err != nil {
			f.t.Fatalf("advance: %v", err)
		}
	}
}

// run runs the daily dashboard for one member and returns the run.
func (f *fixture) run(member string) agent.Run {
	f.t.Helper()
	r, err := f.orch.Run(f.ctx, agent.Request{Agent: AgentID, Assignment: DailyDashboardID, Member: member})
	if err != nil {
		f.t.Fatalf("run %s: %v", member, err)
	}
	return r
}

// today returns the member's stored document for the clock's day.
func (f *fixture) today(member string) dashboard.Stored {
	f.t.Helper()
	st, err := f.dash.Get(f.ctx, member, f.clk.Now().Format(time.DateOnly))
	if err != nil {
		f.t.Fatalf("document of %s: %v", member, err)
	}
	return st
}

// memory returns the coach's memory entries for member by key.
func (f *fixture) memory(member string) map[string]agent.MemoryEntry {
	f.t.Helper()
	es, err := f.orch.Memory().Entries(f.ctx, AgentID, member)
	if err != nil {
		f.t.Fatal(err)
	}
	out := map[string]agent.MemoryEntry{}
	for _, e := range es {
		out[e.Key] = e
	}
	return out
}

// tool calls a coach tool for member as a run would.
func (f *fixture) tool(member, name string, args any) any {
	f.t.Helper()
	box, err := f.orch.Toolbox(AgentID)
	if err != nil {
		f.t.Fatal(err)
	}
	raw, _ := json.Marshal(args)
	if args == nil {
		raw = nil
	}
	v, err := box.Call(f.ctx, agent.Scope{AgentID: AgentID, MemberID: member, Now: f.clk.Now()}, name, raw)
	if err != nil {
		f.t.Fatalf("tool %s for %s: %v", name, member, err)
	}
	return v
}

// answer records a member's answer to a prompt of today's document.
func (f *fixture) answer(member, prompt, answer, kind string) {
	f.t.Helper()
	if _, err := f.dash.RecordAnswer(f.ctx, member, prompt, answer, kind, 0); err != nil {
		f.t.Fatalf("answer %s/%s: %v", member, prompt, err)
	}
}

func mustStatus(t testing.TB, r agent.Run, want agent.Status) {
	t.Helper()
	if r.Status != want {
		t.Fatalf("run %d status = %s (error %q, fallback %q, validation %+v), want %s", r.ID, r.Status, r.Error,
			r.FallbackReason, r.ValidationErrors, want)
	}
}

func promptIDs(d dashboard.Document) []string {
	var ids []string
	for _, p := range d.Coach.Prompts {
		ids = append(ids, p.ID)
	}
	return ids
}
