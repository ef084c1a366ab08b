package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"hearth/internal/agent"
	"hearth/internal/apperr"
)

func echoTool(name string) agent.Tool {
	return agent.Tool{
		Name: name, Description: "echo",
		Parameters: map[string]any{
			"type":                 "object",
			"properties":           map[string]any{"days": map[string]any{"type": "integer", "minimum": 1}},
			"required":             []string{"days"},
			"additionalProperties": false,
		},
		Execute: func(_ context.Context, s agent.Scope, args json.RawMessage) (any, error) {
			return s.MemberID + ":" + string(args), nil
		},
	}
}

func TestToolboxRejectsDuplicatesAcrossFactories(t *testing.T) {
	a := agent.ToolFactoryFunc(func() []agent.Tool { return []agent.Tool{echoTool("get_x")} })
	b := agent.ToolFactoryFunc(func() []agent.Tool { return []agent.Tool{echoTool("get_y"), echoTool("get_x")} })
	if _, err := agent.NewToolbox(a, b); err == nil || !strings.Contains(err.Error(), `duplicate tool "get_x"`) {
		t.Fatalf("err = %v", err)
	}
	box, err := agent.NewToolbox(a, agent.ToolFactoryFunc(func() []agent.Tool { return []agent.Tool{echoTool("get_y")} }))
	if err != nil {
		t.Fatal(err)
	}
	if names := box.Names(); len(names) != 2 || names[0] != "get_x" || names[1] != "get_y" {
		t.Fatalf("names = %v", names)
	}
	if specs := box.Specs(); len(specs) != 2 || specs[1].Parameters["type"] != "object" {
		t.Fatalf("specs = %+v", specs)
	}
}

func TestToolboxRejectsBadDefinitions(t *testing.T) {
	bad := []agent.Tool{
		{Name: "has space", Execute: echoTool("x").Execute},
		{Name: "no_execute"},
		{Name: "bad_schema", Execute: echoTool("x").Execute, Parameters: map[string]any{"type": "nonsense"}},
	}
	for _, tool := range bad {
		if _, err := agent.NewToolbox(agent.ToolFactoryFunc(func() []agent.Tool { return []agent.Tool{tool} })); err == nil {
			t.Errorf("tool %q accepted", tool.Name)
		}
	}
}

func TestToolboxValidatesArgumentsBeforeExecuting(t *testing.T) {
	executed := false
	tool := echoTool("get_trend")
	inner := tool.Execute
	tool.Execute = func(ctx context.Context, s agent.Scope, a json.RawMessage) (any, error) {
		executed = true
		return inner(ctx, s, a)
	}
	box, err := agent.NewToolbox(agent.ToolFactoryFunc(func() []agent.Tool { return []agent.Tool{tool} }))
	if err != nil {
		t.Fatal(err)
	}
	scope := agent.Scope{AgentID: "coach", MemberID: "ada"}
	for _, args := range []string{`{"days": 0}`, `{}`, `{"days": 7, "member": "bob"}`, `not json`} {
		_, err := box.Call(context.Background(), scope, "get_trend", json.RawMessage(args))
		var ae *agent.ArgsError
		if !errors.As(err, &ae) || len(ae.Errors) == 0 {
			t.Errorf("args %s: err = %v, want *ArgsError", args, err)
		}
	}
	if executed {
		t.Fatal("tool executed with invalid arguments")
	}
	v, err := box.Call(context.Background(), scope, "get_trend", json.RawMessage(`{"days": 7}`))
	if err != nil || v != `ada:{"days": 7}` {
		t.Fatalf("call = %v, %v", v, err)
	}
	if _, err := box.Call(context.Background(), scope, "nope", nil); !apperr.Is(err, apperr.NotFound) {
		t.Fatalf("unknown tool: %v", err)
	}
}

func TestToolboxCallerKeepsTheRunsMember(t *testing.T) {
	var seen []string
	box, _ := agent.NewToolbox(whoamiTool(&seen, new(sync.Mutex)))
	call := box.Caller(agent.Scope{MemberID: "ada"})
	v, err := call(context.Background(), "whoami", json.RawMessage(`{"member":"bob"}`))
	if err != nil {
		t.Fatal(err)
	}
	if v.(map[string]string)["member"] != "ada" || seen[0] != `ada {"member":"bob"}` {
		t.Fatalf("tool ran for %v (seen %v)", v, seen)
	}
}

func TestSchemaValidationErrors(t *testing.T) {
	sch, err := agent.CompileSchema("summary", outputSchema)
	if err != nil {
		t.Fatal(err)
	}
	if errs := sch.Validate([]byte(`{"title":"ok","score":3}`)); errs != nil {
		t.Fatalf("valid doc: %v", errs)
	}
	for doc, want := range map[string]string{
		`{"title":"ok"}`:                    `/: missing property 'score'`,
		`{"title":"","score":1}`:            `/title: minLength`,
		`{"title":"ok","score":"high"}`:     `/score: got string, want integer`,
		`{"title":"ok","score":1,"x":true}`: `/: additional properties 'x' not allowed`,
		`{"title":`:                         `/: not valid JSON`,
	} {
		errs := sch.Validate([]byte(doc))
		text := agent.FormatValidationErrors(errs)
		if !strings.Contains(text, want) {
			t.Errorf("%s: errors %q, want %q", doc, text, want)
		}
	}
}
