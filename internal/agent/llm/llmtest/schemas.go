package llmtest

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// StrictViolation checks a schema as OpenAI's Structured Outputs do with
// strict:true and returns the first violation in OpenAI's words ("" if
// none). Rules: the "Supported schemas" section of
// https://platform.openai.com/docs/guides/structured-outputs (2025-26 text:
// root object, not anyOf; additionalProperties false and every property
// required on each object; supported keywords, the rest refused). Message
// texts are those of real 400 bodies: "In context=('properties', 'x'),
// 'minLength' is not permitted." (openai/openai-python#2274, with
// 'examples'), "'additionalProperties' is required to be supplied and to
// be false." (bytedance/trae-agent#173), "'required' is required to be
// supplied and to be an array including every key in properties. Missing
// 'k'." (sherifkozman/the-llm-council#9), "schema must have a 'type' key."
// (apexive/odoo-llm#212). The wording for a format outside the nine names
// is not from a source.
func StrictViolation(schema map[string]any) string {
	if _, ok := schema["anyOf"]; ok {
		return "schema must have type 'object' and not have 'oneOf'/'anyOf'/'allOf'/'enum'/'not' at the top level. Found 'anyOf'."
	}
	if t, _ := schema["type"].(string); t != "object" {
		return fmt.Sprintf(`schema must be a JSON Schema of 'type: "object"', got 'type: "%v"'.`, schema["type"])
	}
	return strictNode(schema, nil)
}

// strictAllowed are the keywords the strict subset accepts.
var strictAllowed = []string{"type", "properties", "required", "additionalProperties", "items", "enum", "anyOf",
	"$ref", "$defs", "definitions", "description", "title", "pattern", "format", "minimum", "maximum",
	"exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minItems", "maxItems"}

// openAIFormats are the string formats strict mode supports.
var openAIFormats = []string{"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}

func strictNode(s map[string]any, path []string) string {
	ctx := pyTuple(path)
	for _, k := range sortedKeys(s) {
		if !slices.Contains(strictAllowed, k) {
			return fmt.Sprintf("In context=%s, '%s' is not permitted.", ctx, k)
		}
	}
	if f, ok := s["format"].(string); ok && !slices.Contains(openAIFormats, f) {
		return fmt.Sprintf("In context=%s, 'format' value '%s' is not permitted.", ctx, f)
	}
	_, typed := s["type"]
	_, anyOf := s["anyOf"]
	_, ref := s["$ref"]
	if !typed && !anyOf && !ref && len(path) > 0 {
		return fmt.Sprintf("In context=%s, schema must have a 'type' key.", ctx)
	}
	if props, ok := s["properties"].(map[string]any); ok || s["type"] == "object" {
		if ap, ok := s["additionalProperties"].(bool); !ok || ap {
			return fmt.Sprintf("In context=%s, 'additionalProperties' is required to be supplied and to be false.", ctx)
		}
		req, _ := s["required"].([]any)
		for _, name := range sortedKeys(props) {
			if !slices.Contains(req, any(name)) {
				return fmt.Sprintf("In context=%s, 'required' is required to be supplied and to be an array including every key in properties. Missing '%s'.", ctx, name)
			}
		}
		for _, name := range sortedKeys(props) {
			if msg := strictChild(props[name], append(slices.Clone(path), "properties", name)); msg != "" {
				return msg
			}
		}
	}
	if items, ok := s["items"]; ok {
		if msg := strictChild(items, append(slices.Clone(path), "items")); msg != "" {
			return msg
		}
	}
	if list, ok := s["anyOf"].([]any); ok {
		for i, sub := range list {
			if msg := strictChild(sub, append(slices.Clone(path), "anyOf", fmt.Sprint(i))); msg != "" {
				return msg
			}
		}
	}
	for _, key := range []string{"$defs", "definitions"} {
		defs, _ := s[key].(map[string]any)
		for _, name := range sortedKeys(defs) {
			if msg := strictChild(defs[name], append(slices.Clone(path), key, name)); msg != "" {
				return msg
			}
		}
	}
	return ""
}

func strictChild(v any, path []string) string {
	m, ok := v.(map[string]any)
	if !ok {
		return fmt.Sprintf("In context=%s, schema must be an object.", pyTuple(path))
	}
	return strictNode(m, path)
}

// pyTuple renders a path as Python prints a tuple: (), ('a',), ('a', 'b').
func pyTuple(path []string) string {
	switch len(path) {
	case 0:
		return "()"
	case 1:
		return "('" + path[0] + "',)"
	}
	return "('" + strings.Join(path, "', '") + "')"
}

// GrammarProblems lists what llama.cpp's JSON-schema-to-grammar converter
// refuses in a schema ("JSON schema conversion failed" reasons, from
// common/json-schema-to-grammar.cpp as quoted in the research notes):
// a pattern not anchored with ^…$, and, in older builds, a type array
// ("Unrecognized schema: …", goose#4815 reports one).
func GrammarProblems(schema any, oldBuild bool) []string {
	var out []string
	eachSchema(schema, func(x map[string]any) {
		if p, ok := x["pattern"].(string); ok && (!strings.HasPrefix(p, "^") || !strings.HasSuffix(p, "$")) {
			out = append(out, "Pattern must start with '^' and end with '$'")
		}
		if _, ok := x["type"].([]any); ok && oldBuild {
			b, _ := json.Marshal(x)
			out = append(out, "Unrecognized schema: "+string(b))
		}
	})
	return out
}

// xgrammarUnsupported reports the JSON Schema features vLLM's xgrammar
// backend refuses (has_xgrammar_unsupported_json_features in
// vllm/v1/structured_output/backend_xgrammar.py, as quoted in the research
// notes).
func xgrammarUnsupported(schema any) bool {
	formats := []string{"email", "date", "time", "date-time", "duration", "ipv4", "ipv6", "hostname", "uuid", "uri",
		"uri-reference", "uri-template", "json-pointer", "relative-json-pointer"}
	found := false
	eachSchema(schema, func(x map[string]any) {
		for _, k := range []string{"multipleOf", "uniqueItems", "contains", "minContains", "maxContains",
			"patternProperties", "propertyNames"} {
			if _, ok := x[k]; ok {
				found = true
			}
		}
		if f, ok := x["format"].(string); ok && !slices.Contains(formats, f) {
			found = true
		}
	})
	return found
}

// eachSchema calls fn on every object in a JSON value, depth first, in
// key order (so the first problem reported is always the same).
func eachSchema(v any, fn func(map[string]any)) {
	switch x := v.(type) {
	case map[string]any:
		fn(x)
		for _, k := range sortedKeys(x) {
			eachSchema(x[k], fn)
		}
	case []any:
		for _, e := range x {
			eachSchema(e, fn)
		}
	}
}

func sortedKeys(m map[string]any) []string { return slices.Sorted(maps.Keys(m)) }
