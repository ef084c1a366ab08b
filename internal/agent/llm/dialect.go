package llm

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Dialect is the flavour of JSON Schema a server accepts in response_format
// and in tool parameters. The schema sent is derived from the full one for
// the dialect; keywords the dialect lacks move into the description, and
// Hearth's own validation keeps checking the full schema.
type Dialect string

// Dialects.
const (
	// DialectOpenAIStrict is the subset OpenAI's Structured Outputs accept
	// with strict:true ("Supported schemas" in
	// https://platform.openai.com/docs/guides/structured-outputs#supported-schemas,
	// text of 2025-26): types string/number/integer/boolean/object/array/
	// null, enum, anyOf (not at the root), $defs/$ref, and the "supported
	// properties" pattern, format (nine names), minimum, maximum,
	// exclusiveMinimum, exclusiveMaximum, multipleOf, minItems, maxItems.
	// Every object needs additionalProperties:false and every property in
	// required. Refused and so never sent: minLength, maxLength,
	// uniqueItems, default, examples, allOf, not, if/then/else,
	// dependent*, patternProperties, propertyNames, min/maxProperties,
	// unevaluated*, contains (the guide's list, plus 400 bodies naming
	// minLength, uniqueItems, default and examples: openai/openai-python#2274,
	// dottxt-ai/outlines#1254, mastra-ai/mastra#23321). oneOf becomes anyOf,
	// const a one-value enum.
	DialectOpenAIStrict Dialect = "openai-strict"
	// DialectGrammar is what a grammar-constrained local server (llama.cpp's
	// json-schema-to-grammar, and Ollama and LM Studio's GGUF path through
	// it) converts reliably (llama.cpp grammars/README.md, "JSON Schemas →
	// GBNF"): string lengths, item counts, integer bounds, enum, anyOf, and
	// patterns anchored with ^…$. $refs are inlined (an enum behind a $ref
	// lost its constraint, ggml-org/llama.cpp#8073; $defs order mattered in
	// ollama/ollama#8444) and type arrays become anyOf (older builds answer
	// "Unrecognized schema" to ["string","null"]).
	DialectGrammar Dialect = "grammar"
	// DialectMinimal is the most portable form, the step down after a
	// server refused a schema: structure only (types, properties,
	// required, additionalProperties, items, enum, anyOf), refs inlined,
	// type arrays as anyOf. It is also OpenAI's subset for fine-tuned
	// models, which refuse the type-specific keywords.
	DialectMinimal Dialect = "minimal"
	// DialectFull sends the schema as it is (vLLM's default "auto" backend
	// falls back from xgrammar to guidance for what xgrammar lacks).
	DialectFull Dialect = "full"
)

// Valid reports whether d is a known dialect.
func (d Dialect) Valid() bool {
	return d == DialectOpenAIStrict || d == DialectGrammar || d == DialectMinimal || d == DialectFull
}

// openAIFormats are the string formats OpenAI's strict mode supports.
var openAIFormats = []string{"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}

// grammarFormats are those llama.cpp's converter implements (its README
// lists uri and email as missing).
var grammarFormats = []string{"date", "time", "date-time", "uuid"}

// structural keywords every dialect keeps.
var structural = []string{"type", "properties", "required", "additionalProperties", "items", "enum", "anyOf",
	"description", "title"}

// dropped silently: annotations of the document itself.
var silent = []string{"$schema", "$id", "$comment"}

// Convert derives the schema to send in dialect d from full (which is not
// changed). strict says the result follows the strict rules (every object
// closed with all properties required, every schema typed, no allOf), so
// it may be sent with strict:true; a schema that cannot be made strict is
// returned in the dialect but with strict false.
func (d Dialect) Convert(full map[string]any) (out map[string]any, strict bool) {
	doc, ok := deepCopy(full).(map[string]any)
	if !ok {
		return map[string]any{}, false
	}
	c := &converter{d: d, strict: true, root: doc}
	if d == DialectFull {
		c.checkStrict(doc, true)
		return doc, c.strict
	}
	inline := d != DialectOpenAIStrict
	if inline {
		c.defs = definitions(doc)
	}
	res, _ := c.node(doc, true).(map[string]any)
	if inline && !c.keptRefs {
		delete(res, "$defs")
		delete(res, "definitions")
	}
	if t, _ := res["type"].(string); t != "object" {
		c.strict = false // the root must be an object
	}
	return res, c.strict
}

type converter struct {
	d        Dialect
	strict   bool
	root     map[string]any
	defs     map[string]any // "#/$defs/x" → schema, when inlining
	expand   []string       // refs being inlined (recursion guard)
	keptRefs bool           // a recursive ref stayed, so $defs stays
}

func definitions(doc map[string]any) map[string]any {
	out := map[string]any{}
	for _, key := range []string{"$defs", "definitions"} {
		if m, ok := doc[key].(map[string]any); ok {
			for name, s := range m {
				out["#/"+key+"/"+name] = s
			}
		}
	}
	return out
}

// node converts one schema.
func (c *converter) node(v any, root bool) any {
	s, ok := v.(map[string]any)
	if !ok {
		return v // true/false schemas
	}
	if ref, ok := s["$ref"].(string); ok && c.defs != nil {
		if target, found := c.defs[ref]; found && !slices.Contains(c.expand, ref) {
			c.expand = append(c.expand, ref)
			inlined := c.node(deepCopy(target), false)
			c.expand = c.expand[:len(c.expand)-1]
			if m, ok := inlined.(map[string]any); ok {
				if desc, ok := s["description"].(string); ok {
					m["description"] = joinDesc(desc, m["description"])
				}
			}
			return inlined
		}
		c.keptRefs = true
	}
	out := map[string]any{}
	var notes []string
	for _, k := range sortedKeys(s) {
		val := s[k]
		switch {
		case slices.Contains(silent, k):
		case k == "properties" || k == "$defs" || k == "definitions":
			m, _ := val.(map[string]any)
			conv := make(map[string]any, len(m))
			for name, sub := range m {
				conv[name] = c.node(sub, false)
			}
			if (k == "$defs" || k == "definitions") && c.defs != nil {
				out[k] = m // kept only if a recursive ref remains
				continue
			}
			out[k] = conv
		case k == "items" || k == "additionalProperties" && isSchema(val):
			out[k] = c.node(val, false)
			if k == "additionalProperties" {
				c.strict = false // an open map cannot be strict
			}
		case k == "anyOf" || k == "oneOf":
			list, _ := val.([]any)
			conv := make([]any, 0, len(list))
			for _, sub := range list {
				conv = append(conv, c.node(sub, false))
			}
			out["anyOf"] = conv
			if root {
				c.strict = false // OpenAI: the root must not be anyOf
			}
		case k == "const":
			out["enum"] = []any{val}
		case k == "allOf":
			c.strict = false
			if c.d == DialectFull {
				out[k] = val
			} else {
				notes = append(notes, keywordNote(k, val))
			}
		case c.keeps(k, val, s):
			out[k] = val
		default:
			notes = append(notes, keywordNote(k, val))
		}
	}
	if _, typed := out["type"]; !typed {
		if t := enumType(out["enum"]); t != "" {
			out["type"] = t // strict mode wants a type beside an enum
		}
	}
	if c.d != DialectOpenAIStrict {
		out = splitTypeArray(out)
	}
	if len(notes) > 0 {
		out["description"] = joinDesc(str(out["description"]), "Also required: "+strings.Join(notes, "; ")+".")
	}
	c.checkNode(out)
	return out
}

// keeps reports whether dialect c.d sends keyword k of schema s.
func (c *converter) keeps(k string, val any, s map[string]any) bool {
	if slices.Contains(structural, k) || k == "$ref" {
		return k != "$ref" || c.defs == nil || c.keptRefs
	}
	switch c.d {
	case DialectOpenAIStrict:
		switch k {
		case "pattern", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minItems", "maxItems":
			return true
		case "format":
			return slices.Contains(openAIFormats, str(val))
		}
	case DialectGrammar:
		switch k {
		case "minLength", "maxLength", "minItems", "maxItems":
			return true
		case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum":
			return hasType(s, "integer") // bounds apply to integers only
		case "pattern":
			p := str(val)
			return strings.HasPrefix(p, "^") && strings.HasSuffix(p, "$")
		case "format":
			return slices.Contains(grammarFormats, str(val))
		}
	}
	return false
}

// checkNode clears strict when s breaks a strict rule.
func (c *converter) checkNode(s map[string]any) {
	_, typed := s["type"]
	_, anyOf := s["anyOf"]
	_, ref := s["$ref"]
	_, enum := s["enum"]
	if !typed && !anyOf && !ref && !enum {
		c.strict = false // "schema must have a 'type' key"
	}
	if props, ok := s["properties"].(map[string]any); ok || hasType(s, "object") {
		if ap, ok := s["additionalProperties"].(bool); !ok || ap {
			c.strict = false
		}
		req, _ := s["required"].([]any)
		for name := range props {
			if !slices.Contains(req, any(name)) {
				c.strict = false
			}
		}
	}
}

// checkStrict walks a schema sent as is.
func (c *converter) checkStrict(v any, root bool) {
	switch x := v.(type) {
	case map[string]any:
		if root {
			if t, _ := x["type"].(string); t != "object" {
				c.strict = false
			}
		}
		if _, ok := x["allOf"]; ok {
			c.strict = false
		}
		for _, k := range []string{"minLength", "maxLength", "uniqueItems", "default", "examples", "not", "if",
			"patternProperties", "propertyNames", "minProperties", "maxProperties"} {
			if _, ok := x[k]; ok {
				c.strict = false // keywords OpenAI's strict mode refuses
			}
		}
		for k, sub := range x {
			switch k {
			case "properties", "$defs", "definitions":
				m, _ := sub.(map[string]any)
				for _, s := range m {
					if sm, ok := s.(map[string]any); ok {
						c.checkNode(sm)
					}
					c.checkStrict(s, false)
				}
			case "items", "anyOf", "oneOf", "additionalProperties":
				c.checkStrict(sub, false)
			}
		}
	case []any:
		for _, e := range x {
			c.checkStrict(e, false)
		}
	}
}

// splitTypeArray turns {"type": ["string","null"], …} into an anyOf of
// single types, each with the keywords and enum values that fit it.
func splitTypeArray(s map[string]any) map[string]any {
	types, ok := s["type"].([]any)
	if !ok {
		return s
	}
	if len(types) == 1 {
		s["type"] = types[0]
		return s
	}
	out := map[string]any{}
	if d, ok := s["description"]; ok {
		out["description"] = d
	}
	var branches []any
	for _, t := range types {
		ts := str(t)
		b := map[string]any{"type": ts}
		if ts != "null" {
			for k, v := range s {
				if k != "type" && k != "description" && k != "enum" {
					b[k] = v
				}
			}
		}
		if enum, ok := s["enum"].([]any); ok && ts != "null" {
			var keep []any
			for _, e := range enum {
				if jsonType(e) == ts || ts == "number" && jsonType(e) == "integer" {
					keep = append(keep, e)
				}
			}
			if len(keep) == 0 {
				continue // no allowed value has this type
			}
			b["enum"] = keep
		}
		branches = append(branches, b)
	}
	out["anyOf"] = branches
	return out
}

func jsonType(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case bool:
		return "boolean"
	case float64:
		if x == float64(int64(x)) {
			return "integer"
		}
		return "number"
	case map[string]any:
		return "object"
	case []any:
		return "array"
	}
	return ""
}

// enumType is the one JSON type of every enum value ("" if mixed or none).
func enumType(v any) string {
	enum, _ := v.([]any)
	t := ""
	for _, e := range enum {
		et := jsonType(e)
		if et == "integer" && t == "number" {
			continue
		}
		if t == "integer" && et == "number" {
			t = "number"
			continue
		}
		if t != "" && et != t {
			return ""
		}
		t = et
	}
	return t
}

func hasType(s map[string]any, t string) bool {
	switch x := s["type"].(type) {
	case string:
		return x == t
	case []any:
		return slices.Contains(x, any(t))
	}
	return false
}

func isSchema(v any) bool {
	_, ok := v.(map[string]any)
	return ok
}

// keywordNote renders a constraint for the description, e.g. "maxLength 800".
func keywordNote(k string, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return k
	}
	return k + " " + string(b)
}

func joinDesc(a string, b any) string {
	bs := str(b)
	switch {
	case a == "":
		return bs
	case bs == "":
		return a
	}
	return a + " " + bs
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

func sortedKeys(m map[string]any) []string { return slices.Sorted(maps.Keys(m)) }

// deepCopy copies a JSON-like value through JSON, which also normalises Go
// slices such as []string into []any.
func deepCopy(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("llm: schema is not JSON: %v", err))
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		panic(fmt.Sprintf("llm: schema is not JSON: %v", err))
	}
	return out
}
