package talos_test

import (
	"strings"
	"testing"
	"time"

	"hearth/internal/apperr"
	"hearth/internal/health"
	"hearth/internal/talos"
)

func at(h, m int) time.Time { return time.Date(2026, 11, 28, h, m, 0, 0, time.UTC) }

func temp(v float64) *float64 { return &v }

// TestEvaluateDecidesInOrder: tool, entity, quiet hours, rate, then
// confirmation, each decision naming its rule.
func TestEvaluateDecidesInOrder(t *testing.T) {
	p := talos.DefaultPolicy()
	call := func(entity, service string) talos.Call {
		return talos.Call{Tool: talos.ToolCallService, Entity: entity, Service: service, Action: true}
	}
	cases := []struct {
		name   string
		role   health.Role
		call   talos.Call
		now    time.Time
		recent int
		want   talos.Outcome
		rule   string
	}{
		{"child light", health.RoleChild, call("light.kitchen", "light.turn_on"), at(10, 0), 0, talos.Allowed, "child.allowed"},
		{"child lock", health.RoleChild, call("lock.front_door", "lock.unlock"), at(10, 0), 0, talos.Denied, "child.entities"},
		{"guest play", health.RoleGuest, talos.Call{Tool: talos.ToolPlay, Target: "TV", Action: true}, at(10, 0), 0, talos.Denied, "guest.tools"},
		{"child at 23:00", health.RoleChild, call("media_player.tv", "media_player.turn_on"), at(23, 0), 0, talos.Denied, "child.quiet_hours"},
		{"child at 06:59", health.RoleChild, call("light.kitchen", "light.turn_on"), at(6, 59), 0, talos.Denied, "child.quiet_hours"},
		{"child at 07:00", health.RoleChild, call("light.kitchen", "light.turn_on"), at(7, 0), 0, talos.Allowed, "child.allowed"},
		{"child reads at 23:00", health.RoleChild, talos.Call{Tool: talos.ToolGetState, Entity: "sensor.temp"}, at(23, 0), 0, talos.Allowed, "child.tools"},
		{"child rate", health.RoleChild, call("light.kitchen", "light.turn_on"), at(10, 0), 30, talos.Denied, "child.per_hour"},
		{"adult unlock", health.RoleAdult, call("lock.front_door", "lock.unlock"), at(23, 0), 0, talos.Waiting, "adult.confirm"},
		{"adult disarm", health.RoleAdult, call("alarm_control_panel.home", "alarm_control_panel.alarm_disarm"), at(10, 0), 0, talos.Waiting, "adult.confirm"},
		{"child 25 °C", health.RoleChild, talos.Call{Tool: talos.ToolCallService, Entity: "climate.hall", Service: "climate.set_temperature",
			Temperature: temp(25), Action: true}, at(10, 0), 0, talos.Waiting, "child.climate"},
		{"child 20 °C", health.RoleChild, talos.Call{Tool: talos.ToolCallService, Entity: "climate.hall", Service: "climate.set_temperature",
			Temperature: temp(20), Action: true}, at(10, 0), 0, talos.Allowed, "child.allowed"},
		{"no such role", "pet", call("light.kitchen", "light.turn_on"), at(10, 0), 0, talos.Denied, "pet.missing"},
	}
	for _, c := range cases {
		d := p.Evaluate(c.role, c.call, c.now, c.recent)
		if d.Outcome != c.want || d.Rule != c.rule {
			t.Errorf("%s: %s by %s, want %s by %s (%s)", c.name, d.Outcome, d.Rule, c.want, c.rule, d.Reason)
		}
	}
	if got := p.Offered(health.RoleGuest, talos.ToolNames); strings.Join(got, ",") != "home_list_entities,home_get_state,home_call_service" {
		t.Errorf("a guest is offered %v", got)
	}
}

// TestValidateNamesEachProblem: unknown tools and domains, bad times and
// ranges, a missing role, each under its field.
func TestValidateNamesEachProblem(t *testing.T) {
	if err := talos.DefaultPolicy().Validate(talos.ToolNames); err != nil {
		t.Fatalf("the default policy: %v", err)
	}
	p := talos.DefaultPolicy()
	child := p.Roles[health.RoleChild]
	child.Tools = append(child.Tools, "home_unlock_everything")
	child.Entities = append(child.Entities, "ligth.*", "no pattern")
	child.QuietHours = &talos.Window{From: "25:00", To: "07:00"}
	child.Climate = &talos.Range{Min: 24, Max: 18}
	p.Roles[health.RoleChild] = child
	delete(p.Roles, health.RoleGuest)
	err := p.Validate(talos.ToolNames)
	ae := apperr.As(err)
	if ae == nil {
		t.Fatalf("invalid policy saved: %v", err)
	}
	for field, want := range map[string]string{
		"roles.child.tools":            `"home_unlock_everything"`,
		"roles.child.entities":         `unknown domain "ligth"`,
		"roles.child.quiet_hours.from": "25:00",
		"roles.child.climate":          "min ≤ max",
		"roles.guest":                  "missing",
	} {
		if !strings.Contains(ae.Fields[field], want) {
			t.Errorf("%s = %q, want it to say %q", field, ae.Fields[field], want)
		}
	}
	if _, err := talos.Parse([]byte(`{"roles": {"adult": {"quiet_hour": {"from": "22:00", "to": "07:00"}}}}`)); err == nil {
		t.Error("a misspelt field was accepted")
	}
}
