package agent_test

import (
	"context"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"hearth/internal/agent"
)

type flexible int64

func (flexible) JSONSchema() map[string]any {
	return map[string]any{"type": []any{"integer", "string"}}
}

func (f *flexible) UnmarshalJSON(b []byte) error {
	n, err := strconv.ParseInt(strings.Trim(string(b), `"`), 10, 64)
	*f = flexible(n)
	return err
}

type followUp struct {
	Description string    `json:"description" desc:"What to do." schema:"minLength=1,maxLength=200"`
	Kind        string    `json:"type" enum:"once|recurring"`
	Days        *int      `json:"days" schema:"minimum=1,maximum=30"`
	When        *string   `json:"when" pattern:"^(today|\\d{4}-\\d{2}-\\d{2})$" enum:"today|tomorrow"`
	Tags        []string  `json:"tags" schema:"maxItems=3"`
	Task        *flexible `json:"task_id"`
	Ignored     string    `json:"-"`
}

// The schema comes from the type: strict (all required, nothing else),
// pointers nullable, tags applied, a Schemer type's own schema kept.
func TestNewToolDerivesStrictSchema(t *testing.T) {
	tool := agent.NewTool("schedule", "Schedule it.", func(_ context.Context, s agent.Scope, a followUp) (map[string]any, error) {
		return map[string]any{"member": s.MemberID, "type": a.Kind}, nil
	})
	want := map[string]any{
		"type":                 "object",
		"additionalProperties": false,
		"required":             []string{"days", "description", "tags", "task_id", "type", "when"},
		"properties": map[string]any{
			"description": map[string]any{"type": "string", "description": "What to do.", "minLength": int64(1), "maxLength": int64(200)},
			"type":        map[string]any{"type": "string", "enum": []any{"once", "recurring"}},
			"days":        map[string]any{"type": []any{"integer", "null"}, "minimum": int64(1), "maximum": int64(30)},
			"when": map[string]any{"type": []any{"string", "null"}, "pattern": `^(today|\d{4}-\d{2}-\d{2})$`,
				"enum": []any{"today", "tomorrow", nil}},
			"tags":    map[string]any{"type": "array", "items": map[string]any{"type": "string"}, "maxItems": int64(3)},
			"task_id": map[string]any{"type": []any{"integer", "string", "null"}},
		},
	}
	if !reflect.DeepEqual(tool.Parameters, want) {
		got, _ := json.MarshalIndent(tool.Parameters, "", " ")
		t.Fatalf("schema:\n%s", got)
	}
	box, err := agent.NewToolbox(agent.ToolFactoryFunc(func() []agent.Tool { return []agent.Tool{tool} }))
	if err != nil {
		t.Fatal(err)
	}
	scope := agent.Scope{MemberID: "ada"}
	ok := `{"description":"Ask","type":"once","days":null,"when":null,"tags":[],"task_id":"12"}`
	if out, err := box.Call(context.Background(), scope, "schedule", json.RawMessage(ok)); err != nil ||
		out.(map[string]any)["member"] != "ada" {
		t.Fatalf("valid call: %v %v", out, err)
	}
	for name, args := range map[string]string{
		"missing property": `{"description":"Ask","type":"once","days":null,"when":null,"tags":[]}`,
		"extra property":   `{"description":"Ask","type":"once","days":null,"when":null,"tags":[],"task_id":1,"member":"bob"}`,
		"bad enum":         `{"description":"Ask","type":"weekly","days":null,"when":null,"tags":[],"task_id":1}`,
		"out of range":     `{"description":"Ask","type":"once","days":31,"when":null,"tags":[],"task_id":1}`,
	} {
		if _, err := box.Call(context.Background(), scope, "schedule", json.RawMessage(args)); err == nil {
			t.Errorf("%s: accepted %s", name, args)
		}
	}
}

// Execute decodes strictly even without the toolbox's schema check.
func TestNewToolDecodesStrictly(t *testing.T) {
	tool := agent.NewTool("count", "", func(_ context.Context, _ agent.Scope, a struct {
		N int `json:"n"`
	}) (int, error) {
		return a.N + 1, nil
	})
	if v, err := tool.Execute(context.Background(), agent.Scope{}, json.RawMessage(`{"n":2}`)); err != nil || v != 3 {
		t.Fatalf("execute = %v, %v", v, err)
	}
	for _, bad := range []string{`{"n":2,"x":1}`, `{"n":2} {}`, `{"n":"two"}`} {
		if _, err := tool.Execute(context.Background(), agent.Scope{}, json.RawMessage(bad)); err == nil ||
			!strings.HasPrefix(err.Error(), "invalid arguments") {
			t.Errorf("%s: err = %v", bad, err)
		}
	}
}

func TestNewToolRefusesUndescribableArgs(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("a non-struct argument type was accepted")
		}
	}()
	agent.NewTool("bad", "", func(context.Context, agent.Scope, []string) (any, error) { return nil, nil })
}
