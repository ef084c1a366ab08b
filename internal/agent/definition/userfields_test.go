package definition

import (
	"context"
	"testing"

	"hearth/internal/apperr"
)

// A template may name only the member fields there are, and a field error
// names them: {{user.favourite_food}} was saved, and the coach's daily
// runs then used its built-in prompt instead of the admin's. An agent
// whose own code renders its prompts (OwnTemplates: the coach) may name
// only its own variables, its user fields among them. Checked by
// accepting every user.<field> path again (as before): the refusals are
// not made.
func TestSaveRefusesUnknownMemberFields(t *testing.T) {
	f := newFixture(t)
	f.reg.UserFields = []string{"id", "name", "unit", "targets"}
	f.reg.Vars = map[string][]string{testCoachID: {"member", "data", "user.id", "user.name", "user.unit"}}
	f.reg.OwnTemplates = map[string]bool{testCoachID: true}
	f.repo = NewRepo(f.db, f.reg)
	ctx := context.Background()
	for _, c := range []struct {
		agent, field, text string
		want               string // the field error; "" = saved
	}{
		{"greeter", "user_template", "Hello {{user.favourite_food}}",
			"unknown member field {{user.favourite_food}}: the member's fields are {{user.id}}, {{user.name}}, {{user.unit}}, {{user.targets}}"},
		{"greeter", "system_prompt", "Greet {{user.name}}: {{user.favourite_food.kind}}",
			"unknown member field {{user.favourite_food.kind}}: the member's fields are {{user.id}}, {{user.name}}, {{user.unit}}, {{user.targets}}"},
		{"greeter", "user_template", "{{user.name}} aims for {{user.targets.calories}} kcal: {{message}}", ""},
		{testCoachID, "system_prompt", "Coach {{user.name}}, who loves {{user.favourite_food}}.",
			"unknown member field {{user.favourite_food}}: the member's fields are {{user.id}}, {{user.name}}, {{user.unit}}"},
		{testCoachID, "system_prompt", "Coach {{user.name}} on {{now}}.",
			"unknown variable {{now}}: this agent's runs fill only {{member}}, {{data}}, {{user.id}}, {{user.name}}, {{user.unit}}"},
		{testCoachID, "user_template", "{{member}} ({{user.unit}}): {{data}}", ""},
	} {
		d := def(c.agent, "Help.")
		if c.field == "system_prompt" {
			d.SystemPrompt = c.text
		} else {
			d.UserTemplate = c.text
		}
		_, err := f.repo.Save(ctx, d, "test", "")
		if c.want == "" {
			if err != nil {
				t.Errorf("%s %q: %v, want it saved", c.agent, c.text, err)
			}
			continue
		}
		ae := apperr.As(err)
		if ae == nil || ae.Code != apperr.Invalid || ae.Fields[c.field] != c.want {
			t.Errorf("%s %q:\n got %v\nwant %s: %s", c.agent, c.text, err, c.field, c.want)
		}
	}
}
