package definition

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// seedFormat is a definition written with the seed's names (seeds/003: the
// agent_definitions columns and the TypeScript interfaces).
const seedFormat = `{
  "agentId": "profile-updater",
  "systemPrompt": "You keep the member's profile up to date.",
  "userPromptTemplate": "{{message}}",
  "maxIterations": 3,
  "maxRetries": 1,
  "toolIds": ["get_weight"],
  "contextTypes": ["USER_PROFILE", "DATE_CONTEXT"],
  "schemaJson": {"type": "object"},
  "validationRules": [{"field": "wasUpdated", "check": "truthy", "error": "say whether it changed"}],
  "subAgents": [{"batch": 0, "key": "summary", "agentId": "summer", "inputMapping": {"profile": "$result.profile"},
                 "postHook": "logNote"}],
  "hooks": {"pre": "notify", "post": ["logNote"]},
  "version": 3, "is_active": true, "created_by": "seed"
}`

// TestSeedFormatIsAcceptedAndNormalised: the seed's field names, hook
// names and context types are accepted on save and import, and stored
// under this package's names; a field given twice, and any other unknown
// field, is refused.
func TestSeedFormatIsAcceptedAndNormalised(t *testing.T) {
	f := newFixture(t)
	sum := def("summer", "Summarise.")
	f.save(sum)
	d, err := ParseDefinition(seedFormat)
	if err != nil {
		t.Fatal(err)
	}
	v, err := f.repo.Save(context.Background(), d, "admin", "pasted from the seed")
	if err != nil {
		t.Fatal(err)
	}
	got := v.Definition
	if got.AgentID != "profile-updater" || got.UserTemplate != "{{message}}" || got.MaxIterations != 3 ||
		strings.Join(got.ToolIDs, ",") != "get_weight" || got.OutputSchema["type"] != "object" {
		t.Fatalf("saved = %+v", got)
	}
	if strings.Join(got.ContextTypes, ",") != ContextMemberProfile+","+ContextDate {
		t.Errorf("context types = %v, want them normalised", got.ContextTypes)
	}
	if r := got.ValidationRules[0]; r.Path != "wasUpdated" || r.Op != OpTruthy || r.Message != "say whether it changed" {
		t.Errorf("rule = %+v", r)
	}
	s := got.SubAgents[0]
	if s.AgentID != "summer" || s.Input.(map[string]any)["profile"] != "$result.profile" || len(s.After) != 1 || s.After[0].Hook != HookLogNote {
		t.Errorf("sub-agent = %+v", s)
	}
	if len(got.Hooks.Before) != 1 || got.Hooks.Before[0].Hook != HookNotify || got.Hooks.After[0].Hook != HookLogNote {
		t.Errorf("hooks = %+v", got.Hooks)
	}
	// Stored under the canonical names: an export reads back as it was saved.
	raw, _ := json.Marshal(v)
	for _, seedName := range []string{"agentId", "validationRules", "inputMapping", `"pre"`} {
		if strings.Contains(string(raw), seedName) {
			t.Errorf("export %s still has %s", raw, seedName)
		}
	}
	var back Version
	if err := json.Unmarshal(raw, &back); err != nil || back.AgentID != "profile-updater" || back.Number != v.Number {
		t.Fatalf("export read back: %+v, %v", back.Definition, err)
	}

	for _, bad := range []struct{ doc, want string }{
		{`{"agentId": "x", "agent_id": "x", "systemPrompt": "s"}`, "name the same field"},
		{`{"agent_id": "x", "system_prompt": "s", "validation_rules": [{"path": "a", "kind": "truthy"}]}`, `unknown field "kind"`},
		{`{"agent_id": "x", "system_prompt": "s", "colour": "red"}`, `unknown field "colour"`},
	} {
		if _, err := ParseDefinition(bad.doc); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%s: %v, want %q", bad.doc, err, bad.want)
		}
	}
}
