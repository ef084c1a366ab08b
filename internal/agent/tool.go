package agent

import (
	"context"
	"encoding/json"
	"time"
)

// Scope is set by the server from the run, never from model arguments: it
// says whose data a tool may touch. A prompt-injected argument naming another
// member cannot change it.
type Scope struct {
	AgentID  string
	MemberID string
	RunID    int64
	// Origin is the run's Run.Origin ("task:12", "todo:7", "").
	Origin string
	Now    time.Time
	// Memory is the run's working memory (nil outside a run); tools such as
	// MemoryTools read and write it, and the run saves it with act.
	Memory *Memory

	stager *Stager   // where Stage puts writes (nil outside a run)
	call   *toolCall // the tool call being executed, for effect keys
}

// Tool is one capability offered to an agent (and callable by code in the
// gather phase). Parameters is a JSON Schema object; arguments are validated
// against it before Execute runs. Execute returns a compact, JSON-marshalable
// summary; an error is reported to the model as the tool's result.
type Tool struct {
	Name        string
	Description string
	Parameters  map[string]any
	Execute     func(ctx context.Context, scope Scope, args json.RawMessage) (any, error)
}

// ToolFactory builds a domain's group of tools over injected services.
type ToolFactory interface {
	Tools() []Tool
}

// ToolFactoryFunc adapts a function to ToolFactory.
type ToolFactoryFunc func() []Tool

// Tools implements ToolFactory.
func (f ToolFactoryFunc) Tools() []Tool { return f() }
