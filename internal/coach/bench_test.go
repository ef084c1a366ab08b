package coach

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"hearth/internal/agent"
	"hearth/internal/health"
	"hearth/internal/store"
)

// seedHousehold adds n members with a month of weigh-ins, two meals a day,
// a workout every other day, and every third member on a program.
func seedHousehold(b *testing.B, f *fixture, n int) []string {
	b.Helper()
	ids := make([]string, n)
	err := f.db.Tx(f.ctx, func(tx *store.Tx) error {
		now := f.clk.Now()
		for i := range n {
			id := fmt.Sprintf("m%03d", i)
			ids[i] = id
			m := health.Member{ID: id, Name: id, Targets: health.Targets{Calories: ptr(2000.0), ProteinG: ptr(120.0)}}
			if err := store.CreateMemberTx(f.ctx, tx, now, &m); err != nil {
				return err
			}
			for d := 30; d >= 1; d-- {
				w := health.WeightReading{MemberID: id, MeasuredAt: f.at(d, 7), WeightKg: 80 - float64(30-d)*0.05}
				if _, err := store.InsertWeight(f.ctx, tx, now, &w); err != nil {
					return err
				}
				for _, h := range []int{12, 19} {
					ml := health.Meal{MemberID: id, EatenAt: f.at(d, h), Name: "meal", Calories: 900, ProteinG: 50 + float64(i%3)*10}
					if _, err := store.InsertMeal(f.ctx, tx, now, &ml); err != nil {
						return err
					}
				}
				if d%2 == 0 {
					wo := health.Workout{MemberID: id, StartedAt: f.at(d, 18), Type: "strength", DurationMin: 40}
					if _, err := store.InsertWorkout(f.ctx, tx, now, &wo); err != nil {
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
	for i, id := range ids {
		if i%3 == 0 {
			f.onProgram(id, "ember-core-30", 5, "daily", 3)
		}
	}
	return ids
}

// BenchmarkDailyDashboardHeuristic measures the assignment's own work per
// member (gather through the tools, prompt, heuristic plan, domain
// validation, act in a transaction), without the orchestrator's run
// bookkeeping.
func BenchmarkDailyDashboardHeuristic(b *testing.B) {
	for _, n := range []int{1, 100} {
		b.Run(fmt.Sprintf("members=%d", n), func(b *testing.B) {
			f := newFixture(b, fixtureOpts{})
			ids := seedHousehold(b, f, n)
			a := NewDailyDashboard(f.deps)
			box, err := agent.NewToolbox(NewTools(f.deps).All()...)
			if err != nil {
				b.Fatal(err)
			}
			now := f.clk.Now()
			b.ResetTimer()
			for b.Loop() {
				for _, id := range ids {
					mem := agent.NewMemory(AgentID, id, f.clk.Now)
					scope := agent.Scope{AgentID: AgentID, MemberID: id, Now: now, Memory: mem}
					g, err := a.Gather(f.ctx, &agent.Env{Scope: scope, Memory: mem, Tools: box})
					if err != nil {
						b.Fatal(err)
					}
					if _, err := a.Prompt(f.ctx, g, mem); err != nil {
						b.Fatal(err)
					}
					out, err := a.Plan(f.ctx, g, mem)
					if err != nil {
						b.Fatal(err)
					}
					raw, _ := json.Marshal(out)
					if errs := a.ValidateDomain(f.ctx, g, raw); len(errs) > 0 {
						b.Fatalf("invalid plan for %s: %v", id, errs)
					}
					err = f.db.Tx(f.ctx, func(tx *store.Tx) error {
						return a.Act(f.ctx, tx, &agent.ActEnv{Scope: scope, Gathered: g, Output: raw, Memory: mem, Source: agent.SourceHeuristic})
					})
					if err != nil {
						b.Fatal(err)
					}
				}
			}
			perMember := b.Elapsed() / time.Duration(b.N*n)
			b.ReportMetric(float64(perMember.Microseconds())/1000, "ms/member")
		})
	}
}
