package agent_test

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"hearth/internal/agent"
)

func ExampleMemory_Serialize() {
	now := time.Date(2026, 2, 14, 4, 0, 0, 0, time.UTC)
	mem := agent.NewMemory("health-coach", "ada", func() time.Time { return now })
	_ = mem.Set("coaching_style", "responds well to direct feedback", 0)
	_ = mem.Set("no_meals", "no meals logged yesterday", 48*time.Hour)
	fmt.Println(mem.Serialize())
	// Output:
	// ### Persistent
	// - **coaching_style**: "responds well to direct feedback"
	//
	// ### Expiring
	// - **no_meals**: "no meals logged yesterday" (expires in 2d 0h)
}

func ExampleToolbox_Call() {
	steps := agent.ToolFactoryFunc(func() []agent.Tool {
		return []agent.Tool{{
			Name:        "get_steps",
			Description: "Steps walked over the last days",
			Parameters: map[string]any{
				"type":       "object",
				"properties": map[string]any{"days": map[string]any{"type": "integer", "minimum": 1, "maximum": 30}},
				"required":   []string{"days"},
			},
			Execute: func(_ context.Context, s agent.Scope, args json.RawMessage) (any, error) {
				var a struct{ Days int }
				_ = json.Unmarshal(args, &a)
				return fmt.Sprintf("%s walked 8000 steps a day over %d days", s.MemberID, a.Days), nil
			},
		}}
	})
	box, err := agent.NewToolbox(steps)
	if err != nil {
		panic(err)
	}
	scope := agent.Scope{AgentID: "health-coach", MemberID: "ada"}
	out, _ := box.Call(context.Background(), scope, "get_steps", json.RawMessage(`{"days": 7}`))
	fmt.Println(out)
	_, err = box.Call(context.Background(), scope, "get_steps", json.RawMessage(`{"days": 90}`))
	fmt.Println(err)
	// Output:
	// ada walked 8000 steps a day over 7 days
	// agent: invalid arguments for get_steps:
	// - /days: maximum: got 90, want 30
}
