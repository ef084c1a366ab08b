package agent

import (
	"context"
	"encoding/json"
)

// Runtime executes one reasoning step: it sends the prompt to a model (or a
// deterministic planner), runs the tool-call loop, and returns the final
// output. Implementations live in internal/agent/llm.
//
// On error the Result still carries what was spent (usage, tool calls made).
type Runtime interface {
	Execute(ctx context.Context, req ModelRequest) (Result, error)
}

// Role is who wrote a conversation message.
type Role string

// Conversation roles. Tool results are stored in threads with RoleTool;
// the conversation sent to a runtime has user and assistant turns only.
const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
)

// Message is one turn of the conversation sent to the runtime.
type Message struct {
	Role    Role   `json:"role"`
	Content string `json:"content"`
	// Pinned keeps the message when a runtime trims the conversation to a
	// model's context window (oldest unpinned messages go first): the
	// assignment's task, not chat history.
	Pinned bool `json:"-"`
}

// OutputSchema asks for structured output matching Schema (a JSON Schema).
// The OpenAI runtime sends it as a strict json_schema response format; set
// Loose when the schema is not strict-compatible (every property required,
// additionalProperties false).
type OutputSchema struct {
	Name   string
	Schema map[string]any
	Loose  bool
}

// Planner produces the output without a model: the assignment's heuristic
// plan, or an agent's canned chat reply.
type Planner func(ctx context.Context) (string, error)

// ModelRequest is one reasoning step sent to a runtime.
type ModelRequest struct {
	System   string
	Messages []Message
	// Tools are offered to the model; CallTool executes them for the run's
	// scope (nil when there are no tools).
	Tools    []ToolSpec
	CallTool ToolCaller
	// Output, when set, asks for JSON matching the schema.
	Output *OutputSchema
	// Model overrides the runtime's default model ("" = default).
	Model string
	// ToolModel, when set and tools are offered, answers the structured
	// steps (the turns that choose tools and their arguments); Model then
	// writes the final answer from the tool results, without tools. A
	// small local model is fast at the former; the wording needs the
	// larger one.
	ToolModel   string
	Temperature *float64
	// MaxTokens caps the completion (0 = no cap).
	MaxTokens int
	// MaxIterations bounds model turns in the tool-call loop (0 = runtime default).
	MaxIterations int
	// Budget caps the run's tokens (merged over the household default by
	// the engine); a zero budget is unlimited.
	Budget RunBudget
	// BeforeSend, when set, is called by a model runtime before each
	// request of the call with next, the request's estimated usage (prompt
	// bytes/4; completion: MaxTokens), and spent, what the server reported
	// for this call so far. An error stops the call before that request;
	// the runtime returns it wrapped. The engine sets it (Exec.callModel).
	BeforeSend func(next, spent Usage) error
	// Planner is what the heuristic runtime calls; model runtimes ignore it.
	Planner Planner
	// Memory is the member's working memory as it appears in System or
	// Messages, so the counted prompt names its share (counting only; ""
	// = none).
	Memory string
	// OnDelta, when set, asks for a streamed reply: the runtime calls it
	// with each piece of the answer's text as it arrives (tool-call turns
	// are not passed on). The Result is the same as without it.
	OnDelta func(text string)
}

// Usage is the token count a runtime reports.
type Usage struct {
	InputTokens  int64 `json:"input_tokens"`
	OutputTokens int64 `json:"output_tokens"`
}

// Add returns the sum of two usages.
func (u Usage) Add(o Usage) Usage {
	return Usage{InputTokens: u.InputTokens + o.InputTokens, OutputTokens: u.OutputTokens + o.OutputTokens}
}

// ToolCall records one tool call made during reasoning.
type ToolCall struct {
	Name   string          `json:"name"`
	Args   json.RawMessage `json:"args"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  string          `json:"error,omitempty"`
}

// Result is what a runtime produced.
type Result struct {
	// Output is the final assistant text (JSON when Request.Output was set).
	Output    string
	ToolCalls []ToolCall
	Usage     Usage
	// Model is the model that answered ("heuristic" for the planner runtime).
	Model string
	// ModelUsage splits Usage by the model that spent it when a call used
	// more than one (ModelRequest.ToolModel); nil when one model answered.
	ModelUsage map[string]Usage
	// Attempts counts HTTP requests made, including transport retries.
	Attempts int
	// FinishReason is the server's reason the last reply ended ("stop",
	// "length", "tool_calls", "" when it sent none).
	FinishReason string
	// Notes say what the runtime adapted to on this call (a refused schema
	// and the mode used instead, tools off, a trimmed prompt); the run
	// records them.
	Notes []string
	// Prompts are the requests sent, counted offline by part (nil from a
	// runtime that sends none).
	Prompts []PromptTokens
}
