package coach_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"hearth/internal/agent"
	"hearth/internal/agent/llm"
	"hearth/internal/coach"
	"hearth/internal/content"
	"hearth/internal/dashboard"
	"hearth/internal/health"
	"hearth/internal/live"
	"hearth/internal/program"
	"hearth/internal/store"
	"hearth/internal/store/storetest"
)

// benchHousehold creates n members, each with a month of weigh-ins, two
// meals a day and a workout every other day; every third member follows a
// demo program.
func benchHousehold(b *testing.B, db *store.DB, progs *program.Service, n int) []string {
	ctx := context.Background()
	now := time.Now().UTC()
	ids := make([]string, n)
	err := db.Tx(ctx, func(tx *store.Tx) error {
		for i := range n {
			id := fmt.Sprintf("m%03d", i)
			ids[i] = id
			cal, prot, goal := 2000.0, 120.0, 72.0
			m := health.Member{ID: id, Name: id, GoalWeightKg: &goal, Targets: health.Targets{Calories: &cal, ProteinG: &prot}}
			if err := store.CreateMemberTx(ctx, tx, now, &m); err != nil {
				return err
			}
			for d := 30; d >= 1; d-- {
				day := now.AddDate(0, 0, -d)
				w := health.WeightReading{MemberID: id, MeasuredAt: day.Add(-2 * time.Hour), WeightKg: 80 - float64(30-d)*0.05}
				if _, err := store.InsertWeight(ctx, tx, now, &w); err != nil {
					return err
				}
				for h, kcal := range []float64{700, 1100} {
					ml := health.Meal{MemberID: id, EatenAt: day.Add(time.Duration(h) * 6 * time.Hour), Name: "meal", Calories: kcal, ProteinG: 45}
					if _, err := store.InsertMeal(ctx, tx, now, &ml); err != nil {
						return err
					}
				}
				if d%2 == 0 {
					wo := health.Workout{MemberID: id, StartedAt: day.Add(-5 * time.Hour), Type: "strength", DurationMin: 40}
					if _, err := store.InsertWorkout(ctx, tx, now, &wo); err != nil {
						return err
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	start := now.AddDate(0, 0, -5).Format(time.DateOnly)
	for i, id := range ids {
		if i%3 == 0 {
			if _, err := progs.Declare(ctx, id, "ember-core-30", start, "daily"); err != nil {
				b.Fatal(err)
			}
		}
	}
	return ids
}

// BenchmarkDailyDashboardOrchestrated is the daily-dashboard assignment end
// to end as the scheduler fires it: the orchestrator (run rows, phase
// timings, schema and domain validation, heuristic runtime, act and memory
// save in one transaction, live progress events) over a real SQLite file,
// for a household of 1 and of 100 members, one run at a time. It
// complements BenchmarkDailyDashboardHeuristic, which measures the
// assignment's own phases without the orchestrator.
//
//	go test -run '^$' -bench BenchmarkDailyDashboardOrchestrated -benchmem ./internal/coach/
func BenchmarkDailyDashboardOrchestrated(b *testing.B) {
	for _, n := range []int{1, 100} {
		b.Run(fmt.Sprintf("members=%d", n), func(b *testing.B) {
			ctx := context.Background()
			db := storetest.Open(b)
			cat := content.NewCatalog(db, nil)
			if _, err := cat.LoadDemo(ctx); err != nil {
				b.Fatal(err)
			}
			progs := program.New(db, cat, time.UTC)
			ids := benchHousehold(b, db, progs, n)
			hub := live.NewHub()
			defer hub.Close()
			rt, err := llm.NewRuntimes(llm.OpenAIConfig{}) // heuristic only: no model time in the figure
			if err != nil {
				b.Fatal(err)
			}
			o, err := agent.NewOrchestrator(db, rt, benchMembers(ids), hub, nil,
				agent.Options{Location: time.UTC, MaxConcurrentRuns: 1})
			if err != nil {
				b.Fatal(err)
			}
			defer o.Close(ctx)
			if err := o.Register(coach.New(coach.Deps{DB: db, Catalog: cat, Programs: progs,
				Dashboards: dashboard.NewStore(db, hub, time.UTC), Location: time.UTC})); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				runs, err := o.RunEach(ctx, agent.Request{Agent: coach.AgentID, Assignment: coach.DailyDashboardID, Trigger: agent.TriggerSchedule})
				if err != nil {
					b.Fatal(err)
				}
				for _, r := range runs {
					if r.Status != agent.StatusSucceeded {
						b.Fatalf("run for %s: %s %s", r.Member, r.Status, r.Error)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/1000/float64(b.N*n), "ms/member")
		})
	}
}

type benchMembers []string

func (m benchMembers) MemberIDs(context.Context) ([]string, error) { return m, nil }
