package definition

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"hearth/internal/agent"
)

// execute runs one agent of the pipeline: context → prompt → tools →
// before hooks → model with validation retries → sub-agents → after hooks.
// It returns what the agent produced and the index of its step.
func (inv *invocation) execute(ctx context.Context, cur *current, c call) (node, int, error) {
	start := time.Now()
	idx := inv.addStep(Step{AgentID: cur.AgentID, Version: cur.Number, Key: c.key, Depth: c.depth, Notes: c.notes})
	n, err := inv.executeStep(ctx, cur, c, idx)
	inv.updateStep(idx, func(s *Step) {
		s.MS = float64(time.Since(start).Microseconds()) / 1000
		if err != nil {
			s.Error = err.Error()
		} else {
			s.Output = n.output
		}
	})
	return n, idx, err
}

func (inv *invocation) executeStep(ctx context.Context, cur *current, c call, idx int) (node, error) {
	def := &cur.Definition
	mem, err := inv.x.Memory(ctx, def.AgentID)
	if err != nil {
		return node{}, err
	}
	scope := inv.x.Scope(def.AgentID, mem)

	t := time.Now()
	sections, err := inv.contexts(ctx, def, mem)
	inv.x.Timing("context", t)
	if err != nil {
		return node{}, err
	}

	t = time.Now()
	var own map[string]string
	if fn := inv.r.opts.Vars[def.AgentID]; fn != nil {
		if own, err = fn(ctx, scope); err != nil {
			return node{}, fmt.Errorf("definition: variables of %s: %w", def.AgentID, err)
		}
	}
	system, user, err := inv.prompt(def, c, sections, own)
	if err != nil {
		return node{}, err
	}
	inv.updateStep(idx, func(s *Step) { s.System, s.User = system, user })
	if c.depth == 0 {
		inv.x.SetPrompt(agent.Prompt{System: system, User: user, Source: fmt.Sprintf("definition %s v%d", cur.AgentID, cur.Number)})
	}
	specs, caller, err := inv.tools(ctx, def, scope, idx)
	inv.x.Timing(agent.PhasePrompt, t)
	if err != nil {
		return node{}, err
	}

	self := c.input
	if c.depth == 0 {
		self = user
	}
	inv.fire(ctx, idx, scope, def.Hooks.Before, HookEvent{Point: BeforeAgent, AgentID: def.AgentID, Key: c.key},
		map[string]any{"member": inv.member, "message": user, "input": self, "extras": inv.extras})

	var base []agent.Message
	if c.depth == 0 {
		base = slices.Clone(inv.params.PreviousMessages)
	}
	base = append(base, agent.Message{Role: agent.RoleUser, Content: user, Pinned: true})
	req := agent.ModelRequest{System: system, Messages: base, Tools: specs, CallTool: caller, Model: def.Model,
		Temperature: def.Temperature, MaxTokens: def.MaxTokens, MaxIterations: def.MaxIterations,
		ToolModel: def.ToolModel, Budget: def.RunBudget()}
	if def.OutputSchema != nil {
		req.Output = &agent.OutputSchema{Name: schemaName(def.AgentID), Schema: def.OutputSchema, Loose: !strictCompatible(def.OutputSchema)}
	}
	var out, composed any
	after := inv.composer(def, c, self, &composed) // sub-agents, and the rules on their keys, per accepted output
	if inv.heuristic {
		out, err = inv.plan(ctx, cur, idx, scope, req, system, user, after)
	} else {
		out, err = inv.reason(ctx, cur, c, idx, req, after)
	}
	if err != nil {
		return node{}, err
	}
	inv.fire(ctx, idx, scope, def.Hooks.After, HookEvent{Point: AfterAgent, AgentID: def.AgentID, Key: c.key}, composed)
	return node{output: out, composed: composed}, nil
}

// contexts resolves the definition's context types in parallel, in order.
func (inv *invocation) contexts(ctx context.Context, def *Definition, mem *agent.Memory) ([]string, error) {
	out := make([]string, len(def.ContextTypes))
	fns := make([]ContextResolver, len(def.ContextTypes))
	for i, name := range def.ContextTypes {
		fns[i] = inv.reg.Contexts[name]
		if fns[i] == nil {
			if name == ContextWorkingMemory {
				out[i] = mem.Serialize()
				continue
			}
			return nil, definitionErr(def.AgentID, "unknown context type %q (not registered)", name)
		}
	}
	errs := make([]error, len(fns))
	var wg sync.WaitGroup
	for i, fn := range fns {
		if fn == nil {
			continue
		}
		wg.Go(func() { out[i], errs[i] = fn(ctx, inv.member) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("definition: context %s for %s: %w", def.ContextTypes[i], def.AgentID, err)
		}
	}
	return out, nil
}

// prompt builds the system prompt (with the context sections) and the user
// message (the rendered template, else the message or the mapped input).
func (inv *invocation) prompt(def *Definition, c call, sections []string, own map[string]string) (system, user string, err error) {
	vars := inv.vars(def, c, sections, own)
	if system, err = inv.system(def, sections, vars); err != nil {
		return "", "", err
	}
	if def.UserTemplate == "" {
		user = c.message
		if c.depth > 0 {
			user = text(c.input)
		}
	} else if user, err = RenderTemplate(def.UserTemplate, vars); err != nil {
		return "", "", definitionErr(def.AgentID, "user template: %s", err.Error())
	}
	if strings.TrimSpace(user) == "" {
		return "", "", definitionErr(def.AgentID, "nothing to send: the message (or mapped input) is empty and there is no user template")
	}
	return system, user, nil
}

// vars are the variables templates and the system prompt may name.
func (inv *invocation) vars(def *Definition, c call, sections []string, own map[string]string) map[string]any {
	vars := map[string]any{"message": inv.params.Message, "member": inv.member,
		"now": FormatNow(inv.now, inv.r.opts.Location), "previous_messages": history(inv.params.PreviousMessages),
		"user": inv.user, "extras": inv.extras, "input": c.input}
	for k, v := range own { // the agent's own variables (the coach's gathered facts)
		vars[k] = v
	}
	for i, name := range def.ContextTypes {
		vars[name] = sections[i]
	}
	if m, ok := c.input.(map[string]any); ok {
		for k, v := range m {
			vars[k] = v
		}
	}
	return vars
}

// system is the system prompt with its placeholders expanded like the
// template's (a placeholder is never sent to the model as written) and the
// context sections after it.
func (inv *invocation) system(def *Definition, sections []string, vars map[string]any) (string, error) {
	head, err := RenderTemplate(strings.TrimSpace(def.SystemPrompt), vars)
	if err != nil {
		return "", definitionErr(def.AgentID, "system prompt: %s", err.Error())
	}
	var sys strings.Builder
	for i, name := range def.ContextTypes {
		if s := strings.TrimSpace(sections[i]); s != "" {
			fmt.Fprintf(&sys, "\n\n## %s\n%s", sectionTitle(name), s)
		}
	}
	if sys.Len() > 0 {
		head = agent.WithDataRule(head) // the sections are stored records
	}
	return head + sys.String(), nil
}

// history renders previous messages for {{previous_messages}}.
func history(msgs []agent.Message) string {
	var b strings.Builder
	for _, m := range msgs {
		fmt.Fprintf(&b, "%s: %s\n", m.Role, m.Content)
	}
	return strings.TrimSpace(b.String())
}
