package agent

import (
	"context"
	"encoding/json"
)

// Shaper is implemented by an assignment whose model path an editable
// definition shapes (the coach's daily dashboard, from its current
// declarative definition): the tools the model is offered, extra prompt
// sections, checks of the model's output beyond the schema and the domain
// rules (which may run sub-agents on it) and what fires around it. Gather,
// the heuristic planner and Act stay the assignment's, so a shape can
// never stop the assignment from writing its document.
type Shaper interface {
	// Shape is called once per run, after Prompt, with the run's memory
	// and prompt; nil means the run is not shaped.
	Shape(ctx context.Context, x *Exec, mem *Memory, p Prompt) (*Shape, error)
}

// Shape is what a definition changes in one assignment run's model path.
// It applies to the model only: output reused from an identical earlier
// run and the heuristic planner's output are written as they are, without
// the shape's checks or hooks (a fell-back run applies none of the
// model's writes either).
type Shape struct {
	// Fingerprint identifies the shape for output reuse (a definition
	// version): a changed definition is a changed input.
	Fingerprint string
	// System is appended to the prompt's system text (context sections).
	System string
	// Tools, when not nil, are what the model is offered instead of the
	// agent's whole toolbox (empty: no tools); CallTool runs them.
	Tools    []ToolSpec
	CallTool ToolCaller
	// Check validates an output that passed the schema and the domain
	// checks; its errors go back to the model like theirs. An error ends
	// the model path (the run falls back to the heuristic).
	Check func(ctx context.Context, output json.RawMessage) ([]ValidationError, error)
	// Before runs once before the model is first asked; After once its
	// output is accepted, before the run commits (writes they make are
	// staged in the run).
	Before func(ctx context.Context)
	After  func(ctx context.Context, output json.RawMessage)
	// Err, set by the engine when Shape failed, sends the run to the
	// heuristic planner with the reason "definition_error: …".
	Err error
}
