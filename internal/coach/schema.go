package coach

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
)

// object is a strict tool parameter schema: every property required, no
// others allowed (optional ones are nullable), as OpenAI strict mode wants.
func object(props map[string]any) map[string]any {
	required := append([]string{}, slices.Sorted(maps.Keys(props))...)
	return map[string]any{
		"type":                 "object",
		"properties":           props,
		"required":             required,
		"additionalProperties": false,
	}
}

// nullable is a property of type typ or null, with extra keywords.
func nullable(typ, description string, extra map[string]any) map[string]any {
	m := map[string]any{"type": []string{typ, "null"}, "description": description}
	maps.Copy(m, extra)
	return m
}

// noParams is the schema of a tool without arguments.
func noParams() map[string]any { return object(map[string]any{}) }

// dateParam is an optional day argument.
func dateParam(what string) map[string]any {
	return nullable("string", what+": YYYY-MM-DD, \"today\" or \"yesterday\"; null = today.",
		map[string]any{"pattern": `^(today|yesterday|\d{4}-\d{2}-\d{2})$`})
}

// daysParam is an optional look-back window.
func daysParam(def, maxDays int) map[string]any {
	return nullable("integer", fmt.Sprintf("How many days back (1-%d); null = %d.", maxDays, def),
		map[string]any{"minimum": 1, "maximum": maxDays})
}

// decodeArgs reads tool arguments (already schema-checked by the toolbox).
func decodeArgs(raw json.RawMessage, v any) error {
	if len(raw) == 0 {
		raw = json.RawMessage("{}")
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("invalid arguments: %v", err)
	}
	return nil
}

// orInt returns *p, or def when p is nil.
func orInt(p *int, def int) int {
	if p == nil {
		return def
	}
	return *p
}
