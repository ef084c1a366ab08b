package agent

import (
	"context"
	"encoding/json"
	"hearth/internal/store"
)

// Assignment is a structured workflow an agent runs for one member. The
// framework drives the phases (see the package doc); the assignment supplies
// them. Gathered data is whatever Gather returns; it must marshal to JSON
// (it is hashed for input reuse) and is handed back unchanged to Prompt,
// ValidateDomain, Plan and Act.
type Assignment interface {
	ID() string
	Description() string
	// DefaultSchedule is a 5-field cron expression ("" = not scheduled).
	DefaultSchedule() string
	// OutputSchema is the JSON Schema the output must match; it is also the
	// model's structured-output format.
	OutputSchema() OutputSchema
	// Gather collects the facts for the prompt, typically by calling tools
	// through env (no model involved).
	Gather(ctx context.Context, env *Env) (any, error)
	// Prompt renders the gathered data and memory (mem.Serialize()) into the
	// text sent to the model; System is appended to the agent's system prompt.
	Prompt(ctx context.Context, gathered any, mem *Memory) (Prompt, error)
	// ValidateDomain checks rules a schema cannot (IDs exist, …) on output
	// that already matches the schema; nil means valid.
	ValidateDomain(ctx context.Context, gathered any, output json.RawMessage) []ValidationError
	// Plan builds a valid output without a model: the heuristic planner used
	// when no model is configured, the budget is spent or the model failed.
	Plan(ctx context.Context, gathered any, mem *Memory) (any, error)
	// Act writes the validated output. It must write only through tx (the
	// database has one writer connection, held by tx), and may change mem;
	// the memory is saved in the same transaction.
	Act(ctx context.Context, tx *store.Tx, act *ActEnv) error
}

// ModelTools is an Assignment that offers the model only the named tools
// of its agent: what its gather phase already read need not be read
// again, and every tool definition is prompt a CPU server processes on
// every request. Without it the model is offered every tool.
type ModelTools interface {
	ModelTools() []string
}

// Prompt is the text an assignment sends to the model.
type Prompt struct {
	System string `json:"system"`
	User   string `json:"user"`
	// Source says where the instructions come from (an agent definition
	// and its version, or the agent's built-in prompt), for the run view.
	Source string `json:"source,omitempty"`
	// NotSent says why no model saw the prompt ("heuristic run"): it is
	// what the run would have sent. Empty when a model was asked.
	NotSent string `json:"not_sent,omitempty"`
	// Notes say what the prompt could not use as written (a definition
	// whose placeholder has no value, so the built-in prompt was used).
	Notes []string `json:"notes,omitempty"`
	// Model optionally overrides the agent's model settings for this run
	// (non-zero fields win), so a run's prompt and settings come from one
	// snapshot of, e.g., an admin-edited definition.
	Model ModelSettings `json:"-"`
}

// Env is what Gather gets: the run's scope and memory, and its agent's tools.
type Env struct {
	Scope  Scope
	Memory *Memory
	Tools  *Toolbox
}

// Call runs a tool by name for the run's member. args is marshalled to JSON
// (nil = {}); a json.RawMessage is passed as is.
func (e *Env) Call(ctx context.Context, name string, args any) (any, error) {
	var raw json.RawMessage
	switch a := args.(type) {
	case nil:
	case json.RawMessage:
		raw = a
	default:
		b, err := json.Marshal(a)
		if err != nil {
			return nil, err
		}
		raw = b
	}
	return e.Tools.Call(ctx, e.Scope, name, raw)
}

// Output sources recorded in ActEnv.Source.
const (
	SourceModel     = "model"
	SourceHeuristic = "heuristic"
	SourceReuse     = "reuse"
)

// ActEnv is what Act gets.
type ActEnv struct {
	Scope    Scope
	Gathered any
	// Output is the validated JSON document.
	Output json.RawMessage
	Memory *Memory
	// Source says where Output came from: SourceModel, SourceHeuristic or SourceReuse.
	Source string
	// FallbackReason is set when the heuristic stood in for the model.
	FallbackReason string

	afterCommit []func()
}

// AfterCommit registers fn to run once the transaction has committed (for
// example to publish a live update); it is dropped if the transaction fails.
func (a *ActEnv) AfterCommit(fn func()) { a.afterCommit = append(a.afterCommit, fn) }
