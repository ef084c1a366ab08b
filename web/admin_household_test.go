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

// A member's role (what the kiosk assistant may do for them): chosen on
// the new-member and edit forms (adult when not given), refused when not
// a role, shown as a badge for children and guests, and read through the
// API.
func TestAdminMemberRole(t *testing.T) {
	env := newAdminEnv(t)
	ctx := context.Background()
	_, body := env.page("/admin/household")
	mustContain(t, "the new-member form", body, `<select name="role"`, `<option value="adult">Adult</option>`, // first: a browser selects it
		`<option value="guest">Guest</option>`, `What the home assistant may do for them: <a href="/admin/policies">Admin → Policies</a>`)

	resp, _ := env.form("/admin/household", url.Values{"id": {"cleo"}, "name": {"Cleo"}, "unit": {"kg"}, "role": {"child"}}, false)
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("create a child: %d", resp.StatusCode)
	}
	if m, err := env.db.Member(ctx, "cleo"); err != nil || m.Role != "child" {
		t.Fatalf("cleo: %+v %v", m, err)
	}
	if m, _ := env.db.Member(ctx, "ada"); m.Role != "adult" {
		t.Fatalf("a member made before roles: %q", m.Role)
	}
	resp, body = env.form("/admin/household", url.Values{"id": {"dan"}, "name": {"Dan"}, "unit": {"kg"}, "role": {"boss"}}, false)
	if resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("an unknown role: %d", resp.StatusCode)
	}
	mustContain(t, "an unknown role", body, "must be adult, child or guest", `value="Dan"`)
	if _, err := env.db.Member(ctx, "dan"); err == nil {
		t.Fatal("a member with an unknown role was stored")
	}

	_, body = env.page("/admin/household/cleo")
	mustContain(t, "the edit form", body, `<option value="child" selected>Child</option>`)
	resp, _ = env.form("/admin/household/bo", url.Values{"name": {"bo"}, "unit": {"kg"}, "role": {"guest"}}, false)
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("make bo a guest: %d", resp.StatusCode)
	}
	resp, body = env.form("/admin/household/bo", url.Values{"name": {"Bo"}, "unit": {"kg"}, "role": {"<b>x</b>"}}, false)
	if resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("edit to an unknown role: %d", resp.StatusCode)
	}
	mustContain(t, "edit to an unknown role", body, "must be adult, child or guest", `value="Bo"`)
	if m, _ := env.db.Member(ctx, "bo"); m.Role != "guest" || m.Name != "bo" {
		t.Fatalf("a refused edit changed bo: %+v", m)
	}

	_, body = env.page("/admin/household")
	mustContain(t, "the list", body, `<span class="badge role-badge">Child</span>`, `<span class="badge role-badge">Guest</span>`)
	if n := strings.Count(body, "role-badge"); n != 2 {
		t.Errorf("%d role badges, want 2 (adults have none)", n)
	}

	code, out := env.api("GET", "/api/v1/members", "")
	roles := map[string]any{}
	for _, m := range out["members"].([]any) {
		roles[m.(map[string]any)["id"].(string)] = m.(map[string]any)["role"]
	}
	if code != 200 || roles["ada"] != "adult" || roles["bo"] != "guest" || roles["cleo"] != "child" {
		t.Fatalf("members API: %d %v", code, roles)
	}
}
