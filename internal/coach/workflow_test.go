package coach

import (
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"hearth/internal/agent"
	"hearth/internal/agent/llm"
	"hearth/internal/agent/llm/llmtest"
	"hearth/internal/health"
	"hearth/internal/program"
	"hearth/internal/testkit"
	"hearth/internal/workflow"
)

// household gives maya a week of data, a program and a goal.
func (f *fixture) household() {
	f.member(health.Member{ID: "maya", Name: "Maya", Targets: health.Targets{Calories: ptr(2000.0), ProteinG: ptr(120.0)}})
	for d := 0; d < 10; d++ {
		f.weigh("maya", d, 70.4+float64(d)*0.1)
		f.meal("maya", d+1, "Oats", 450, 25)
	}
	f.workout("maya", 2, "strength", 45, "")
	f.goal("maya", "Get stronger")
	f.onProgram("maya", "ember-core-30", 6, "mon,wed,fri", 2)
}

// workflows is a workflow runtime over the fixture's engine, with the two
// coach workflows registered.
func (f *fixture) workflows(t *testing.T) *workflow.Runtime {
	t.Helper()
	rt := workflow.NewRuntime(f.db, workflow.Options{Engine: f.orch, Now: f.clk.Now})
	// Closed before the orchestrator (cleanups run last-in first-out):
	// the walks it cancels end their engine runs.
	t.Cleanup(func() { _ = rt.Close(context.Background()) })
	p, err := f.orch.Phases(AgentID, DailyDashboardID)
	if err != nil {
		t.Fatal(err)
	}
	daily, err := DailyDashboardWorkflow(p)
	if err != nil {
		t.Fatal(err)
	}
	weekly, err := WeeklyReviewWorkflow(f.deps)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []*workflow.Workflow{daily, weekly} {
		if err := rt.Register(w); err != nil {
			t.Fatal(err)
		}
	}
	return rt
}

func runWorkflow(t *testing.T, rt *workflow.Runtime, id, member string) workflow.Run {
	t.Helper()
	r, err := rt.Start(context.Background(), workflow.StartRequest{Workflow: id, Member: member})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	r, err = rt.Wait(ctx, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// The gathered checkpoint decodes to what gather returned: the same JSON,
// the same private fields, and so the same prompt, hash and plan.
func TestGatheredCheckpointRoundTrip(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	f.household()
	p, err := f.orch.Phases(AgentID, DailyDashboardID)
	if err != nil {
		t.Fatal(err)
	}
	var checked bool
	_, err = f.orch.Execute(f.ctx, agent.TaskRequest{Agent: AgentID, Assignment: "checkpoint-test", Member: "maya"},
		func(ctx context.Context, x *agent.Exec) (json.RawMessage, error) {
			got, err := p.Gather(ctx, x)
			if err != nil {
				return nil, err
			}
			raw, err := p.EncodeGathered(got)
			if err != nil {
				return nil, err
			}
			back, err := p.DecodeGathered(ctx, raw)
			if err != nil {
				return nil, err
			}
			g, g2 := got.(*Gathered), back.(*Gathered)
			a, _ := json.Marshal(g)
			b, _ := json.Marshal(g2)
			if string(a) != string(b) {
				t.Errorf("JSON differs after the round trip:\n%s\n%s", a, b)
			}
			if !g.now.Equal(g2.now) || !g.civil.Equal(g2.civil) || g.loc.String() != g2.loc.String() || g.seed != g2.seed || g.stateID != g2.stateID ||
				!reflect.DeepEqual(g.facts, g2.facts) || !reflect.DeepEqual(g.byID, g2.byID) ||
				!g.Prompts.latestAt.Equal(g2.Prompts.latestAt) {
				t.Errorf("private fields differ: %+v / %+v", g, g2)
			}
			for _, pv := range [][2]ProgramView{{g.base, g2.base}, {g.Program, g2.Program}} {
				x1, _ := json.Marshal(programOut(pv[0]))
				x2, _ := json.Marshal(programOut(pv[1]))
				if string(x1) != string(x2) {
					t.Errorf("program view differs:\n%s\n%s", x1, x2)
				}
			}
			if g.stateID == 0 || len(g.base.days) == 0 {
				t.Errorf("the fixture should have a program (state %d, %d days)", g.stateID, len(g.base.days))
			}
			mem, _ := x.Memory(ctx, AgentID)
			p1, _ := json.Marshal(plan(g, mem))
			p2, _ := json.Marshal(plan(g2, mem))
			if string(p1) != string(p2) {
				t.Errorf("plans differ:\n%s\n%s", p1, p2)
			}
			h1, _ := inputHash(g, mem)
			h2, _ := inputHash(g2, mem)
			if h1 != h2 {
				t.Error("input hashes differ")
			}
			checked = true
			return json.RawMessage(`{}`), nil
		})
	if err != nil || !checked {
		t.Fatalf("execute: %v (checked %v)", err, checked)
	}
}

func inputHash(g *Gathered, mem *agent.Memory) (string, error) {
	b, err := json.Marshal(g)
	return string(b) + mem.Serialize(), err
}

// Every unexported field reachable from Gathered is either carried by the
// checkpoint or derived again on decode; a field added later fails here
// until the checkpoint handles it.
func TestCheckpointKnowsEveryPrivateField(t *testing.T) {
	handled := []string{
		"Gathered.now", "Gathered.civil", "Gathered.loc", "Gathered.seed", "Gathered.facts", "Gathered.byID", "Gathered.stateID", "Gathered.base",
		"ProgramView.stateID", "ProgramView.daySince", "ProgramView.anchorDate", "ProgramView.anchorDay", "ProgramView.days",
		"PromptsView.latestAt", "Gathered.mutant",
	}
	seen := map[reflect.Type]bool{}
	var found []string
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || seen[t] || t.PkgPath() == "time" {
			return
		}
		seen[t] = true
		for i := range t.NumField() {
			fl := t.Field(i)
			if !fl.IsExported() && t.PkgPath() != "" {
				found = append(found, t.Name()+"."+fl.Name)
				continue
			}
			walk(fl.Type)
		}
	}
	walk(reflect.TypeFor[Gathered]())
	sort.Strings(found)
	sort.Strings(handled)
	if !slices.Equal(found, handled) {
		t.Errorf("unexported fields %v, the checkpoint handles %v", found, handled)
	}
}

// The workflow writes the document the assignment writes, from the same
// data at the same time, and its engine run records the same phases.
func TestDailyDashboardWorkflowWritesTheAssignmentsDocument(t *testing.T) {
	a := newFixture(t, fixtureOpts{})
	a.household()
	run := a.run("maya")
	mustStatus(t, run, agent.StatusSucceeded)

	w := newFixture(t, fixtureOpts{})
	w.household()
	rt := w.workflows(t)
	wr := runWorkflow(t, rt, DailyDashboardWorkflowID, "maya")
	if wr.Status != workflow.StatusSuccess {
		t.Fatalf("workflow %s: %s", wr.Status, wr.Error)
	}
	da, _ := json.Marshal(a.today("maya").Document)
	dw, _ := json.Marshal(w.today("maya").Document)
	if string(da) != string(dw) {
		t.Errorf("documents differ:\nassignment %s\nworkflow   %s", da, dw)
	}
	if ma, mw := a.memory("maya"), w.memory("maya"); len(ma) != len(mw) {
		t.Errorf("memory: assignment %d entries, workflow %d", len(ma), len(mw))
	}
	if got := paths(wr); !slices.Equal(got, []string{"gather", "reason", "validate", "act"}) {
		t.Errorf("steps %v", got)
	}
	if len(wr.AgentRuns) != 1 {
		t.Fatalf("engine runs %v, want one", wr.AgentRuns)
	}
	er, err := w.orch.Runs().Get(w.ctx, wr.AgentRuns[0])
	if err != nil {
		t.Fatal(err)
	}
	mustStatus(t, er, agent.StatusSucceeded)
	if er.Assignment != DailyDashboardID || er.WorkflowRunID == nil || *er.WorkflowRunID != wr.ID {
		t.Errorf("engine run %+v", er)
	}
	if got, want := phaseNames(er), phaseNames(run); !slices.Equal(got, want) {
		t.Errorf("workflow phases %v, assignment phases %v", got, want)
	}
	if string(er.Output) != string(run.Output) {
		t.Errorf("engine run output differs from the assignment's")
	}
}

func phaseNames(r agent.Run) []string {
	var out []string
	for _, p := range r.Timings {
		out = append(out, p.Phase)
	}
	return out
}

func paths(r workflow.Run) []string {
	var out []string
	for _, s := range r.Steps {
		out = append(out, s.Path)
	}
	return out
}

// An attempt stopped while the model reasons (the process went away) is
// continued by the next process from the reason step: gather is not run
// again, the stopped engine run stays linked as interrupted.
func TestDailyDashboardWorkflowContinuesAfterAnInterruptedAttempt(t *testing.T) {
	srv := llmtest.New(t, llmtest.Reply{Hang: true})
	model, err := llm.NewOpenAI(llm.OpenAIConfig{BaseURL: srv.URL(), APIKey: "k", Model: "fake"})
	if err != nil {
		t.Fatal(err)
	}
	f := newFixture(t, fixtureOpts{model: model})
	f.household()
	rt := f.workflows(t)
	r, err := rt.Start(f.ctx, workflow.StartRequest{Workflow: DailyDashboardWorkflowID, Member: "maya"})
	if err != nil {
		t.Fatal(err)
	}
	testkit.WaitFor(t, testkit.Patience, "the model to be asked", func() bool { return len(srv.ChatRequests()) > 0 })
	// The process stops: the engine's runs end, then the workflow runtime.
	if err := f.orch.Close(f.ctx); err != nil {
		t.Fatal(err)
	}
	if err := rt.Close(f.ctx); err != nil {
		t.Fatal(err)
	}
	mid, _ := rt.Get(f.ctx, r.ID)
	if mid.Status != workflow.StatusRunning {
		t.Fatalf("after the stop the run is %s (%s)", mid.Status, mid.Error)
	}

	// The next process: a new engine (no model now: the heuristic coach)
	// marks the stopped engine run interrupted, the runtime continues.
	orch, err := agent.NewOrchestrator(f.db, agent.Runtimes{Heuristic: llm.Heuristic{}}, memberList{f.db}, nil, nil,
		agent.Options{Now: f.clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = orch.Close(context.Background()) })
	if err := orch.Register(New(f.deps)); err != nil {
		t.Fatal(err)
	}
	if _, err := orch.MarkInterrupted(f.ctx); err != nil {
		t.Fatal(err)
	}
	f.orch = orch
	rt2 := f.workflows(t)
	if n, err := rt2.Recover(f.ctx); err != nil || n != 1 {
		t.Fatalf("recover %d %v", n, err)
	}
	ctx, cancel := context.WithTimeout(f.ctx, 20*time.Second)
	defer cancel()
	done, err := rt2.Wait(ctx, r.ID)
	if err != nil || done.Status != workflow.StatusSuccess {
		t.Fatalf("continued run: %s %v (%s)", done.Status, err, done.Error)
	}
	gather, _ := done.Step("gather")
	reason, _ := done.Step("reason")
	if gather.Attempts != 1 || reason.Attempts != 2 {
		t.Errorf("attempts gather %d reason %d, want 1 and 2", gather.Attempts, reason.Attempts)
	}
	if len(done.AgentRuns) != 2 || !slices.Equal(reason.AgentRuns, done.AgentRuns) {
		t.Fatalf("engine runs %v, reason step's %v", done.AgentRuns, reason.AgentRuns)
	}
	first, _ := orch.Runs().Get(f.ctx, done.AgentRuns[0])
	second, _ := orch.Runs().Get(f.ctx, done.AgentRuns[1])
	mustStatus(t, first, agent.StatusInterrupted)
	if second.Status != agent.StatusSucceeded {
		t.Errorf("second attempt %s (%s)", second.Status, second.Error)
	}
	if f.today("maya").RunID != second.ID {
		t.Errorf("the document was written by run %d, want %d", f.today("maya").RunID, second.ID)
	}
}

// The weekly review summarises the week, waits for the member's tap and
// then changes the program's week and remembers the decision.
func TestWeeklyReview(t *testing.T) {
	for _, c := range []struct {
		choice, pattern string
		easierWeek      bool
	}{
		{ChoiceHarder, "mon,wed,fri,sat", false},
		{ChoiceEasier, "mon,wed", false},
		{ChoiceSame, "mon,wed,fri", false},
	} {
		t.Run(c.choice, func(t *testing.T) {
			f := newFixture(t, fixtureOpts{})
			f.household()
			rt := f.workflows(t)
			r := runWorkflow(t, rt, WeeklyReviewID, "maya")
			if r.Status != workflow.StatusSuspended {
				t.Fatalf("status %s: %s", r.Status, r.Error)
			}
			waiting := r.Waiting()
			if len(waiting) != 1 || waiting[0].Path != "ask" {
				t.Fatalf("waiting %+v", waiting)
			}
			var q workflow.Question
			if err := json.Unmarshal(waiting[0].Suspended, &q); err != nil {
				t.Fatal(err)
			}
			if q.Question != weeklyQuestion || !slices.Equal(q.Values, []string{"harder", "same", "easier"}) ||
				!strings.Contains(q.Context, "workout this week") || len(strings.Split(q.Context, "\n")) > maxSummaryLines {
				t.Errorf("question %+v", q)
			}
			if _, err := rt.Resume(f.ctx, r.ID, "ask", json.RawMessage(`{"choice":"`+c.choice+`"}`)); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(f.ctx, 10*time.Second)
			defer cancel()
			r, err := rt.Wait(ctx, r.ID)
			if err != nil || r.Status != workflow.StatusSuccess {
				t.Fatalf("after the answer: %s %v (%s)", r.Status, err, r.Error)
			}
			st, err := f.progs.Current(f.ctx, "maya")
			if err != nil || st.Pattern != c.pattern {
				t.Errorf("pattern %q (%v), want %q", st.Pattern, err, c.pattern)
			}
			mem := f.memory("maya")
			if e, ok := mem[keyWeeklyReview]; !ok || !strings.Contains(e.Value, "asked for "+c.choice) || e.ExpiresAt == nil {
				t.Errorf("memory %+v", mem[keyWeeklyReview])
			}
			if len(r.AgentRuns) != 2 {
				t.Errorf("engine runs %v: one attempt before the question, one after", r.AgentRuns)
			}
		})
	}
}

func TestWeeklyReviewPatterns(t *testing.T) {
	for in, want := range map[string][2]string{
		"mon,wed,fri": {"mon,wed,fri,sat", "mon,wed"},
		"daily":       {"", "mon,tue,wed,thu,fri,sat"},
		"mon,thu":     {"mon,thu,sat", ""},
		"weekdays":    {"mon,tue,wed,thu,fri,sat", "mon,tue,wed,thu"},
	} {
		p, _ := program.ParsePattern(in)
		more, ok := morePattern(p)
		if got := more.String(); ok != (want[0] != "") || ok && got != want[0] {
			t.Errorf("harder %s: %s %v, want %q", in, got, ok, want[0])
		}
		less, ok := lessPattern(p)
		if got := less.String(); ok != (want[1] != "") || ok && got != want[1] {
			t.Errorf("easier %s: %s %v, want %q", in, got, ok, want[1])
		}
	}
}
