package definition

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"hearth/internal/agent"
)

// MaxDepth is how deep sub-agents may nest below the invoked agent.
const MaxDepth = 5

// Definition is the editable content of one version of an agent.
type Definition struct {
	AgentID      string `json:"agent_id"`
	SystemPrompt string `json:"system_prompt"`
	// UserTemplate renders the user message with {{variable}} substitution;
	// "" sends the message (or a sub-agent's mapped input) as it is.
	UserTemplate string `json:"user_template"`
	// Model names the model ("" = the runtime's default).
	Model       string   `json:"model"`
	Temperature *float64 `json:"temperature,omitempty"`
	// MaxTokens caps each completion (0 = no cap).
	MaxTokens int `json:"max_tokens"`
	// MaxIterations bounds tool-call turns per attempt (at least 1).
	MaxIterations int `json:"max_iterations"`
	// MaxRetries is how many times invalid output is sent back (0 = none).
	MaxRetries int `json:"max_retries"`
	// ToolModel answers the tool turns, Model then writes the answer
	// ("" = Model for all; agent.ModelRequest.ToolModel).
	ToolModel string `json:"tool_model,omitempty"`
	// BudgetPromptTokens and BudgetCompletionTokens cap one run's tokens
	// (0 = the household default; agent.RunBudget).
	BudgetPromptTokens     int64 `json:"budget_prompt_tokens,omitempty"`
	BudgetCompletionTokens int64 `json:"budget_completion_tokens,omitempty"`
	// Factories name tool factories whose every tool the agent gets
	// (agent.Factory: "homeassistant"), besides the single ToolIDs.
	Factories    []string `json:"factories"`
	ToolIDs      []string `json:"tool_ids"`
	ContextTypes []string `json:"context_types"`
	// OutputSchema is the JSON Schema of the output; nil means free text.
	OutputSchema    map[string]any   `json:"output_schema,omitempty"`
	ValidationRules []Rule           `json:"validation_rules"`
	SubAgents       []SubAgent       `json:"sub_agents"`
	Hooks           Hooks            `json:"hooks"`
	ToolHooks       map[string]Hooks `json:"tool_hooks"`
}

// Rule checks one value of a result: the value at Path (a dot path, "" for
// the whole result; numeric segments index arrays) must pass Op. Value is
// the expected value of equals and length; Message is what the model (or
// the admin) is told when the rule fails.
type Rule struct {
	Path    string          `json:"path"`
	Op      string          `json:"op"`
	Value   json.RawMessage `json:"value,omitempty"`
	Message string          `json:"message,omitempty"`
}

// Rule operators.
const (
	OpEquals      = "equals"
	OpTruthy      = "truthy"
	OpNonEmpty    = "nonEmpty"
	OpAllNonEmpty = "allNonEmpty"
	OpLength      = "length"
)

// SubAgent is one entry of a sub-agent pipeline.
type SubAgent struct {
	// Batch orders the pipeline: lower batches first, one batch in parallel.
	Batch int `json:"batch"`
	// Key is where the sub-agent's result goes in the composed result.
	Key     string `json:"key"`
	AgentID string `json:"agent_id"`
	// Input maps the parent's result, user, extras and input to the
	// sub-agent's input (see the package doc); nil means "$result".
	Input any `json:"input,omitempty"`
	// Condition rules are checked against the parent's result; any failure
	// skips the entry.
	Condition []Rule `json:"condition,omitempty"`
	// After hooks fire with the sub-agent's composed result.
	After []HookRef `json:"after,omitempty"`
}

// Hooks are the hooks fired before and after an agent or a tool.
type Hooks struct {
	Before []HookRef `json:"before,omitempty"`
	After  []HookRef `json:"after,omitempty"`
}

// HookRef names a registered hook and the dot path of the value it gets.
// In JSON it is either "name" or {"hook": "name", "source": "a.b"}.
type HookRef struct {
	Hook   string `json:"hook"`
	Source string `json:"source,omitempty"`
}

// UnmarshalJSON accepts the string shorthand and the object form.
func (h *HookRef) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		h.Source = ""
		return json.Unmarshal(b, &h.Hook)
	}
	type plain HookRef
	var p plain
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return fmt.Errorf("a hook is \"name\" or {\"hook\": \"name\", \"source\": \"path\"}: %w", err)
	}
	*h = HookRef(p)
	return nil
}

// MarshalJSON writes the shorthand when there is no source.
func (h HookRef) MarshalJSON() ([]byte, error) {
	if h.Source == "" {
		return json.Marshal(h.Hook)
	}
	type plain HookRef
	return json.Marshal(plain(h))
}

// Version is one stored version of a definition.
type Version struct {
	Definition
	// ID is the row's version_id (global, append-only).
	ID int64 `json:"version_id"`
	// Number counts the agent's versions: 1, 2, 3, …
	Number        int        `json:"version"`
	Active        bool       `json:"active"`
	CreatedAt     time.Time  `json:"created_at"`
	CreatedBy     string     `json:"created_by"`
	ChangeNote    string     `json:"change_note"`
	DeactivatedAt *time.Time `json:"deactivated_at,omitempty"`
	DeactivatedBy string     `json:"deactivated_by,omitempty"`
	// Draft: saved but never active (SaveDraft), waiting to be evaluated
	// and activated or discarded; Discarded: a draft retired unused.
	Draft     bool `json:"draft"`
	Discarded bool `json:"discarded,omitempty"`
	// ActivatedAt and ActivatedBy say when the version became active: when
	// it was saved, or later for an activated draft (nil: never).
	ActivatedAt *time.Time `json:"activated_at,omitempty"`
	ActivatedBy string     `json:"activated_by,omitempty"`
}

// VersionLabel names a version in reports: "v7", "v7 (draft)".
func VersionLabel(v Version) string {
	if v.Draft {
		return fmt.Sprintf("v%d (draft)", v.Number)
	}
	return fmt.Sprintf("v%d", v.Number)
}

// Summary describes an agent for the definitions list.
type Summary struct {
	AgentID string `json:"agent_id"`
	// Version is the current (newest active) version number; 0 when every
	// version was rolled back.
	Version  int `json:"version"`
	Versions int `json:"versions"`
	// Drafts counts versions saved as drafts and not yet activated or discarded.
	Drafts    int       `json:"drafts"`
	Model     string    `json:"model"`
	UpdatedAt time.Time `json:"updated_at"`
	UpdatedBy string    `json:"updated_by"`
}

// Normalize gives nil lists and maps their empty values so stored JSON and
// diffs are stable.
func (d *Definition) Normalize() {
	if d.ToolIDs == nil {
		d.ToolIDs = []string{}
	}
	if d.Factories == nil {
		d.Factories = []string{}
	}
	if d.ContextTypes == nil {
		d.ContextTypes = []string{}
	}
	if d.ValidationRules == nil {
		d.ValidationRules = []Rule{}
	}
	if d.SubAgents == nil {
		d.SubAgents = []SubAgent{}
	}
	if d.ToolHooks == nil {
		d.ToolHooks = map[string]Hooks{}
	}
}

// DecodeStrict decodes a JSON document into v, refusing unknown fields and
// trailing data (admins type these fields by hand; typos must be reported).
func DecodeStrict(s string, v any) error {
	dec := json.NewDecoder(bytes.NewReader([]byte(s)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return errors.New("unexpected data after the JSON value")
	}
	return nil
}

// RunBudget is the definition's per-run token budget (zero fields: the
// household default).
func (d Definition) RunBudget() agent.RunBudget {
	return agent.RunBudget{PromptTokens: d.BudgetPromptTokens, CompletionTokens: d.BudgetCompletionTokens}
}
