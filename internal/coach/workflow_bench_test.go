package coach_test

import (
	"context"
	"slices"
	"sort"
	"testing"
	"time"

	"hearth/internal/agent"
	"hearth/internal/agent/llm"
	"hearth/internal/coach"
	"hearth/internal/content"
	"hearth/internal/dashboard"
	"hearth/internal/health"
	"hearth/internal/program"
	"hearth/internal/store"
	"hearth/internal/store/storetest"
	"hearth/internal/workflow"
)

// benchCoach is one database with the coach on an orchestrator and the
// coach's workflows on a runtime over it.
type benchCoach struct {
	db  *store.DB
	o   *agent.Orchestrator
	wf  *workflow.Runtime
	ids []string
}

func newBenchCoach(b *testing.B) *benchCoach {
	ctx := context.Background()
	db := storetest.Open(b)
	cat := content.NewCatalog(db, nil)
	if _, err := cat.LoadDemo(ctx); err != nil {
		b.Fatal(err)
	}
	progs := program.New(db, cat, time.UTC)
	ids := benchHousehold(b, db, progs, 1)
	rt, err := llm.NewRuntimes(llm.OpenAIConfig{})
	if err != nil {
		b.Fatal(err)
	}
	o, err := agent.NewOrchestrator(db, rt, benchMembers(ids), nil, nil, agent.Options{Location: time.UTC, MaxConcurrentRuns: 1})
	if err != nil {
		b.Fatal(err)
	}
	deps := coach.Deps{DB: db, Catalog: cat, Programs: progs, Dashboards: dashboard.NewStore(db, nil, time.UTC), Location: time.UTC}
	if err := o.Register(coach.New(deps)); err != nil {
		b.Fatal(err)
	}
	p, err := o.Phases(coach.AgentID, coach.DailyDashboardID)
	if err != nil {
		b.Fatal(err)
	}
	w, err := coach.DailyDashboardWorkflow(p)
	if err != nil {
		b.Fatal(err)
	}
	wf := workflow.NewRuntime(db, workflow.Options{Engine: o})
	if err := wf.Register(w); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		_ = o.Close(ctx)
		_ = wf.Close(ctx)
	})
	return &benchCoach{db: db, o: o, wf: wf, ids: ids}
}

// weigh logs a new weigh-in, so the next run's input differs from the last
// one's and it plans afresh instead of reusing the last document.
func (bc *benchCoach) weigh(b *testing.B, kg float64) {
	if _, err := bc.db.AddWeight(context.Background(), health.WeightReading{MemberID: bc.ids[0],
		MeasuredAt: time.Now().UTC().Add(-time.Minute), WeightKg: kg}); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkDailyDashboardWorkflowVsAssignment runs the daily dashboard for
// one member as the assignment (on one database) and as the workflow (on
// another, with the same data), alternately, each after a new weigh-in so
// every run plans afresh, and reports the median time of each engine phase
// for both, and of the whole run: the workflow's steps are the
// assignment's phases, plus a stored checkpoint after each step.
//
//	go test -run '^$' -bench BenchmarkDailyDashboardWorkflowVsAssignment -benchtime 40x -count 3 ./internal/coach/
func BenchmarkDailyDashboardWorkflowVsAssignment(b *testing.B) {
	ctx := context.Background()
	as, wf := newBenchCoach(b), newBenchCoach(b)
	phases := map[string]map[string][]float64{"assignment": {}, "workflow": {}}
	total := map[string][]float64{}
	kg := 80.0
	for b.Loop() {
		kg -= 0.01
		as.weigh(b, kg)
		wf.weigh(b, kg)
		t0 := time.Now()
		r, err := as.o.Run(ctx, agent.Request{Agent: coach.AgentID, Assignment: coach.DailyDashboardID,
			Member: as.ids[0], Trigger: agent.TriggerSchedule})
		if err != nil || r.Status != agent.StatusSucceeded {
			b.Fatalf("assignment: %v %s %s", err, r.Status, r.Error)
		}
		total["assignment"] = append(total["assignment"], ms(time.Since(t0)))
		t0 = time.Now()
		wr, err := wf.wf.Start(ctx, workflow.StartRequest{Workflow: coach.DailyDashboardWorkflowID, Member: wf.ids[0]})
		if err == nil {
			wr, err = wf.wf.Wait(ctx, wr.ID)
		}
		if err != nil || wr.Status != workflow.StatusSuccess {
			b.Fatalf("workflow: %v %s %s", err, wr.Status, wr.Error)
		}
		total["workflow"] = append(total["workflow"], ms(time.Since(t0)))
		if g, ok := wr.Step("gather"); ok && len(total["workflow"]) == 1 {
			b.Logf("gathered checkpoint: %d bytes", len(g.Output))
		}
		er, err := wf.o.Runs().Get(ctx, wr.AgentRuns[0])
		if err != nil {
			b.Fatal(err)
		}
		for name, run := range map[string]agent.Run{"assignment": r, "workflow": er} {
			if run.ReusedFrom != nil {
				b.Fatalf("%s reused run %d: the input did not change", name, *run.ReusedFrom)
			}
			for _, p := range run.Timings {
				phases[name][p.Phase] = append(phases[name][p.Phase], p.MS)
			}
		}
	}
	for _, name := range []string{"assignment", "workflow"} {
		for _, p := range []string{agent.PhaseGather, agent.PhasePrompt, agent.PhaseReason, agent.PhaseValidate, agent.PhaseAct,
			agent.PhaseSaveMemory, agent.PhaseLoadMemory} {
			b.ReportMetric(median(phases[name][p]), name+"-"+p+"-ms")
		}
		b.ReportMetric(median(total[name]), name+"-total-ms")
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	sort.Float64s(s)
	return s[len(s)/2]
}
