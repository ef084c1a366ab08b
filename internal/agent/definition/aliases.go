package definition

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
)

// Seed-format names (seeds/003: the agent_definitions columns and the
// TypeScript interfaces of the design this package follows) are accepted
// as aliases of this package's field names wherever a definition is
// decoded, so the seed's examples can be pasted in; they are stored under
// the canonical names. A field given under two names is an error, and any
// other unknown field is still refused (admins type these by hand).
var (
	definitionAliases = map[string]string{
		"agentId": "agent_id", "systemPrompt": "system_prompt",
		"user_prompt_template": "user_template", "userPromptTemplate": "user_template", "userTemplate": "user_template",
		"maxTokens": "max_tokens", "maxIterations": "max_iterations", "maxRetries": "max_retries",
		"toolIds": "tool_ids", "toolIDs": "tool_ids", "contextTypes": "context_types",
		"schema_json": "output_schema", "schemaJson": "output_schema", "outputSchema": "output_schema",
		"validationRules": "validation_rules", "subAgents": "sub_agents", "toolHooks": "tool_hooks",
	}
	ruleAliases     = map[string]string{"field": "path", "check": "op", "expected": "value", "error": "message"}
	subAgentAliases = map[string]string{"agentId": "agent_id", "inputMapping": "input", "input_mapping": "input",
		"postHook": "after", "post_hook": "after", "post": "after"}
	hooksAliases = map[string]string{"pre": "before", "preHook": "before", "pre_hook": "before",
		"post": "after", "postHook": "after", "post_hook": "after"}
)

// versionMetadata are the fields of an exported version (and of a seed row)
// that are not part of the definition; ParseDefinition ignores them.
var versionMetadata = []string{"version_id", "version", "is_active", "active", "created_at", "created_by",
	"change_note", "deactivated_at", "deactivated_by", "activated_at", "activated_by", "draft", "discarded"}

// decodeAliased decodes the JSON object b into dst (a pointer to a type
// without a custom UnmarshalJSON) strictly, after renaming alias keys to
// their canonical names. fix, when set, may rewrite a canonical field's
// value first (a single hook where a list is expected).
func decodeAliased(b []byte, aliases map[string]string, dst any, fix func(key string, v json.RawMessage) json.RawMessage) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	out := make(map[string]json.RawMessage, len(m))
	names := map[string]string{}
	for _, k := range sortedKeys(m) {
		canon := k
		if c, ok := aliases[k]; ok {
			canon = c
		}
		if prev, dup := names[canon]; dup {
			return fmt.Errorf("%q and %q name the same field %q: give one", prev, k, canon)
		}
		names[canon] = k
		v := m[k]
		if fix != nil {
			v = fix(canon, v)
		}
		out[canon] = v
	}
	nb, err := json.Marshal(out)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(nb))
	dec.DisallowUnknownFields()
	return dec.Decode(dst)
}

func isNull(b []byte) bool { return string(bytes.TrimSpace(b)) == "null" }

// UnmarshalJSON accepts the seed's column and interface names (see
// definitionAliases).
func (d *Definition) UnmarshalJSON(b []byte) error {
	if isNull(b) {
		return nil
	}
	type plain Definition
	p := plain(*d)
	if err := decodeAliased(b, definitionAliases, &p, nil); err != nil {
		return err
	}
	*d = Definition(p)
	return nil
}

// UnmarshalJSON accepts the seed's ValidationRule names: field, check,
// expected and error.
func (r *Rule) UnmarshalJSON(b []byte) error {
	if isNull(b) {
		return nil
	}
	type plain Rule
	var p plain
	if err := decodeAliased(b, ruleAliases, &p, nil); err != nil {
		return err
	}
	*r = Rule(p)
	return nil
}

// UnmarshalJSON accepts the seed's SubAgentConfig names: agentId,
// inputMapping and postHook (one hook or a list).
func (s *SubAgent) UnmarshalJSON(b []byte) error {
	if isNull(b) {
		return nil
	}
	type plain SubAgent
	var p plain
	if err := decodeAliased(b, subAgentAliases, &p, hookList("after")); err != nil {
		return err
	}
	*s = SubAgent(p)
	return nil
}

// UnmarshalJSON accepts pre/post and preHook/postHook for before/after,
// each one hook or a list.
func (h *Hooks) UnmarshalJSON(b []byte) error {
	if isNull(b) {
		return nil
	}
	type plain Hooks
	var p plain
	if err := decodeAliased(b, hooksAliases, &p, hookList("before", "after")); err != nil {
		return err
	}
	*h = Hooks(p)
	return nil
}

// hookList wraps a single hook (a name or an object) given for one of keys
// into a list.
func hookList(keys ...string) func(key string, v json.RawMessage) json.RawMessage {
	return func(key string, v json.RawMessage) json.RawMessage {
		t := bytes.TrimSpace(v)
		if !slices.Contains(keys, key) || len(t) == 0 || t[0] == '[' || isNull(t) {
			return v
		}
		return json.RawMessage("[" + string(t) + "]")
	}
}

// ParseDefinition reads a whole definition as JSON: this package's format,
// the seed's (column names, camelCase interface names, hook and context
// type names such as "sendMessage" and "USER_PROFILE"), or an exported
// version (its metadata is ignored). Unknown fields are refused. The
// result still has to pass Repo.Check / Save.
func ParseDefinition(s string) (Definition, error) {
	var m map[string]json.RawMessage
	if err := DecodeStrict(s, &m); err != nil {
		return Definition{}, err
	}
	if m == nil {
		return Definition{}, fmt.Errorf("a definition is a JSON object")
	}
	for _, k := range versionMetadata {
		delete(m, k)
	}
	b, err := json.Marshal(m)
	if err != nil {
		return Definition{}, err
	}
	var d Definition
	if err := DecodeStrict(string(b), &d); err != nil {
		return Definition{}, err
	}
	d.Normalize()
	return d, nil
}

// contextAliases map the seed's context types to this package's.
var contextAliases = map[string]string{"user": ContextMemberProfile, "user_profile": ContextMemberProfile}

// normalizeNames turns seed-style hook names (sendMessage) and context
// types (USER_PROFILE, DATE_CONTEXT) into the registered ones; names the
// registry knows, and names it knows under no spelling, are left as they
// are (validation names the unknown ones).
func (reg Registry) normalizeNames(d *Definition) {
	fixHooks := func(refs []HookRef) {
		for i, h := range refs {
			if _, ok := reg.Hooks[h.Hook]; ok {
				continue
			}
			if s := snakeCase(h.Hook); reg.Hooks[s] != nil {
				refs[i].Hook = s
			}
		}
	}
	fixHooks(d.Hooks.Before)
	fixHooks(d.Hooks.After)
	for _, h := range d.ToolHooks {
		fixHooks(h.Before)
		fixHooks(h.After)
	}
	for _, s := range d.SubAgents {
		fixHooks(s.After)
	}
	known := reg.ContextTypes()
	for i, c := range d.ContextTypes {
		if slices.Contains(known, c) {
			continue
		}
		low := strings.ToLower(c)
		if a, ok := contextAliases[low]; ok {
			low = a
		}
		if slices.Contains(known, low) {
			d.ContextTypes[i] = low
		}
	}
}

// snakeCase turns sendMessage into send_message.
func snakeCase(s string) string {
	var b strings.Builder
	for i, r := range s {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// UnmarshalJSON reads an exported version: its metadata, and its
// definition as ParseDefinition does (without it, Definition's method
// would be promoted and refuse the metadata).
func (v *Version) UnmarshalJSON(b []byte) error {
	var meta struct {
		ID            int64      `json:"version_id"`
		Number        int        `json:"version"`
		Active        bool       `json:"active"`
		CreatedAt     time.Time  `json:"created_at"`
		CreatedBy     string     `json:"created_by"`
		ChangeNote    string     `json:"change_note"`
		DeactivatedAt *time.Time `json:"deactivated_at"`
		DeactivatedBy string     `json:"deactivated_by"`
		Draft         bool       `json:"draft"`
		Discarded     bool       `json:"discarded"`
		ActivatedAt   *time.Time `json:"activated_at"`
		ActivatedBy   string     `json:"activated_by"`
	}
	if err := json.Unmarshal(b, &meta); err != nil {
		return err
	}
	d, err := ParseDefinition(string(b))
	if err != nil {
		return err
	}
	*v = Version{Definition: d, ID: meta.ID, Number: meta.Number, Active: meta.Active, CreatedAt: meta.CreatedAt,
		CreatedBy: meta.CreatedBy, ChangeNote: meta.ChangeNote, DeactivatedAt: meta.DeactivatedAt,
		DeactivatedBy: meta.DeactivatedBy, Draft: meta.Draft, Discarded: meta.Discarded, ActivatedAt: meta.ActivatedAt,
		ActivatedBy: meta.ActivatedBy}
	return nil
}
