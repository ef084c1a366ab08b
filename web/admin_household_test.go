package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

func TestAdminHouseholdCreateEditAndGoals(t *testing.T) {
	env := newAdminEnv(t)
	ctx := context.Background()

	// Bad input: inline errors, typed values kept, nothing stored.
	resp, body := env.form("/admin/household", url.Values{"id": {"Bad Id!"}, "name": {"Cleo"}, "unit": {"lb"},
		"goal_weight": {"150"}, "calories": {"9"}}, false)
	if resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("bad member: %d", resp.StatusCode)
	}
	for _, want := range []string{"lowercase letters", "must be between 800 and 6000", `value="Cleo"`, `value="150"`} {
		if !strings.Contains(body, want) {
			t.Errorf("bad-member page lacks %q", want)
		}
	}
	if _, err := env.db.Member(ctx, "cleo"); err == nil {
		t.Fatal("invalid member was stored")
	}
	// A taken id is reported on the field.
	resp, body = env.form("/admin/household", url.Values{"id": {"ada"}, "name": {"Ada again"}, "unit": {"kg"}}, false)
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, "already taken") {
		t.Fatalf("duplicate id: %d", resp.StatusCode)
	}

	// Good input: created, goal weight entered in lb stored in kg.
	resp, _ = env.form("/admin/household", url.Values{"id": {"cleo"}, "name": {"Cleo"}, "unit": {"lb"},
		"goal_weight": {"150"}, "calories": {"2000"}, "protein_g": {"110"}, "color": {"#aa3366"}}, false)
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/admin/household/cleo" {
		t.Fatalf("create: %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
	m, err := env.db.Member(ctx, "cleo")
	if err != nil || m.GoalWeightKg == nil || *m.GoalWeightKg < 68.03 || *m.GoalWeightKg > 68.05 || *m.Targets.Calories != 2000 {
		t.Fatalf("stored member: %+v %v", m, err)
	}
	// The edit page shows the goal back in the member's unit.
	if code, page := env.page("/admin/household/cleo"); code != 200 || !strings.Contains(page, `value="150"`) {
		t.Fatalf("edit page: %d", code)
	}

	// Goals: add one, refuse a bad kind, change status.
	resp, _ = env.form("/admin/household/cleo/goals", url.Values{"kind": {"workouts_per_week"}, "description": {"Train 3x a week"}, "target": {"3"}}, false)
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("add goal: %d", resp.StatusCode)
	}
	resp, body = env.form("/admin/household/cleo/goals", url.Values{"kind": {"fly"}, "description": {"x"}}, false)
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, "must be weight") {
		t.Fatalf("bad goal kind: %d", resp.StatusCode)
	}
	goals, err := env.db.Goals(ctx, "cleo", false)
	if err != nil || len(goals) != 1 {
		t.Fatalf("goals = %+v %v", goals, err)
	}
	resp, _ = env.form("/admin/household/cleo/goals/"+itoa(goals[0].ID), url.Values{"status": {"achieved"}}, false)
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("goal status: %d", resp.StatusCode)
	}
	if active, _ := env.db.Goals(ctx, "cleo", true); len(active) != 0 {
		t.Fatalf("achieved goal still active: %+v", active)
	}
}
