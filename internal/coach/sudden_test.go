package coach

import (
	"strings"
	"testing"
	"time"

	"hearth/internal/agent"
	"hearth/internal/health"
)

// TestSuddenChangeIsQuestionedThenCounted: 3 kg up overnight after two
// steady weeks is not the current weight and is asked about ("weigh again
// tomorrow?"); the next day the same weight counts and the question goes.
func TestSuddenChangeIsQuestionedThenCounted(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	f.member(health.Member{ID: "finn", Name: "Finn"})
	for d := 15; d >= 2; d-- {
		f.weigh("finn", d, 70.1)
	}
	f.weigh("finn", 1, 73.1)
	v := f.tool("finn", "get_weight_trend", nil).(WeightView)
	if v.Current == nil || *v.Current != 70.1 || len(v.Questioned) != 1 || !v.Questioned[0].Sudden || v.Questioned[0].ChangeText != "+3.0 kg" {
		t.Fatalf("current %v, questioned %+v: want 70.1 kg and 73.1 kg questioned as a sudden change", v.Current, v.Questioned)
	}
	mustStatus(t, f.run("finn"), agent.StatusSucceeded)
	d := f.today("finn").Document
	if strings.Contains(d.Coach.Briefing, "73.1") {
		t.Fatalf("briefing presents the jump: %q", d.Coach.Briefing)
	}
	asked := false
	for _, p := range d.Coach.Prompts {
		asked = asked || strings.Contains(p.Question, "73.1 kg") && strings.Contains(p.Question, "Weigh again tomorrow")
	}
	if !asked {
		t.Fatalf("not asked: %v", promptIDs(d))
	}

	f.clk.Advance(24 * time.Hour)
	f.weigh("finn", 1, 73.0) // weighed again: the change holds
	v = f.tool("finn", "get_weight_trend", nil).(WeightView)
	if v.Current == nil || *v.Current != 73 || len(v.Questioned) != 0 {
		t.Fatalf("next day: current %v, questioned %+v: want 73 kg and nothing to ask", v.Current, v.Questioned)
	}
}
