package coach

import (
	"strings"
	"testing"

	"hearth/internal/agent"
	"hearth/internal/dashboard"
	"hearth/internal/health"
)

// The coach quotes the board's figures as the kiosk writes them and
// records each quote, so the screen can bring it up to date: the goal ETA
// and this week's workouts too (issue 30: both went stale after a
// weigh-in or a walk). Its calls to action carry their subject fields.
func TestCoachQuotesETAAndWorkoutsAsTheBoardWritesThem(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	goal := 65.0
	f.member(health.Member{ID: "ada", Name: "Ada", GoalWeightKg: &goal})
	for d := 28; d >= 1; d-- {
		f.weigh("ada", d, 75-0.1*float64(28-d))
	}
	f.workout("ada", 2, "run", 30, "")
	f.workout("ada", 1, "walk", 40, "")
	mustStatus(t, f.run("ada"), agent.StatusSucceeded)
	st := f.today("ada")
	quoted := map[string]string{}
	for _, q := range st.Quotes {
		quoted[q.Fact] = q.Text
	}
	doc := st.Document.Coach
	texts := doc.Briefing + " | " + strings.Join(doc.Feedback, " | ")
	for _, fact := range []string{dashboard.FactWeightCurrent, dashboard.FactWeightETA, dashboard.FactWorkoutsThisWeek} {
		if quoted[fact] == "" || !strings.Contains(texts, quoted[fact]) {
			t.Errorf("fact %s not quoted (quotes %v) in %q", fact, quoted, texts)
		}
	}
	if got := quoted[dashboard.FactWorkoutsThisWeek]; got != "2 workouts" {
		t.Errorf("workouts quoted as %q", got)
	}
	for _, c := range doc.CTA {
		if c.Record == "" || c.Day == "" || c.Macro == "" {
			t.Errorf("CTA %q without its subject fields: %+v", c.Message, c)
		}
	}
}
