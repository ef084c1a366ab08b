package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"hearth/internal/household"
	"hearth/internal/lifeplan"
)

// Admin → Household → a member → Life plan: behind the admin's login; it
// reads the plan, moves a goal with a reason (who "admin" in its history,
// a refused move shows the reason), links one of the member's fitness
// goals under a life goal and unlinks it; another member's fitness goal is
// refused; suggested evidence is shown and cannot be decided here.
func TestAdminLifePlanPage(t *testing.T) {
	env := newAdminEnv(t, withPassword("hunter2", ""))
	ctx, lp := context.Background(), env.app.LifePlan
	if code, _ := env.page("/admin/household/ada/lifeplan"); code != http.StatusSeeOther {
		t.Fatalf("the life plan page without login: %d, want a redirect to the login", code)
	}
	goal, err := lp.AddGoal(ctx, "ada", lifeplan.GoalInput{Name: "Hike with my kids"}, "member")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := lp.AddBelief(ctx, "ada", lifeplan.BeliefInput{If: "I train in the morning", Then: "I sleep better"})
	if _, err := lp.SuggestEvidence(ctx, "ada", b.ID, lifeplan.FromData, "Nine mornings, forty minutes more sleep"); err != nil {
		t.Fatal(err)
	}
	run, err := env.app.Household.AddGoal(ctx, "ada", household.GoalInput{Kind: "custom", Description: "Run a 10k"})
	if err != nil {
		t.Fatal(err)
	}
	bos, err := env.app.Household.AddGoal(ctx, "bo", household.GoalInput{Kind: "custom", Description: "Bo's swim"})
	if err != nil {
		t.Fatal(err)
	}
	resp, _ := env.form("/admin/login", url.Values{"password": {"hunter2"}, "next": {"/admin/household"}}, false)
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("login: %d", resp.StatusCode)
	}
	for _, p := range []string{"/admin/household", "/admin/household/ada"} {
		if _, page := env.page(p); !strings.Contains(page, `href="/admin/household/ada/lifeplan"`) {
			t.Fatalf("%s does not link the member's life plan", p)
		}
	}
	_, page := env.page("/admin/household/ada/lifeplan")
	for _, want := range []string{"Hike with my kids", "Nine mornings, forty minutes more sleep", "waiting for", `<option value="considered">`,
		`<option value="` + strconv.FormatInt(run.ID, 10) + `">Run a 10k</option>`} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	if strings.Contains(page, "/evidence/") || strings.Contains(page, "Bo's swim") {
		t.Error("the admin page decides evidence, or offers another member's fitness goal")
	}

	move := "/admin/household/ada/lifeplan/goals/" + strconv.FormatInt(goal.ID, 10)
	if resp, body := env.form(move, url.Values{"to": {"achieved"}, "reason": {"done"}}, false); resp.StatusCode != http.StatusConflict ||
		!strings.Contains(body, "A goal cannot move from dream to achieved") {
		t.Fatalf("dream → achieved: %d", resp.StatusCode)
	}
	if resp, body := env.form(move, url.Values{"to": {"considered"}}, false); resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, "Reason is required.") {
		t.Fatalf("without a reason: %d", resp.StatusCode)
	}
	if resp, _ := env.form(move, url.Values{"to": {"considered"}, "reason": {"Spring looks possible"}}, false); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("dream → considered: %d", resp.StatusCode)
	}
	h, err := lp.GoalHistory(ctx, "ada", goal.ID)
	if err != nil || len(h) != 2 || h[1].To != lifeplan.Considered || h[1].By != "admin" || h[1].Reason != "Spring looks possible" {
		t.Fatalf("history = %+v (%v)", h, err)
	}
	if _, page := env.page("/admin/household/ada/lifeplan?saved=move"); !strings.Contains(page, "dream → considered: Spring looks possible (admin,") {
		t.Error("the page does not show the goal's history")
	}

	link := move + "/link"
	if resp, body := env.form(link, url.Values{"fitness_goal": {strconv.FormatInt(bos.ID, 10)}}, false); resp.StatusCode != http.StatusNotFound ||
		!strings.Contains(body, "No fitness goal") {
		t.Fatalf("linking Bo's fitness goal: %d", resp.StatusCode)
	}
	if resp, _ := env.form(link, url.Values{"fitness_goal": {strconv.FormatInt(run.ID, 10)}}, false); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("link: %d", resp.StatusCode)
	}
	if gs, _ := lp.Goals(ctx, "ada"); len(gs[0].FitnessGoalIDs) != 1 || gs[0].FitnessGoalIDs[0] != run.ID {
		t.Fatalf("links = %+v", gs[0].FitnessGoalIDs)
	}
	if _, page := env.page("/admin/household/ada/lifeplan"); !strings.Contains(page, `<ul class="lp-fitness"><li>Run a 10k`) {
		t.Error("the linked fitness goal is not under its life goal")
	}
	unlink := "/admin/household/ada/lifeplan/fitness/" + strconv.FormatInt(run.ID, 10) + "/unlink"
	if resp, _ := env.form(unlink, nil, false); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("unlink: %d", resp.StatusCode)
	}
	if gs, _ := lp.Goals(ctx, "ada"); len(gs[0].FitnessGoalIDs) != 0 {
		t.Fatalf("links after unlink = %+v", gs[0].FitnessGoalIDs)
	}
	if resp, _ := env.form(unlink, nil, false); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("unlink again: %d", resp.StatusCode)
	}
	// Bo's page does not reach Ada's goal.
	if resp, _ := env.form("/admin/household/bo/lifeplan/goals/"+strconv.FormatInt(goal.ID, 10), url.Values{"to": {"abandoned"}, "reason": {"x"}}, false); resp.StatusCode != http.StatusNotFound {
		t.Fatalf("Bo's URL moved Ada's goal: %d", resp.StatusCode)
	}
}
