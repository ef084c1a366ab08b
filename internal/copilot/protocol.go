package copilot

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// AgentID is the seeded agent that answers in the copilot panel.
const AgentID = "config-copilot"

// Actions a command may name (seed 002's UICommands).
const (
	SetField            = "set_field"
	SetFields           = "set_fields"
	ClearField          = "clear_field"
	Navigate            = "navigate"
	ShowMessage         = "show_message"
	RequestConfirmation = "request_confirmation"
	HighlightField      = "highlight_field"
	Validate            = "validate"
)

// Actions lists every action, in the order the schema names them.
var Actions = []string{SetField, SetFields, ClearField, Navigate, ShowMessage, RequestConfirmation, HighlightField, Validate}

// Limits on one reply: a model that rambles is cut, not obeyed at length.
const (
	MaxCommands   = 40
	MaxMessageLen = 2000
)

// Reply is the agent's structured output.
type Reply struct {
	Message  string    `json:"message"`
	Commands []Command `json:"commands"`
	// NeedsConfirmation: the commands wait for the admin's yes, as after
	// a leading request_confirmation whose question is Message.
	NeedsConfirmation bool `json:"needs_confirmation"`
}

// Command is one instruction to the open form. Form, when set, must be the
// open form (or, for navigate, the form to open: To may name it too).
type Command struct {
	Action string       `json:"action"`
	Form   string       `json:"form,omitempty"`
	Field  string       `json:"field,omitempty"`
	Value  Value        `json:"value,omitempty"`
	Fields []FieldValue `json:"fields,omitempty"`
	To     string       `json:"to,omitempty"`
	Text   string       `json:"text,omitempty"`
}

// FieldValue is one entry of set_fields.
type FieldValue struct {
	Field string `json:"field"`
	Value Value  `json:"value"`
}

// Value is a field's value as text. A model may send 8 for "8": numbers
// and booleans are taken as their text, null as "".
type Value string

// UnmarshalJSON accepts a string, a number, a boolean or null.
func (v *Value) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case bytes.Equal(b, []byte("null")):
		*v = ""
	case len(b) > 0 && b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*v = Value(s)
	case bytes.Equal(b, []byte("true")), bytes.Equal(b, []byte("false")):
		*v = Value(b)
	default:
		var n json.Number
		if err := json.Unmarshal(b, &n); err != nil {
			return errors.New("a value is text, a number or a boolean")
		}
		if _, err := strconv.ParseFloat(n.String(), 64); err != nil {
			return fmt.Errorf("a value is text, a number or a boolean: %w", err)
		}
		*v = Value(n.String())
	}
	return nil
}

// Decode reads a reply from the agent's output: the decoded document a
// definition run returns (map), or its JSON text.
func Decode(out any) (Reply, error) {
	var raw []byte
	switch o := out.(type) {
	case string:
		raw = []byte(o)
	case []byte:
		raw = o
	case json.RawMessage:
		raw = o
	default:
		b, err := json.Marshal(o)
		if err != nil {
			return Reply{}, fmt.Errorf("copilot: the reply is not JSON: %w", err)
		}
		raw = b
	}
	var r Reply
	if err := json.Unmarshal(raw, &r); err != nil {
		return Reply{}, fmt.Errorf("copilot: the reply is not a copilot answer: %w", err)
	}
	return r, nil
}

// nullable is a strict-mode optional property: the type or null.
func nullable(t string) map[string]any { return map[string]any{"type": []any{t, "null"}} }

// OutputSchema is the config-copilot definition's output schema, strict-mode
// compatible (every property required, optional ones nullable).
func OutputSchema() map[string]any {
	actions := make([]any, len(Actions))
	for i, a := range Actions {
		actions[i] = a
	}
	fieldValue := map[string]any{"type": "object", "additionalProperties": false,
		"required":   []any{"field", "value"},
		"properties": map[string]any{"field": map[string]any{"type": "string"}, "value": map[string]any{"type": "string"}}}
	command := map[string]any{"type": "object", "additionalProperties": false,
		"required": []any{"action", "form", "field", "value", "fields", "to", "text"},
		"properties": map[string]any{
			"action": map[string]any{"type": "string", "enum": actions},
			"form":   nullable("string"), "field": nullable("string"), "value": nullable("string"),
			"fields": map[string]any{"type": []any{"array", "null"}, "items": fieldValue},
			"to":     nullable("string"), "text": nullable("string"),
		}}
	return map[string]any{"type": "object", "additionalProperties": false,
		"required": []any{"message", "commands", "needs_confirmation"},
		"properties": map[string]any{
			"message":            map[string]any{"type": "string"},
			"commands":           map[string]any{"type": "array", "items": command},
			"needs_confirmation": map[string]any{"type": "boolean"},
		}}
}

// Answer is what the panel gets for a request: the reply, whether the
// built-in heuristic gave it (no model), and the run that recorded it (0:
// none, the heuristic runs outside the engine).
type Answer struct {
	Reply     Reply
	Heuristic bool
	RunID     int64
	// Fallback says why the heuristic answered although a model is
	// configured (the model's run failed); "" otherwise.
	Fallback string
}
