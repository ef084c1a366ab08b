package llm_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"hearth/internal/agent"
	"hearth/internal/agent/llm"
	"hearth/internal/agent/llm/llmtest"
	"hearth/internal/dashboard"
)

// toolArgs is the kind of argument struct tools are built from (pointer =
// nullable, tags for the keywords).
type toolArgs struct {
	Days  *int     `json:"days" schema:"minimum=1,maximum=90"`
	Query string   `json:"query" schema:"minLength=1,maxLength=80"`
	Kind  *string  `json:"kind" enum:"cardio|strength"`
	When  *string  `json:"when" pattern:"^\\d{4}-\\d{2}-\\d{2}$"`
	Tags  []string `json:"tags" schema:"maxItems=3"`
}

func toolSchema(t *testing.T) map[string]any {
	t.Helper()
	tool := agent.NewTool("find", "find", func(_ context.Context, _ agent.Scope, _ toolArgs) (int, error) { return 0, nil })
	return tool.Parameters
}

// The full dashboard schema uses keywords OpenAI's strict mode refuses
// (minLength, maxLength); its openai-strict form passes the strict checker
// the OpenAI fake uses, keeps what the subset supports, and tells the
// model the rest in descriptions.
func TestOpenAIStrictDialectOfTheDashboardSchema(t *testing.T) {
	full := dashboard.SchemaMap()
	if msg := llmtest.StrictViolation(full); !strings.Contains(msg, "is not permitted") {
		t.Fatalf("the full schema should break the strict subset, got %q", msg)
	}
	out, strict := llm.DialectOpenAIStrict.Convert(full)
	if !strict {
		t.Fatal("the dashboard schema should convert to a strict schema")
	}
	if msg := llmtest.StrictViolation(out); msg != "" {
		t.Fatalf("converted schema refused: %s", msg)
	}
	b, _ := json.Marshal(out)
	s := string(b)
	for _, keep := range []string{`"$defs"`, `"$ref":"#/$defs/content"`, `"pattern":"^[a-z0-9_-]{1,40}$"`, `"maxItems":2`, `"minimum":1`, `"anyOf"`} {
		if !strings.Contains(s, keep) {
			t.Errorf("converted schema lost %s", keep)
		}
	}
	for _, gone := range []string{`"minLength"`, `"maxLength"`, `"$schema"`} {
		if strings.Contains(s, gone) {
			t.Errorf("converted schema still has %s", gone)
		}
	}
	briefing := out["properties"].(map[string]any)["coach"].(map[string]any)["properties"].(map[string]any)["briefing"].(map[string]any)
	if d, _ := briefing["description"].(string); !strings.Contains(d, "minLength 1") || !strings.Contains(d, "maxLength 800") {
		t.Errorf("briefing description = %q, want the moved length limits", d)
	}
	if _, ok := full["$schema"]; !ok {
		t.Error("Convert changed its input")
	}
}

// Every dialect's schema accepts what the full schema accepts (the
// dialects only loosen; Hearth's validation keeps the full one).
func TestDialectsAcceptValidDocuments(t *testing.T) {
	doc := `{"generated_at":"2026-02-18T04:00:00Z","curated":{"up_next":{"primary":{"content_id":"local:a","title":"A","duration":20,"program_context":"","reason":""},"alternates":[]},"playlist_suggestion":[]},
		"coach":{"briefing":"Hi.","cta":[],"prompts":[{"id":"p1","type":"text","question":"How?","options":[]}],"feedback":[]}}`
	for _, d := range []llm.Dialect{llm.DialectOpenAIStrict, llm.DialectGrammar, llm.DialectMinimal, llm.DialectFull} {
		out, _ := d.Convert(dashboard.SchemaMap())
		sch, err := agent.CompileSchema("d-"+string(d), out)
		if err != nil {
			t.Fatalf("%s: %v", d, err)
		}
		if errs := sch.Validate([]byte(doc)); len(errs) > 0 {
			t.Errorf("%s refuses a valid document: %v", d, errs)
		}
	}
}

// The grammar dialect is what llama.cpp's converter takes: refs inlined,
// type arrays as anyOf (older builds refuse them), bounds kept on integers.
func TestGrammarAndMinimalDialects(t *testing.T) {
	params := toolSchema(t)
	if probs := llmtest.GrammarProblems(params, true); len(probs) == 0 {
		t.Fatal("the tool schema has type arrays; an old llama.cpp should refuse it")
	}
	g, _ := llm.DialectGrammar.Convert(params)
	if probs := llmtest.GrammarProblems(g, true); len(probs) > 0 {
		t.Fatalf("grammar dialect still refused: %v", probs)
	}
	b, _ := json.Marshal(g)
	for _, keep := range []string{`"minLength":1`, `"maxItems":3`, `"minimum":1`, `"pattern":"^\\d{4}-\\d{2}-\\d{2}$"`} {
		if !strings.Contains(string(b), keep) {
			t.Errorf("grammar dialect lost %s: %s", keep, b)
		}
	}
	dash, _ := llm.DialectGrammar.Convert(dashboard.SchemaMap())
	db, _ := json.Marshal(dash)
	if strings.Contains(string(db), "$ref") || strings.Contains(string(db), "$defs") {
		t.Errorf("grammar dialect kept refs: %s", db)
	}

	m, strict := llm.DialectMinimal.Convert(params)
	if !strict {
		t.Fatal("minimal dialect should stay strict")
	}
	mb, _ := json.Marshal(m)
	for _, gone := range []string{`"minLength"`, `"maxItems"`, `"minimum"`, `"pattern"`, `"type":["`} {
		if strings.Contains(string(mb), gone) {
			t.Errorf("minimal dialect kept %s: %s", gone, mb)
		}
	}
	if msg := llmtest.StrictViolation(m); msg != "" {
		t.Errorf("minimal dialect breaks the strict subset: %s", msg)
	}
}

// A schema that cannot be strict (an optional property, an open map, an
// untyped value) is reported so, and sent without strict:true.
func TestNotStrictSchemas(t *testing.T) {
	for name, s := range map[string]map[string]any{
		"optional property": {"type": "object", "properties": map[string]any{"a": map[string]any{"type": "string"}}, "additionalProperties": false},
		"open map":          {"type": "object", "properties": map[string]any{}, "required": []any{}, "additionalProperties": map[string]any{"type": "string"}},
		"untyped value": {"type": "object", "properties": map[string]any{"v": map[string]any{}}, "required": []any{"v"},
			"additionalProperties": false},
		"root array": {"type": "array", "items": map[string]any{"type": "string"}},
	} {
		if _, strict := llm.DialectOpenAIStrict.Convert(s); strict {
			t.Errorf("%s: reported strict", name)
		}
	}
}

// BenchmarkDashboardRequestSchemas is what each request pays to derive
// the schemas it sends: the dashboard schema in the OpenAI dialect.
func BenchmarkDashboardRequestSchemas(b *testing.B) {
	full := dashboard.SchemaMap()
	for _, d := range []llm.Dialect{llm.DialectOpenAIStrict, llm.DialectGrammar} {
		b.Run(string(d), func(b *testing.B) {
			for b.Loop() {
				d.Convert(full)
			}
		})
	}
}
