package coach

import (
	"strings"
	"testing"
	"time"

	"hearth/internal/agent"
	"hearth/internal/agent/llm/llmtest"
	"hearth/internal/health"
)

// TestMissedGoalDateAskedAndReset (issue 23 point 4): a goal whose date
// passed is raised with a prompt through the real daily-dashboard run, the
// date is among the model's facts, and "A new date in 8 weeks" sets it.
func TestMissedGoalDateAskedAndReset(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	f.member(health.Member{ID: "ken", Name: "Ken"})
	due := f.at(10, 0)
	g, err := f.db.AddGoal(f.ctx, health.Goal{MemberID: "ken", Kind: "custom", Description: "Run 5 km", TargetDate: &due})
	if err != nil {
		t.Fatal(err)
	}
	mustStatus(t, f.run("ken"), agent.StatusSucceeded)
	id := ""
	for _, p := range f.today("ken").Document.Coach.Prompts {
		if strings.HasPrefix(p.ID, promptGoalDatePrefix) && strings.Contains(p.Question, "Run 5 km") {
			id = p.ID
		}
	}
	if id == "" {
		t.Fatalf("no missed-date prompt among %v", promptIDs(f.today("ken").Document))
	}

	f.answer("ken", id, optGoalDate8Weeks, "tap")
	mustStatus(t, f.run("ken"), agent.StatusSucceeded)
	goals, err := f.db.Goals(f.ctx, "ken", true)
	if err != nil {
		t.Fatal(err)
	}
	want := f.clk.Now().AddDate(0, 0, 56).Format(time.DateOnly)
	if len(goals) != 1 || goals[0].ID != g.ID || goals[0].TargetDate == nil || goals[0].TargetDate.Format(time.DateOnly) != want {
		t.Fatalf("goals after the answer: %+v, want the date %s", goals, want)
	}
	for _, p := range f.today("ken").Document.Coach.Prompts {
		if strings.HasPrefix(p.ID, promptGoalDatePrefix) {
			t.Fatalf("still asked: %q", p.Question)
		}
	}
}

// TestModelSeesGoalTargetDates: the goal's target date, and that it
// passed, are among the facts a model is given.
func TestModelSeesGoalTargetDates(t *testing.T) {
	f, srv := modelFixture(t)
	f.member(health.Member{ID: "ken", Name: "Ken"})
	due := f.at(10, 0)
	if _, err := f.db.AddGoal(f.ctx, health.Goal{MemberID: "ken", Kind: "custom", Description: "Run 5 km", TargetDate: &due}); err != nil {
		t.Fatal(err)
	}
	doc := modelDoc("local:stretch-full-body-10", "10-Minute Full-Body Stretch", 10, "A quiet day.")
	srv.Push(llmtest.JSON(doc, 900, 300))
	mustStatus(t, f.run("ken"), agent.StatusSucceeded)
	user := srv.ChatRequests()[0].LastMessage().Content
	for _, want := range []string{"Goal target date: \"Run 5 km\" by " + due.Format(time.DateOnly), "Missed goal date: \"Run 5 km\""} {
		if !strings.Contains(user, want) {
			t.Fatalf("the model's prompt lacks %q:\n%s", want, user)
		}
	}
}
