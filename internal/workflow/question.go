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
	// Context is shown with the question (a summary it refers to).
	Context string `json:"context,omitempty"`
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
