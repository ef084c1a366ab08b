package coach

import (
	"slices"
	"strings"
	"testing"

	"hearth/internal/agent"
	"hearth/internal/dashboard"
	"hearth/internal/health"
)

// TestPromptPriorityDecides (issue 23 point 7): with a questioned weigh-in,
// an injury due a follow-up, a missed goal date, rest days and no
// onboarding note, the document holds three prompts, chosen by
// PromptPriority: the reading, the injury, the goal date.
func TestPromptPriorityDecides(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	f.member(health.Member{ID: "ada", Name: "Ada"})
	for d := 14; d >= 1; d-- {
		f.weigh("ada", d, 70)
	}
	f.weigh("ada", 0, 7)
	f.workout("ada", 4, "walk", 30, "")
	due := f.at(5, 0)
	if _, err := f.db.AddGoal(f.ctx, health.Goal{MemberID: "ada", Kind: "custom", Description: "Run 5 km", TargetDate: &due}); err != nil {
		t.Fatal(err)
	}
	said := f.at(InjuryFollowUpDays+1, 8).Format("2006-01-02")
	if _, err := f.orch.Memory().Set(f.ctx, AgentID, "ada", keyInjury+"back", "sore back (said "+said+")", 0,
		agent.AdminActor("test")); err != nil {
		t.Fatal(err)
	}
	mustStatus(t, f.run("ada"), agent.StatusSucceeded)
	ids := promptIDs(f.today("ada").Document)
	want := []string{PromptReading, PromptInjury, PromptGoalDate}
	var got []string
	for _, id := range ids {
		got = append(got, promptClassOf(id))
	}
	if !slices.Equal(got, want) {
		t.Fatalf("prompts %v (classes %v), want the classes %v", ids, got, want)
	}
	if !strings.HasPrefix(ids[0], promptConfirmPrefix) {
		t.Fatalf("first prompt %s", ids[0])
	}
}

// TestByPriorityOrdersEveryClass: candidates found in any order come out
// in PromptPriority order, unknown ids last, ties in their found order.
func TestByPriorityOrdersEveryClass(t *testing.T) {
	ps := []dashboard.Prompt{{ID: promptOnboarding}, {ID: "someone-elses"}, {ID: dailyPrefix + "sleep-20260218"},
		{ID: promptBehind}, {ID: promptGoal}, {ID: promptGoalDatePrefix + "3-2026-02-01"}, {ID: promptInjuryPrefix + "knee-20260201"},
		{ID: promptConfirmPrefix + "20260218"}, {ID: promptConditionPrefix + "heart-20251101"}, {ID: promptCheckIn}, {ID: promptNext}}
	byPriority(ps)
	var got []string
	for _, p := range ps {
		got = append(got, p.ID)
	}
	want := []string{promptConfirmPrefix + "20260218", promptInjuryPrefix + "knee-20260201", promptConditionPrefix + "heart-20251101",
		promptGoalDatePrefix + "3-2026-02-01",
		promptGoal, promptNext, promptBehind, dailyPrefix + "sleep-20260218", promptCheckIn, promptOnboarding, "someone-elses"}
	if !slices.Equal(got, want) {
		t.Fatalf("order\n%v\nwant\n%v", got, want)
	}
}
