package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"

	"hearth/internal/apperr"
)

// ToolSpec is what a runtime advertises to the model for one tool.
type ToolSpec struct {
	Name        string
	Description string
	Parameters  map[string]any
}

// ToolCaller executes a tool call for the run it is bound to (see
// Toolbox.Caller); the runtime uses it in the tool-call loop.
type ToolCaller func(ctx context.Context, name string, args json.RawMessage) (any, error)

// ArgsError reports tool arguments that do not match the tool's schema.
type ArgsError struct {
	Tool   string
	Errors []ValidationError
}

func (e *ArgsError) Error() string {
	return fmt.Sprintf("agent: invalid arguments for %s:\n%s", e.Tool, FormatValidationErrors(e.Errors))
}

type boxedTool struct {
	tool   Tool
	schema *Schema
}

// Toolbox is the union of an agent's tool factories, with each tool's
// parameter schema compiled once.
type Toolbox struct {
	tools map[string]boxedTool
	order []string
	// factories are the named factories (*Factory) the tools came from.
	factories []*Factory
}

var toolName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// NewToolbox merges the factories' tools; duplicate or malformed names and
// schemas that do not compile are errors.
func NewToolbox(factories ...ToolFactory) (*Toolbox, error) {
	b := &Toolbox{tools: map[string]boxedTool{}}
	for _, f := range factories {
		if f == nil {
			continue
		}
		if nf, ok := f.(*Factory); ok {
			if !toolName.MatchString(nf.Name) || slices.ContainsFunc(b.factories, func(o *Factory) bool { return o.Name == nf.Name }) {
				return nil, fmt.Errorf("agent: factory name %q is malformed or used twice", nf.Name)
			}
			b.factories = append(b.factories, nf)
		}
		for _, t := range f.Tools() {
			if !toolName.MatchString(t.Name) {
				return nil, fmt.Errorf("agent: tool name %q must match %s", t.Name, toolName)
			}
			if _, dup := b.tools[t.Name]; dup {
				return nil, fmt.Errorf("agent: duplicate tool %q", t.Name)
			}
			if t.Execute == nil {
				return nil, fmt.Errorf("agent: tool %q has no Execute", t.Name)
			}
			params := t.Parameters
			if params == nil {
				params = map[string]any{"type": "object", "properties": map[string]any{}}
				t.Parameters = params
			}
			sch, err := CompileSchema("tool-"+t.Name, params)
			if err != nil {
				return nil, err
			}
			b.tools[t.Name] = boxedTool{tool: t, schema: sch}
			b.order = append(b.order, t.Name)
		}
	}
	return b, nil
}

// Tools returns the tools in registration order.
func (b *Toolbox) Tools() []Tool {
	out := make([]Tool, 0, len(b.order))
	for _, n := range b.order {
		out = append(out, b.tools[n].tool)
	}
	return out
}

// Factories returns the named factories the tools came from, in
// registration order.
func (b *Toolbox) Factories() []*Factory { return slices.Clone(b.factories) }

// Factory returns the named factory.
func (b *Toolbox) Factory(name string) (*Factory, bool) {
	i := slices.IndexFunc(b.factories, func(f *Factory) bool { return f.Name == name })
	if i < 0 {
		return nil, false
	}
	return b.factories[i], true
}

// Names returns the tool names in registration order.
func (b *Toolbox) Names() []string { return slices.Clone(b.order) }

// Specs returns the tool descriptions a runtime sends to the model.
func (b *Toolbox) Specs() []ToolSpec {
	out := make([]ToolSpec, 0, len(b.order))
	for _, n := range b.order {
		t := b.tools[n].tool
		out = append(out, ToolSpec{Name: t.Name, Description: t.Description, Parameters: t.Parameters})
	}
	return out
}

// Call validates args against the tool's schema and executes the tool with
// the given scope. Empty args mean {}. An unknown tool is NotFound; bad
// arguments are an *ArgsError.
func (b *Toolbox) Call(ctx context.Context, scope Scope, name string, args json.RawMessage) (any, error) {
	bt, ok := b.tools[name]
	if !ok {
		return nil, apperr.NotFoundf("unknown tool %q", name)
	}
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	if errs := bt.schema.Validate(args); len(errs) > 0 {
		return nil, &ArgsError{Tool: name, Errors: errs}
	}
	scope.call = newToolCall(name, args)
	return bt.tool.Execute(ctx, scope, args)
}

// Caller binds the toolbox to a run's scope: whatever the arguments say, the
// tool runs for scope.MemberID.
func (b *Toolbox) Caller(scope Scope) ToolCaller {
	return func(ctx context.Context, name string, args json.RawMessage) (any, error) {
		return b.Call(ctx, scope, name, args)
	}
}

// Only returns a toolbox of the named tools of b, in that order (an agent
// made in admin chats with the tools its definition lists). A name b does
// not have is NotFound.
func (b *Toolbox) Only(names []string) (*Toolbox, error) {
	out := &Toolbox{tools: map[string]boxedTool{}}
	for _, n := range names {
		bt, ok := b.tools[n]
		if !ok {
			return nil, apperr.NotFoundf("unknown tool %q", n)
		}
		if _, dup := out.tools[n]; !dup {
			out.tools[n] = bt
			out.order = append(out.order, n)
		}
	}
	return out, nil
}
