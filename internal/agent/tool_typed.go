package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// Schemer is a type that states its own JSON Schema (NewTool uses it for
// an argument type or field type instead of deriving one).
type Schemer interface {
	JSONSchema() map[string]any
}

// NewTool builds a tool over a typed function. The parameter schema is
// derived from Args, a struct: each exported field is a property named by
// its json tag, every property is required and no other is allowed, and a
// pointer field is nullable, which is how OpenAI's strict mode says
// "optional". Tags refine a field's schema:
//
//	desc:"…"                          description
//	enum:"once|recurring|interval"    allowed strings (null too for a pointer)
//	pattern:"^…$"                     a regular expression for strings
//	schema:"minimum=1,maximum=30"     numeric keywords: minimum, maximum,
//	                                  minLength, maxLength, minItems, maxItems
//
// A type implementing Schemer supplies its own schema. The toolbox checks a
// call's arguments against the schema; Execute then decodes them strictly
// (unknown fields and trailing data are errors) before fn runs. NewTool
// panics when Args cannot be described (a programming error).
func NewTool[Args, Result any](name, description string, fn func(ctx context.Context, scope Scope, args Args) (Result, error)) Tool {
	var zero Args
	params, err := schemaFor(reflect.TypeOf(zero), true)
	if err != nil {
		panic(fmt.Sprintf("agent: tool %s: %v", name, err))
	}
	return Tool{
		Name:        name,
		Description: description,
		Parameters:  params,
		Execute: func(ctx context.Context, scope Scope, raw json.RawMessage) (any, error) {
			var args Args
			if err := DecodeArgs(raw, &args); err != nil {
				return nil, err
			}
			return fn(ctx, scope, args)
		},
	}
}

// DecodeArgs decodes tool arguments strictly: unknown fields and trailing
// data are errors; empty arguments mean {}.
func DecodeArgs(raw json.RawMessage, v any) error {
	if len(bytes.TrimSpace(raw)) == 0 {
		raw = json.RawMessage("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("invalid arguments: %v", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return errors.New("invalid arguments: unexpected data after the JSON object")
	}
	return nil
}

var (
	schemerType = reflect.TypeFor[Schemer]()
	rawType     = reflect.TypeFor[json.RawMessage]()
)

// schemaFor describes t; top says t is the arguments object itself.
func schemaFor(t reflect.Type, top bool) (map[string]any, error) {
	if t == nil {
		return nil, errors.New("arguments need a concrete type")
	}
	if s, ok := ownSchema(t); ok {
		return s, nil
	}
	if top && t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("arguments must be a struct, not %s", t)
	}
	switch t.Kind() {
	case reflect.Pointer:
		inner, err := schemaFor(t.Elem(), false)
		if err != nil {
			return nil, err
		}
		return nullable(inner), nil
	case reflect.Struct:
		return objectSchema(t)
	case reflect.String:
		return map[string]any{"type": "string"}, nil
	case reflect.Bool:
		return map[string]any{"type": "boolean"}, nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return map[string]any{"type": "integer"}, nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return map[string]any{"type": "integer", "minimum": 0}, nil
	case reflect.Float32, reflect.Float64:
		return map[string]any{"type": "number"}, nil
	case reflect.Slice, reflect.Array:
		if t == rawType {
			return map[string]any{}, nil
		}
		items, err := schemaFor(t.Elem(), false)
		if err != nil {
			return nil, err
		}
		return map[string]any{"type": "array", "items": items}, nil
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			return nil, fmt.Errorf("map keys must be strings in %s", t)
		}
		vals, err := schemaFor(t.Elem(), false)
		if err != nil {
			return nil, err
		}
		return map[string]any{"type": "object", "additionalProperties": vals}, nil
	case reflect.Interface:
		return map[string]any{}, nil
	}
	return nil, fmt.Errorf("no JSON Schema for %s", t)
}

// ownSchema is t's Schemer schema, if it has one.
func ownSchema(t reflect.Type) (map[string]any, bool) {
	switch {
	case t.Implements(schemerType):
		return reflect.Zero(t).Interface().(Schemer).JSONSchema(), true
	case reflect.PointerTo(t).Implements(schemerType):
		return reflect.New(t).Interface().(Schemer).JSONSchema(), true
	}
	return nil, false
}

// nullable lets a schema also accept null.
func nullable(s map[string]any) map[string]any {
	out := make(map[string]any, len(s)+1)
	for k, v := range s {
		out[k] = v
	}
	switch typ := s["type"].(type) {
	case string:
		out["type"] = []any{typ, "null"}
	case []any:
		if !slices.Contains(typ, any("null")) {
			out["type"] = append(slices.Clone(typ), "null")
		}
	default:
		return map[string]any{"anyOf": []any{s, map[string]any{"type": "null"}}}
	}
	if enum, ok := s["enum"].([]any); ok && !slices.Contains(enum, nil) {
		out["enum"] = append(slices.Clone(enum), nil)
	}
	return out
}

// objectSchema is a strict object: every field required, nothing else allowed.
func objectSchema(t reflect.Type) (map[string]any, error) {
	props := map[string]any{}
	required := []string{}
	for f := range t.Fields() {
		if !f.IsExported() {
			continue
		}
		name := f.Name
		if tag, ok := f.Tag.Lookup("json"); ok {
			n, _, _ := strings.Cut(tag, ",")
			if n == "-" {
				continue
			}
			if n != "" {
				name = n
			}
		}
		base := f.Type
		if base.Kind() == reflect.Pointer {
			base = base.Elem()
		}
		s, err := schemaFor(base, false)
		if err != nil {
			return nil, fmt.Errorf("field %s: %w", f.Name, err)
		}
		if err := refine(s, f.Tag); err != nil {
			return nil, fmt.Errorf("field %s: %w", f.Name, err)
		}
		if f.Type.Kind() == reflect.Pointer {
			s = nullable(s)
		}
		props[name] = s
		required = append(required, name)
	}
	slices.Sort(required)
	return map[string]any{"type": "object", "properties": props, "required": required, "additionalProperties": false}, nil
}

// refine applies a field's desc, enum, pattern and schema tags.
func refine(s map[string]any, tag reflect.StructTag) error {
	if d := tag.Get("desc"); d != "" {
		s["description"] = d
	}
	if e := tag.Get("enum"); e != "" {
		var vals []any
		for _, v := range strings.Split(e, "|") {
			vals = append(vals, v)
		}
		s["enum"] = vals
	}
	if p := tag.Get("pattern"); p != "" {
		s["pattern"] = p
	}
	kw := tag.Get("schema")
	if kw == "" {
		return nil
	}
	for _, part := range strings.Split(kw, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		switch k {
		case "minimum", "maximum", "exclusiveMinimum", "minLength", "maxLength", "minItems", "maxItems":
		default:
			return fmt.Errorf("unknown schema keyword %q", k)
		}
		n, err := strconv.ParseFloat(v, 64)
		if !ok || err != nil {
			return fmt.Errorf("schema keyword %s needs a number, not %q", k, v)
		}
		if n == float64(int64(n)) {
			s[k] = int64(n)
		} else {
			s[k] = n
		}
	}
	return nil
}
