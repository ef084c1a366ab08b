package admin

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"hearth/internal/agent/definition"
	"hearth/internal/apperr"
)

func TestFormRoundTrip(t *testing.T) {
	temp := 0.7
	d := definition.Definition{AgentID: "planner", SystemPrompt: "Plan.\nCarefully.", UserTemplate: "{{message}}", Model: "gpt-test",
		Temperature: &temp, MaxTokens: 10, MaxIterations: 3, MaxRetries: 0, Factories: []string{"homeassistant"}, ToolIDs: []string{"get_weight"},
		ContextTypes: []string{definition.ContextDate}, OutputSchema: map[string]any{"type": "object"},
		ValidationRules: []definition.Rule{{Path: "a", Op: definition.OpLength, Value: json.RawMessage("2")}},
		SubAgents:       []definition.SubAgent{{Batch: 1, Key: "k", AgentID: "x", Input: map[string]any{"a": "$result"}}},
		Hooks:           definition.Hooks{After: []definition.HookRef{{Hook: "notify", Source: "a"}}},
		ToolHooks:       map[string]definition.Hooks{"get_weight": {Before: []definition.HookRef{{Hook: "log_note"}}}},
		ToolModel:       "small-model", BudgetPromptTokens: 4000, BudgetCompletionTokens: 800,
	}
	got, err := parseDefinitionForm(definitionFormValues(d))
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(d)
	b, _ := json.Marshal(got)
	if string(a) != string(b) {
		t.Fatalf("round trip:\n%s\n%s", a, b)
	}
	nd, err := parseDefinitionForm(newDefinitionFormValues())
	if err != nil || nd.MaxIterations != 8 || nd.MaxRetries != 2 || nd.OutputSchema != nil || len(nd.ToolIDs) != 0 {
		t.Fatalf("new form = %+v, %v", nd, err)
	}
}

func TestParseFormListsAndErrors(t *testing.T) {
	d, err := parseDefinitionForm(map[string]string{"agent_id": " a ", "tool_ids": "get_weight, send_update\nremember", "context_types": "",
		"system_prompt": "line\r\nline", "max_iterations": ""})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(d.ToolIDs, "|") != "get_weight|send_update|remember" || d.AgentID != "a" || d.SystemPrompt != "line\nline" || d.MaxIterations != 8 {
		t.Fatalf("parsed = %+v", d)
	}
	_, err = parseDefinitionForm(map[string]string{
		"temperature":          "warm",
		"max_tokens":           "1.5",
		"budget_prompt_tokens": "lots",
		"tool_ids":             `["a", 3]`,
		"output_schema":        "{\n  \"type\": \"object\",\n}",
		"validation_rules":     `[{"path": "a", "kind": "truthy"}]`,
		"sub_agents":           `{"key": "x"}`,
		"hooks":                `{"before": ["notify"`,
		"tool_hooks":           `{"get_weight": {"before": [{"hook": "notify", "src": "x"}]}}`,
	})
	var ae *apperr.Error
	if !errors.As(err, &ae) || ae.Code != apperr.Invalid {
		t.Fatalf("err = %v", err)
	}
	for field, want := range map[string]string{
		"temperature":          "must be a number",
		"max_tokens":           "whole number",
		"budget_prompt_tokens": "the household default",
		"tool_ids":             "has a number where",
		"output_schema":        "line 3, column 1",
		"validation_rules":     `unknown field "kind"`,
		"sub_agents":           "expects an array",
		"hooks":                "ends too early",
		"tool_hooks":           `unknown field "src"`,
	} {
		if !strings.Contains(ae.Fields[field], want) {
			t.Errorf("%s: %q, want %q", field, ae.Fields[field], want)
		}
	}
}
