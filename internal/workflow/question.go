package workflow

import "encoding/json"

// Question is the suspend payload of a step that asks a person to tap an
// answer (on the member's kiosk, or in the admin): the question, the
// options shown, and the value each option answers with: the step is
// resumed with {Field: Values[i]} for Options[i].
type Question struct {
	Question string   `json:"question"`
	Options  []string `json:"options"`
	Values   []string `json:"values"`
	Field    string   `json:"field"`
	// Context is shown with the question (a summary it refers to), one
	// line per "\n": a few short lines a person reads at a glance.
	Context string `json:"context,omitempty"`
	// Acks are what the screen says once option i is tapped ("Noted: an
	// easier week next."), one per option; none gives a plain thanks.
	Acks []string `json:"acks,omitempty"`
}

// Ack is what the screen says once option i is tapped.
func (q Question) Ack(i int) string {
	if i >= 0 && i < len(q.Acks) && q.Acks[i] != "" {
		return q.Acks[i]
	}
	if i >= 0 && i < len(q.Options) {
		return "Thanks, noted: " + q.Options[i] + "."
	}
	return "Thanks, noted."
}

// QuestionSchema is the Suspend schema of a step that asks a Question.
var QuestionSchema = map[string]any{
	"type": "object", "required": []string{"question", "options", "values", "field"},
	"properties": map[string]any{
		"question": map[string]any{"type": "string", "minLength": 1, "maxLength": 200},
		"options":  map[string]any{"type": "array", "minItems": 2, "maxItems": 6, "items": map[string]any{"type": "string", "minLength": 1, "maxLength": 80}},
		"values":   map[string]any{"type": "array", "minItems": 2, "maxItems": 6, "items": map[string]any{"type": "string", "minLength": 1, "maxLength": 80}},
		"field":    map[string]any{"type": "string", "pattern": "^[a-z_]{1,40}$"},
		"context":  map[string]any{"type": "string", "maxLength": 800},
		"acks":     map[string]any{"type": "array", "maxItems": 6, "items": map[string]any{"type": "string", "maxLength": 200}},
	},
}

// QuestionOf reads a suspend payload as a Question; ok is false for any
// other payload (answered with JSON instead).
func QuestionOf(payload json.RawMessage) (Question, bool) {
	var q Question
	if err := json.Unmarshal(payload, &q); err != nil || q.Question == "" || q.Field == "" ||
		len(q.Options) < 2 || len(q.Options) != len(q.Values) {
		return Question{}, false
	}
	return q, true
}

// Answer is the resume data of option i.
func (q Question) Answer(i int) json.RawMessage {
	b, _ := json.Marshal(map[string]string{q.Field: q.Values[i]})
	return b
}
