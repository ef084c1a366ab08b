package definition

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"hearth/internal/apperr"
)

func TestSaveInsertsVersionsAndRollbackRestoresThePrevious(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	v1 := f.save(def("writer", "You write v1."))
	v2, err := f.repo.Save(ctx, def("writer", "You write v2."), "admin", "warmer tone")
	if err != nil {
		t.Fatal(err)
	}
	if v1.Number != 1 || v2.Number != 2 || v2.ID <= v1.ID || v2.CreatedBy != "admin" || v2.ChangeNote != "warmer tone" {
		t.Fatalf("versions: %+v / %+v", v1, v2)
	}
	cur, err := f.repo.Active(ctx, "writer")
	if err != nil || cur.Number != 2 || cur.SystemPrompt != "You write v2." {
		t.Fatalf("active = %+v, %v", cur, err)
	}
	prev, err := f.repo.Rollback(ctx, "writer", "admin")
	if err != nil || prev.Number != 1 {
		t.Fatalf("rollback = %+v, %v", prev, err)
	}
	if cur, _ = f.repo.Active(ctx, "writer"); cur.Number != 1 || cur.SystemPrompt != "You write v1." {
		t.Fatalf("active after rollback = %+v", cur)
	}
	if _, err := f.repo.Rollback(ctx, "writer", "admin"); !apperr.Is(err, apperr.Conflict) {
		t.Fatalf("rolling back the only active version: %v", err)
	}
	hist, err := f.repo.History(ctx, "writer")
	if err != nil || len(hist) != 2 {
		t.Fatalf("history = %v, %v", hist, err)
	}
	if hist[0].Number != 2 || hist[0].Active || hist[0].DeactivatedBy != "admin" || hist[0].DeactivatedAt == nil || !hist[1].Active {
		t.Fatalf("history rows: %+v", hist)
	}
	// An edit after a rollback is version 3 and current.
	v3 := f.save(def("writer", "You write v3."))
	if cur, _ = f.repo.Active(ctx, "writer"); v3.Number != 3 || cur.Number != 3 {
		t.Fatalf("v3 = %d, active = %d", v3.Number, cur.Number)
	}
	if _, err := f.repo.Active(ctx, "nobody"); !apperr.Is(err, apperr.NotFound) {
		t.Fatalf("unknown agent: %v", err)
	}
	if _, err := f.repo.Version(ctx, "writer", 9); !apperr.Is(err, apperr.NotFound) {
		t.Fatalf("unknown version: %v", err)
	}
}

func TestSaveRoundTripsEveryField(t *testing.T) {
	f := newFixture(t)
	temp := 0.3
	d := Definition{
		AgentID: "planner", SystemPrompt: "Plan.", UserTemplate: "Plan for {{user.name}}: {{message}} {{member_profile}}",
		Model: "gpt-test", Temperature: &temp, MaxTokens: 500, MaxIterations: 3, MaxRetries: 2,
		Factories: []string{"memory"}, ToolIDs: []string{"get_weight", "send_update"}, ContextTypes: []string{ContextMemberProfile},
		OutputSchema:    map[string]any{"type": "object", "properties": map[string]any{"ok": map[string]any{"type": "boolean"}}},
		ValidationRules: []Rule{{Path: "ok", Op: OpEquals, Value: json.RawMessage("true"), Message: "must be ok"}},
		Hooks:           Hooks{Before: []HookRef{{Hook: "notify", Source: "message"}}, After: []HookRef{{Hook: "log_note"}}},
		ToolHooks:       map[string]Hooks{"send_update": {Before: []HookRef{{Hook: "notify", Source: "args.message"}}}},
	}
	f.save(def("helper", "Help."))
	d.SubAgents = []SubAgent{{Batch: 0, Key: "help", AgentID: "helper", Input: map[string]any{"x": "$result.ok"},
		Condition: []Rule{{Path: "ok", Op: OpTruthy}}, After: []HookRef{{Hook: "notify"}}}}
	f.save(d)
	got, err := f.repo.Active(context.Background(), "planner")
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(d)
	b, _ := json.Marshal(got.Definition)
	if string(a) != string(b) {
		t.Fatalf("round trip:\n%s\n%s", a, b)
	}
}

func TestCacheIsInvalidatedOnWrite(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.save(def("writer", "v1"))
	f.save(def("writer", "v2"))
	if v, _ := f.repo.Active(ctx, "writer"); v.SystemPrompt != "v2" {
		t.Fatalf("active = %q", v.SystemPrompt)
	}
	// Callers get copies: changing one does not change the cache.
	v, _ := f.repo.Active(ctx, "writer")
	v.ToolIDs = append(v.ToolIDs, "x")
	v.Hooks.After = []HookRef{{Hook: "x"}}
	if again, _ := f.repo.Active(ctx, "writer"); len(again.ToolIDs) != 0 || len(again.Hooks.After) != 0 {
		t.Fatalf("the cache was changed through a returned version: %+v", again)
	}
	// A change behind the repo's back is not seen while cached...
	if _, err := f.db.Write.Exec(`UPDATE agent_definitions SET is_active = 0 WHERE agent_id = 'writer' AND version = 2`); err != nil {
		t.Fatal(err)
	}
	if v, _ := f.repo.Active(ctx, "writer"); v.SystemPrompt != "v2" {
		t.Fatalf("cached active = %q, want v2 (served from cache)", v.SystemPrompt)
	}
	// ...but any write through the repo drops the cache at once.
	f.save(def("other", "x"))
	if v, _ := f.repo.Active(ctx, "writer"); v.SystemPrompt != "v1" {
		t.Fatalf("active after a write = %q, want v1", v.SystemPrompt)
	}
	f.save(def("writer", "v3"))
	if v, _ := f.repo.Active(ctx, "writer"); v.SystemPrompt != "v3" {
		t.Fatalf("active after save = %q", v.SystemPrompt)
	}
}

func TestDefinitionsTableIsAppendOnly(t *testing.T) {
	f := newFixture(t)
	f.save(def("writer", "v1"))
	if _, err := f.db.Write.Exec(`UPDATE agent_definitions SET system_prompt = 'edited' WHERE agent_id = 'writer'`); err == nil ||
		!strings.Contains(err.Error(), "append-only") {
		t.Fatalf("update in place: %v", err)
	}
	if _, err := f.db.Write.Exec(`DELETE FROM agent_definitions`); err == nil || !strings.Contains(err.Error(), "append-only") {
		t.Fatalf("delete: %v", err)
	}
}

func TestSaveRefusesInvalidDefinitionsAndKeepsTheCurrentVersion(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.save(def("helper", "Help."))
	good := def("writer", "You write v1.")
	good.SubAgents = []SubAgent{{Key: "h", AgentID: "helper"}}
	f.save(good)
	with := func(mod func(d *Definition)) Definition {
		d := def("writer", "You write v2.")
		mod(&d)
		return d
	}
	cases := []struct {
		name, field, want string
		d                 Definition
	}{
		{"bad JSON schema", "output_schema", "does not compile", with(func(d *Definition) {
			d.OutputSchema = map[string]any{"type": "objekt"}
		})},
		{"unknown tool", "tool_ids", `unknown tool "launch_rocket" (available: remember, forget, get_weight, send_update)`, with(func(d *Definition) {
			d.ToolIDs = []string{"get_weight", "launch_rocket"}
		})},
		{"cyclic sub-agents", "sub_agents", "cycle", func() Definition {
			d := def("helper", "Help v2.")
			d.SubAgents = []SubAgent{{Key: "back", AgentID: "writer"}}
			return d
		}()},
		{"self reference", "sub_agents", "cycle: writer → writer", with(func(d *Definition) {
			d.SubAgents = []SubAgent{{Key: "me", AgentID: "writer"}}
		})},
		{"unknown sub-agent", "sub_agents", `unknown agent "ghost"`, with(func(d *Definition) {
			d.SubAgents = []SubAgent{{Key: "g", AgentID: "ghost"}}
		})},
		{"duplicate keys", "sub_agents", "key is used twice", with(func(d *Definition) {
			d.SubAgents = []SubAgent{{Key: "h", AgentID: "helper"}, {Key: "h", AgentID: "helper", Batch: 1}}
		})},
		{"bad mapping", "sub_agents", "unknown reference", with(func(d *Definition) {
			d.SubAgents = []SubAgent{{Key: "h", AgentID: "helper", Input: map[string]any{"x": "$resutl.a"}}}
		})},
		{"bad condition", "sub_agents", "needs a value", with(func(d *Definition) {
			d.SubAgents = []SubAgent{{Key: "h", AgentID: "helper", Condition: []Rule{{Path: "a", Op: OpEquals}}}}
		})},
		{"unknown context", "context_types", `unknown context type "weather"`, with(func(d *Definition) {
			d.ContextTypes = []string{"weather"}
		})},
		{"unknown template variable", "user_template", "unknown variable {{mood}}", with(func(d *Definition) {
			d.UserTemplate = "Hello {{message}}, {{mood}}"
		})},
		{"undeclared context variable", "user_template", "unknown variable {{health_summary}}", with(func(d *Definition) {
			d.UserTemplate = "{{health_summary}}"
		})},
		{"malformed placeholder", "user_template", "malformed placeholder", with(func(d *Definition) {
			d.UserTemplate = "{{ .Gathered }}"
		})},
		{"unknown system prompt variable", "system_prompt", "unknown variable {{persona}}", with(func(d *Definition) {
			d.SystemPrompt = "You are {{persona}}. Be brief with {{member}}."
		})},
		{"malformed system prompt placeholder", "system_prompt", "malformed placeholder", with(func(d *Definition) {
			d.SystemPrompt = "You coach {{ user.name | upper }}."
		})},
		{"malformed rule", "validation_rules", "unknown op", with(func(d *Definition) {
			d.OutputSchema = map[string]any{"type": "object"}
			d.ValidationRules = []Rule{{Path: "a", Op: "contains"}}
		})},
		{"field rule on free text", "validation_rules", "needs an output schema", with(func(d *Definition) {
			d.ValidationRules = []Rule{{Path: "a", Op: OpTruthy}}
		})},
		{"unknown hook", "hooks", `unknown hook "sms"`, with(func(d *Definition) {
			d.Hooks.After = []HookRef{{Hook: "sms"}}
		})},
		{"tool hook on a tool it lacks", "tool_hooks", `"send_update" is not one of this agent's tools`, with(func(d *Definition) {
			d.ToolHooks = map[string]Hooks{"send_update": {Before: []HookRef{{Hook: "notify"}}}}
		})},
		{"no system prompt", "system_prompt", "is required", with(func(d *Definition) { d.SystemPrompt = " " })},
		{"iterations", "max_iterations", "between 1 and", with(func(d *Definition) { d.MaxIterations = 0 })},
		{"temperature", "temperature", "between 0 and 2", with(func(d *Definition) { t := 2.5; d.Temperature = &t })},
		{"agent id", "agent_id", "lowercase", Definition{AgentID: "Bad Id", SystemPrompt: "x", MaxIterations: 1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before, _ := f.repo.History(ctx, c.d.AgentID)
			_, err := f.repo.Save(ctx, c.d, "admin", "")
			var ae *apperr.Error
			if !apperr.Is(err, apperr.Invalid) || !errorsAs(err, &ae) {
				t.Fatalf("err = %v, want Invalid", err)
			}
			if !strings.Contains(ae.Fields[c.field], c.want) {
				t.Fatalf("fields[%s] = %q, want it to contain %q (all: %v)", c.field, ae.Fields[c.field], c.want, ae.Fields)
			}
			if !strings.Contains(ae.Message, c.field+": ") {
				t.Fatalf("message %q does not name %s", ae.Message, c.field)
			}
			after, _ := f.repo.History(ctx, c.d.AgentID)
			if len(after) != len(before) {
				t.Fatalf("a version was written: %d → %d", len(before), len(after))
			}
			if err := f.repo.Check(ctx, c.d); !apperr.Is(err, apperr.Invalid) {
				t.Fatalf("Check = %v", err)
			}
		})
	}
	if v, _ := f.repo.Active(ctx, "writer"); v.SystemPrompt != "You write v1." || v.Number != 1 {
		t.Fatalf("current writer = v%d %q", v.Number, v.SystemPrompt)
	}
	if v, _ := f.repo.Active(ctx, "helper"); v.SystemPrompt != "Help." {
		t.Fatalf("current helper = %q", v.SystemPrompt)
	}
}

func TestSaveRefusesSubAgentsDeeperThanTheLimit(t *testing.T) {
	f := newFixture(t)
	// a5 ← a4 ← … ← a0: five levels below a0 is allowed.
	f.save(def("a5", "leaf"))
	for i := 4; i >= 0; i-- {
		d := def("a"+string(rune('0'+i)), "level")
		d.SubAgents = []SubAgent{{Key: "next", AgentID: "a" + string(rune('1'+i))}}
		f.save(d)
	}
	d := def("top", "one too many")
	d.SubAgents = []SubAgent{{Key: "next", AgentID: "a0"}}
	_, err := f.repo.Save(context.Background(), d, "admin", "")
	if !apperr.Is(err, apperr.Invalid) || !strings.Contains(err.Error(), "6 levels deep (limit 5): top → a0 → a1 → a2 → a3 → a4 → a5") {
		t.Fatalf("err = %v", err)
	}
}

func TestTemplateMayUseKeysItsParentsMapIn(t *testing.T) {
	f := newFixture(t)
	child := def("plan-message", "Write the SMS.")
	child.UserTemplate = "Name: {{userName}}\nPlan: {{overview}} ({{overview.days}} days)"
	if _, err := f.repo.Save(context.Background(), child, "admin", ""); err == nil {
		t.Fatal("a template with unknown variables was saved before any parent maps them")
	}
	f.save(def("plan-message", "Write the SMS."))
	parent := def("plan-generate", "Plan.")
	parent.SubAgents = []SubAgent{{Key: "message", AgentID: "plan-message", Input: map[string]any{"userName": "$user.name", "overview": "$result"}}}
	f.save(parent)
	f.save(child) // now the parent supplies userName and overview
	// The coach's caller-supplied variables come from Registry.Vars.
	coach := def(testCoachID, "Coach.")
	coach.UserTemplate = "{{gathered}}"
	f.save(coach)
}

func TestListSummarizesAgents(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.save(def("b-agent", "x"))
	d := def("a-agent", "x")
	d.Model = "gpt-test"
	f.save(d)
	f.save(def("a-agent", "y"))
	if _, err := f.repo.Rollback(ctx, "a-agent", "boss"); err != nil {
		t.Fatal(err)
	}
	list, err := f.repo.List(ctx)
	if err != nil || len(list) != 2 {
		t.Fatalf("list = %v, %v", list, err)
	}
	a := list[0]
	if a.AgentID != "a-agent" || a.Version != 1 || a.Versions != 2 || a.Model != "gpt-test" || a.UpdatedBy != "boss" {
		t.Fatalf("a-agent = %+v", a)
	}
	if list[1].AgentID != "b-agent" || list[1].Version != 1 || list[1].UpdatedBy != "test" {
		t.Fatalf("b-agent = %+v", list[1])
	}
}

func TestDiffVersions(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	a := def("writer", "Line one.\nLine two.\nLine three.")
	f.save(a)
	b := a
	b.SystemPrompt = "Line one.\nLine 2.\nLine three.\nLine four."
	b.ToolIDs = []string{"get_weight"}
	f.save(b)
	v1, _ := f.repo.Version(ctx, "writer", 1)
	v2, _ := f.repo.Version(ctx, "writer", 2)
	var added, removed []string
	for _, l := range DiffVersions(v1, v2) {
		switch l.Op {
		case DiffAdd:
			added = append(added, l.Text)
		case DiffDel:
			removed = append(removed, l.Text)
		}
	}
	if strings.Join(removed, "|") != "Line two.|[]" || strings.Join(added, "|") != `Line 2.|Line four.|[|  "get_weight"|]` {
		t.Fatalf("removed %q, added %q", removed, added)
	}
}

func TestDiffIsALongestCommonSubsequence(t *testing.T) {
	got := Diff("a\nb\nc\nd\ne", "a\nx\nc\ne\nf")
	var b strings.Builder
	for _, l := range got {
		b.WriteString(string(l.Op) + l.Text + ",")
	}
	if b.String() != " a,-b,+x, c,-d, e,+f," {
		t.Fatalf("diff = %s", b.String())
	}
	if d := Diff("", "one"); len(d) != 1 || d[0].Op != DiffAdd {
		t.Fatalf("from empty = %v", d)
	}
	if d := Diff("same\n", "same"); len(d) != 1 || d[0].Op != DiffSame {
		t.Fatalf("same = %v", d)
	}
}

// A rollback may not bring back a version that lacks what the agent's
// assignments need: a version saved before the need was declared (here:
// by a registry without it) stays history, and the current one stays.
func TestRollbackRefusesAVersionMissingANeed(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.save(def("writer", "You write v1."))
	withSchema := def("writer", "You write v2.")
	withSchema.OutputSchema = map[string]any{"type": "object"}
	f.save(withSchema)
	reg := f.reg
	reg.Needs = map[string]func(Definition) []Need{"writer": func(d Definition) []Need {
		if d.OutputSchema == nil {
			return []Need{{Field: "output_schema", Message: "the writer needs an output schema"}}
		}
		return nil
	}}
	repo := NewRepo(f.db, reg)
	_, err := repo.Rollback(ctx, "writer", "admin")
	if !apperr.Is(err, apperr.Conflict) || !strings.Contains(err.Error(), "the writer needs an output schema") {
		t.Fatalf("rollback to a version without the schema: %v", err)
	}
	if cur, err := repo.Active(ctx, "writer"); err != nil || cur.Number != 2 {
		t.Fatalf("active after the refused rollback = %+v, %v", cur, err)
	}
}
