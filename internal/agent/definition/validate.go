package definition

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"

	"hearth/internal/agent"
	"hearth/internal/apperr"
	textgate "hearth/internal/text"
)

// agentIDPattern allows seed-style ids such as "health-coach" or "plan:message".
var agentIDPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9_:-]{0,63}$`)

var keyPattern = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,63}$`)

// Template parameters every definition may use; user, extras and input also
// take a path (user.name, extras.week, input.overview).
var (
	templateParams = []string{"message", "member", "now", "previous_messages"}
	templateRoots  = []string{"user", "extras", "input"}
)

// Limits on what an admin can store.
const (
	maxPromptLen   = 100_000
	maxIterations  = 50
	maxRetries     = 10
	maxOutputToken = 1_000_000
	// maxRunBudget bounds a run's token budget (a typo's extra zeros).
	maxRunBudget = 100_000_000
)

// graph is what validation needs to know about the other agents.
type graph struct {
	// subs maps every agent with a current definition to its sub-agent ids.
	subs map[string][]string
	// parentKeys are the keys other agents' object input mappings give the
	// agent being validated (its template may use them).
	parentKeys []string
}

// problems collects per-field messages.
type problems map[string][]string

func (p problems) add(field, format string, args ...any) {
	p[field] = append(p[field], fmt.Sprintf(format, args...))
}

// err returns an apperr.Invalid whose message lists every problem and whose
// Fields carry them per form field; nil when there are none.
func (p problems) err() error {
	if len(p) == 0 {
		return nil
	}
	fields := map[string]string{}
	var all []string
	names := make([]string, 0, len(p))
	for f := range p {
		names = append(names, f)
	}
	slices.Sort(names)
	for _, f := range names {
		msg := strings.Join(p[f], "; ")
		fields[f] = msg
		all = append(all, f+": "+msg)
	}
	return &apperr.Error{Code: apperr.Invalid, Message: "the definition was not saved: " + strings.Join(all, " | "), Fields: fields}
}

// validate checks d (normalized) against the registry and the graph of the
// other agents' current definitions.
func (reg Registry) validate(d *Definition, g graph) error {
	p := problems{}
	if !agentIDPattern.MatchString(d.AgentID) {
		p.add("agent_id", "must be 1-64 lowercase letters, digits, _, - or :, starting with a letter or digit")
	}
	for field, s := range map[string]*string{"system_prompt": &d.SystemPrompt, "user_template": &d.UserTemplate} {
		if v, err := textgate.Check(textgate.Multi, *s); err != nil {
			p.add(field, "%s", err.Error())
		} else {
			*s = v
		}
	}
	if strings.TrimSpace(d.SystemPrompt) == "" {
		p.add("system_prompt", "is required")
	}
	if len(d.SystemPrompt) > maxPromptLen {
		p.add("system_prompt", "is longer than %d characters", maxPromptLen)
	}
	if len(d.UserTemplate) > maxPromptLen {
		p.add("user_template", "is longer than %d characters", maxPromptLen)
	}
	reg.checkTemplate(d, g.parentKeys, p)
	if _, err := textgate.Check(textgate.Line, d.Model); err != nil || len(d.Model) > 100 || strings.ContainsAny(d.Model, " \t\r\n") {
		p.add("model", "must be a model name without spaces (at most 100 characters)")
	}
	if t := d.Temperature; t != nil && (math.IsNaN(*t) || *t < 0 || *t > 2) {
		p.add("temperature", "must be between 0 and 2")
	}
	if d.MaxTokens < 0 || d.MaxTokens > maxOutputToken {
		p.add("max_tokens", "must be between 0 (no cap) and %d", maxOutputToken)
	}
	if d.MaxIterations < 1 || d.MaxIterations > maxIterations {
		p.add("max_iterations", "must be between 1 and %d", maxIterations)
	}
	if d.MaxRetries < 0 || d.MaxRetries > maxRetries {
		p.add("max_retries", "must be between 0 and %d", maxRetries)
	}
	if _, err := textgate.Check(textgate.Line, d.ToolModel); err != nil || len(d.ToolModel) > 100 || strings.ContainsAny(d.ToolModel, " \t\r\n") {
		p.add("tool_model", "must be a model name without spaces (at most 100 characters)")
	}
	if d.BudgetPromptTokens < 0 || d.BudgetPromptTokens > maxRunBudget {
		p.add("budget_prompt_tokens", "must be between 0 (the household default) and %d", maxRunBudget)
	}
	if d.BudgetCompletionTokens < 0 || d.BudgetCompletionTokens > maxRunBudget {
		p.add("budget_completion_tokens", "must be between 0 (the household default) and %d", maxRunBudget)
	}
	reg.checkTools(d, p)
	reg.checkContexts(d, p)
	if d.OutputSchema != nil {
		if _, err := agent.CompileSchema("definition-"+d.AgentID, d.OutputSchema); err != nil {
			p.add("output_schema", "does not compile: %s", oneLine(err))
		}
	}
	if err := checkRules(d.ValidationRules); err != nil {
		p.add("validation_rules", "%s", oneLine(err))
	}
	if d.OutputSchema == nil {
		for _, r := range d.ValidationRules {
			if r.Path != "" {
				p.add("validation_rules", "rule on %q needs an output schema: without one the output is free text (use path \"\")", r.Path)
				break
			}
		}
	}
	reg.checkSubAgents(d, g, p)
	reg.checkHooks("hooks", d.Hooks.Before, p)
	reg.checkHooks("hooks", d.Hooks.After, p)
	for _, tool := range sortedKeys(d.ToolHooks) {
		if !slices.Contains(reg.AgentTools(*d), tool) {
			p.add("tool_hooks", "%q is not one of this agent's tools", tool)
		}
		reg.checkHooks("tool_hooks", d.ToolHooks[tool].Before, p)
		reg.checkHooks("tool_hooks", d.ToolHooks[tool].After, p)
	}
	if needs := reg.Needs[d.AgentID]; needs != nil {
		for _, n := range needs(*d) {
			p.add(n.Field, "%s", n.Message)
		}
	}
	return p.err()
}

// checkTemplate checks the {{…}} placeholders of the system prompt and the
// user template: each must name something the run has a value for, so no
// placeholder is ever sent to a model as written, and no saved prompt is
// one its run must replace with its code default (a coach's system prompt
// naming {{user.favourite_food}} was saved, and its daily runs silently
// used the built-in prompt).
func (reg Registry) checkTemplate(d *Definition, parentKeys []string, p problems) {
	fields := reg.userFields(d.AgentID)
	own := reg.OwnTemplates[d.AgentID]
	for _, f := range []struct{ field, text string }{{"system_prompt", d.SystemPrompt}, {"user_template", d.UserTemplate}} {
		vars, err := TemplateVariables(f.text)
		if err != nil {
			p.add(f.field, "%s", err.Error())
		}
		known := slices.Concat(templateParams, d.ContextTypes, reg.Vars[d.AgentID], parentKeys)
		if own {
			known = reg.Vars[d.AgentID]
		}
		var unknown, unknownUser []string
		for _, v := range vars {
			root, path, dotted := strings.Cut(v, ".")
			switch {
			case own && slices.Contains(known, v):
			case own && root == "user" && dotted && fields != nil:
				unknownUser = append(unknownUser, "{{"+v+"}}")
			case own:
				unknown = append(unknown, "{{"+v+"}}")
			case root == "user" && dotted && fields != nil:
				// The member's fields are known: a path must start with one.
				if field, _, _ := strings.Cut(path, "."); !slices.Contains(fields, field) {
					unknownUser = append(unknownUser, "{{"+v+"}}")
				}
			// Paths reach into user, extras, input and the values parents map in.
			case slices.Contains(templateRoots, root) || slices.Contains(parentKeys, root) || (!dotted && slices.Contains(known, v)):
			default:
				unknown = append(unknown, "{{"+v+"}}")
			}
		}
		if len(unknownUser) > 0 {
			p.add(f.field, "unknown member field %s: the member's fields are %s", strings.Join(unknownUser, ", "), userList(fields))
		}
		switch {
		case len(unknown) == 0:
		case own:
			p.add(f.field, "unknown variable %s: this agent's runs fill only %s", strings.Join(unknown, ", "), wrapList(known))
		default:
			p.add(f.field, "unknown variable %s: use a declared context type (%s), a parameter (%s), user.<field>, extras.<name> or input.<name>",
				strings.Join(unknown, ", "), listOrNone(d.ContextTypes), strings.Join(templateParams, ", "))
		}
	}
}

// userFields are the member fields agentID's templates may name: the
// user.<field> names of its Vars when it declares any (its own renderer
// fills only those), else the registry's UserFields.
func (reg Registry) userFields(agentID string) []string {
	var own []string
	for _, v := range reg.Vars[agentID] {
		if f, ok := strings.CutPrefix(v, "user."); ok {
			own = append(own, f)
		}
	}
	if len(own) > 0 {
		return own
	}
	return reg.UserFields
}

func userList(fields []string) string {
	out := make([]string, len(fields))
	for i, f := range fields {
		out[i] = "{{user." + f + "}}"
	}
	return strings.Join(out, ", ")
}

func wrapList(names []string) string { return strings.Join(wrapVars(names), ", ") }

func (reg Registry) checkTools(d *Definition, p problems) {
	checkNames(p, "factories", "tool factory", d.Factories, reg.FactoryNames())
	checkNames(p, "tool_ids", "tool", d.ToolIDs, reg.ToolIDs())
}

func (reg Registry) checkContexts(d *Definition, p problems) {
	checkNames(p, "context_types", "context type", d.ContextTypes, reg.ContextTypes())
}

// checkNames reports a name of listed given twice or not among avail.
func checkNames(p problems, field, what string, listed, avail []string) {
	seen := map[string]bool{}
	for _, n := range listed {
		switch {
		case seen[n]:
			p.add(field, "%q is listed twice", n)
		case !slices.Contains(avail, n):
			p.add(field, "unknown %s %q (available: %s)", what, n, listOrNone(avail))
		}
		seen[n] = true
	}
}

func (reg Registry) checkSubAgents(d *Definition, g graph, p problems) {
	keys := map[string]bool{}
	for i, s := range d.SubAgents {
		at := fmt.Sprintf("entry %d", i+1)
		if s.Key != "" {
			at = fmt.Sprintf("entry %q", s.Key)
		}
		switch {
		case !keyPattern.MatchString(s.Key):
			p.add("sub_agents", "%s: key must be a name of letters, digits and _", at)
		case keys[s.Key]:
			p.add("sub_agents", "%s: key is used twice", at)
		}
		keys[s.Key] = true
		if s.Batch < 0 || s.Batch > 100 {
			p.add("sub_agents", "%s: batch must be between 0 and 100", at)
		}
		if _, ok := g.subs[s.AgentID]; !ok && s.AgentID != d.AgentID {
			p.add("sub_agents", "%s: unknown agent %q (no current definition)", at, s.AgentID)
		}
		if err := checkMapping(s.Input); err != nil {
			p.add("sub_agents", "%s: input: %s", at, oneLine(err))
		}
		if err := checkRules(s.Condition); err != nil {
			p.add("sub_agents", "%s: condition: %s", at, oneLine(err))
		}
		reg.checkHooks("sub_agents", s.After, p)
	}
	edges := make(map[string][]string, len(g.subs)+1)
	for k, v := range g.subs {
		edges[k] = v
	}
	edges[d.AgentID] = subAgentIDs(d)
	if err := checkGraph(edges); err != nil {
		p.add("sub_agents", "%s", err.Error())
	}
}

func (reg Registry) checkHooks(field string, refs []HookRef, p problems) {
	for _, h := range refs {
		if _, ok := reg.Hooks[h.Hook]; !ok {
			p.add(field, "unknown hook %q (available: %s)", h.Hook, listOrNone(reg.HookNames()))
		}
		if err := checkPath(h.Source); err != nil {
			p.add(field, "hook %q source: %s", h.Hook, err.Error())
		}
	}
}

// subAgentIDs lists the distinct agent ids of d's sub-agents.
func subAgentIDs(d *Definition) []string {
	var out []string
	for _, s := range d.SubAgents {
		if !slices.Contains(out, s.AgentID) {
			out = append(out, s.AgentID)
		}
	}
	return out
}

// mappingKeys returns the top-level keys of an object input mapping.
func mappingKeys(input any) []string {
	m, ok := input.(map[string]any)
	if !ok {
		return nil
	}
	return sortedKeys(m)
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func listOrNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}

func oneLine(err error) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(err.Error(), "\n", "; ")), " ")
}
