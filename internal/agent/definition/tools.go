package definition

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"hearth/internal/agent"
)

// tools picks the definition's tools from the registry and returns their
// specs and a caller that runs them for scope, wrapped with tool hooks. A
// tool id the registry does not know is a definition error.
func (inv *invocation) tools(ctx context.Context, def *Definition, scope agent.Scope, idx int) ([]agent.ToolSpec, agent.ToolCaller, error) {
	factories := inv.reg.Factories()
	for _, name := range def.Factories {
		i := slices.IndexFunc(factories, func(f *agent.Factory) bool { return f.Name == name })
		if i < 0 {
			return nil, nil, definitionErr(def.AgentID, "unknown tool factory %q (not in the tool registry)", name)
		}
		// The run page says why the tools will fail (the model reads each
		// failure as the tool's result and says so).
		if inf := factories[i].Info(ctx); !inf.Configured {
			inv.note(idx, "tool factory %s: %s", name, inf.Status)
		}
	}
	ids := inv.reg.AgentTools(*def)
	if len(ids) == 0 {
		return nil, nil, nil
	}
	byName := map[string]agent.ToolSpec{}
	if inv.reg.Tools != nil {
		for _, s := range inv.reg.Tools.Specs() {
			byName[s.Name] = s
		}
	}
	specs := make([]agent.ToolSpec, 0, len(ids))
	allowed := map[string]bool{}
	for _, id := range ids {
		s, ok := byName[id]
		if !ok {
			return nil, nil, definitionErr(def.AgentID, "unknown tool %q (not in the tool registry)", id)
		}
		specs = append(specs, s)
		allowed[id] = true
	}
	caller := func(ctx context.Context, name string, args json.RawMessage) (any, error) {
		if !allowed[name] {
			return nil, fmt.Errorf("tool %q is not available to this agent", name)
		}
		hooks := def.ToolHooks[name]
		var parsed any
		if len(args) > 0 {
			_ = json.Unmarshal(args, &parsed)
		}
		ev := HookEvent{Point: BeforeTool, AgentID: def.AgentID, Tool: name}
		inv.fire(ctx, idx, scope, hooks.Before, ev, map[string]any{"tool": name, "args": parsed})
		t := time.Now()
		res, err := inv.reg.Tools.Call(ctx, scope, name, args)
		inv.x.Timing("tools", t)
		if inv.observe != nil {
			inv.observe(name, args, res, err)
		}
		if len(hooks.After) > 0 {
			v := map[string]any{"tool": name, "args": parsed, "result": nil, "error": ""}
			if err != nil {
				v["error"] = err.Error()
			} else if jv, jerr := jsonValue(res); jerr == nil {
				v["result"] = jv
			}
			ev.Point = AfterTool
			inv.fire(ctx, idx, scope, hooks.After, ev, v)
		}
		return res, err
	}
	return specs, caller, nil
}

// clipRunes cuts s to n characters.
func clipRunes(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// fire runs hooks with the value each one's source selects from root.
// Failures are logged and noted on the step; they never fail the invoke.
// Hooks that write stage their writes in scope.
func (inv *invocation) fire(ctx context.Context, idx int, scope agent.Scope, refs []HookRef, ev HookEvent, root any) {
	if len(refs) == 0 {
		return
	}
	defer inv.x.Timing("hooks", time.Now())
	ev.Member, ev.RunID, ev.Scope = inv.member, inv.x.RunID(), scope
	for _, h := range refs {
		fn := inv.reg.Hooks[h.Hook]
		if fn == nil {
			inv.note(idx, "hook %s (%s): not registered", h.Hook, ev.Point)
			continue
		}
		v, ok := Lookup(root, h.Source)
		if !ok {
			inv.note(idx, "hook %s (%s): nothing at source %q", h.Hook, ev.Point, h.Source)
			continue
		}
		ev.Value = v
		if err := fn(ctx, ev); err != nil {
			inv.r.log.Warn("definition: hook failed", "hook", h.Hook, "point", ev.Point, "agent", ev.AgentID, "run", ev.RunID, "err", err)
			inv.note(idx, "hook %s (%s) failed: %v", h.Hook, ev.Point, err)
			continue
		}
		// What the hook was given is what it sends (notify, send_message) or logs.
		inv.note(idx, "hook %s (%s) fired with %q", h.Hook, ev.Point, clipRunes(hookText(v), 200))
	}
}
