package definition

import (
	"testing"
)

func TestExtractJSONAndStrictSchemas(t *testing.T) {
	for in, want := range map[string]string{
		"  {\"a\":1} ":            `{"a":1}`,
		"```json\n{\"a\":1}\n```": `{"a":1}`,
		"```\n[1, 2]\n```  ":      `[1, 2]`,
		"no fence":                "no fence",
	} {
		if got := extractJSON(in); got != want {
			t.Errorf("extractJSON(%q) = %q, want %q", in, got, want)
		}
	}
	strict := map[string]any{"type": "object", "additionalProperties": false, "required": []any{"a"},
		"properties": map[string]any{"a": map[string]any{"type": "array", "items": map[string]any{
			"type": "object", "additionalProperties": false, "required": []any{"b"}, "properties": map[string]any{"b": map[string]any{"type": "string"}}}}}}
	if !strictCompatible(strict) {
		t.Error("a strict schema was judged loose")
	}
	for name, loose := range map[string]map[string]any{
		"optional property": {"type": "object", "additionalProperties": false, "properties": map[string]any{"a": map[string]any{}}},
		"open object":       {"type": "object", "properties": map[string]any{}},
		"free object":       {"type": "object"},
		"nested":            {"type": "array", "items": map[string]any{"type": "object"}},
	} {
		if strictCompatible(loose) {
			t.Errorf("%s: judged strict", name)
		}
	}
	if schemaName("plan:message/v2") != "plan_message_v2" {
		t.Errorf("schemaName = %q", schemaName("plan:message/v2"))
	}
}
