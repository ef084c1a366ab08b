package definition

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"time"

	"hearth/internal/agent"
)

// Context types every definition may declare. Domains register more in
// Registry.Contexts (the coach's: program_state, health_summary, …).
const (
	// ContextMemberProfile is who the member is (the app resolves it).
	ContextMemberProfile = "member_profile"
	// ContextDate is today's date and time (DateContext).
	ContextDate = "date_context"
	// ContextWorkingMemory is the agent's working memory for the member,
	// provided by the engine.
	ContextWorkingMemory = "working_memory"
)

// ContextResolver renders one context type for a member as a prompt section.
type ContextResolver func(ctx context.Context, member string) (string, error)

// ToolSet is the tool registry definitions pick their tools from
// (*agent.Toolbox satisfies it).
type ToolSet interface {
	Specs() []agent.ToolSpec
	Call(ctx context.Context, scope agent.Scope, name string, args json.RawMessage) (any, error)
}

// Registry is what definitions may refer to; saving checks against it and
// the invoker resolves from it.
type Registry struct {
	// Tools are the tools tool_ids name (nil = none).
	Tools ToolSet
	// Contexts resolve context types by name.
	Contexts map[string]ContextResolver
	// Hooks are the hook functions hooks name (see BuiltinHooks).
	Hooks map[string]HookFunc
	// Vars lists, per agent id, extra template variables that agent's
	// callers supply (for example the variables the coach's assignment
	// renders into its user template).
	Vars map[string][]string
	// UserFields are the member's fields {{user.<field>}} may name (the
	// app's member data: id, name, unit…); a path below one
	// ({{user.targets.calories}}) is that field's. Nil: not checked. An
	// agent whose Vars list user.<field> names may name only those.
	UserFields []string
	// OwnTemplates marks agents whose own code renders their definition's
	// system prompt and user template (the coach's daily run) with the
	// names in Vars and nothing else: a save that names anything more is
	// refused, since the run could not fill it.
	OwnTemplates map[string]bool
	// Needs, per agent id, lists what that agent's assignments cannot do
	// without in its definition (the coach's daily dashboard: the
	// dashboard document schema); a save that removes it is refused with
	// each Need's message.
	Needs map[string]func(d Definition) []Need
}

// Need is a part of a definition an assignment cannot do without, and the
// message a save that removes it is refused with.
type Need struct {
	Field   string
	Message string
}

// ContextTypes lists the context types definitions may declare, sorted.
func (r Registry) ContextTypes() []string {
	out := make([]string, 0, len(r.Contexts)+1)
	for name := range r.Contexts {
		out = append(out, name)
	}
	if r.Contexts[ContextWorkingMemory] == nil { // the engine provides it
		out = append(out, ContextWorkingMemory)
	}
	slices.Sort(out)
	return out
}

// ToolIDs lists the registered tool names in registry order.
func (r Registry) ToolIDs() []string {
	if r.Tools == nil {
		return nil
	}
	var out []string
	for _, s := range r.Tools.Specs() {
		out = append(out, s.Name)
	}
	return out
}

// factorySet is a ToolSet whose tools come in named factories
// (*agent.Toolbox).
type factorySet interface {
	Factories() []*agent.Factory
}

// Factories lists the named tool factories definitions may list, in
// registry order (none when Tools does not group its tools).
func (r Registry) Factories() []*agent.Factory {
	if fs, ok := r.Tools.(factorySet); ok {
		return fs.Factories()
	}
	return nil
}

// FactoryNames lists the factories' names in registry order.
func (r Registry) FactoryNames() []string {
	var out []string
	for _, f := range r.Factories() {
		out = append(out, f.Name)
	}
	return out
}

// AgentTools is every tool d may call: each listed factory's tools, then
// its single tool_ids, without repeats. A factory the registry does not
// have adds nothing (saving refuses it; a run reports it).
func (r Registry) AgentTools(d Definition) []string {
	var out []string
	add := func(name string) {
		if !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	for _, name := range d.Factories {
		for _, f := range r.Factories() {
			if f.Name == name {
				for _, t := range f.ToolNames() {
					add(t)
				}
			}
		}
	}
	for _, t := range d.ToolIDs {
		add(t)
	}
	return out
}

// HookNames lists the registered hooks, sorted.
func (r Registry) HookNames() []string {
	out := make([]string, 0, len(r.Hooks))
	for name := range r.Hooks {
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}

// DateContext is the date_context resolver: today's date, weekday and time
// in loc, from the clock now.
func DateContext(now func() time.Time, loc *time.Location) ContextResolver {
	if now == nil {
		now = time.Now
	}
	if loc == nil {
		loc = time.UTC
	}
	return func(context.Context, string) (string, error) {
		return FormatNow(now(), loc), nil
	}
}

// FormatNow renders an instant for a model: "Saturday 14 February 2026,
// 09:00 (Europe/Paris)".
func FormatNow(t time.Time, loc *time.Location) string {
	if loc == nil {
		loc = time.UTC
	}
	t = t.In(loc)
	return t.Format("Monday 2 January 2006, 15:04") + " (" + loc.String() + ")"
}

// sectionTitle turns a context type name into a heading: member_profile →
// "Member profile".
func sectionTitle(name string) string {
	s := strings.ReplaceAll(name, "_", " ")
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
