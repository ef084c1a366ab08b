package llm

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"
)

// Family is the kind of server behind an endpoint. It picks the settings
// Hearth starts with; what the server then refuses moves them down a
// ladder (Profile), learned once per endpoint.
type Family string

// Server families (README "Model servers" has the table).
const (
	FamilyOpenAI   Family = "openai"
	FamilyOllama   Family = "ollama"
	FamilyLlamaCpp Family = "llamacpp"
	FamilyVLLM     Family = "vllm"
	FamilyLMStudio Family = "lmstudio"
	// FamilyGeneric is any other OpenAI-compatible server.
	FamilyGeneric Family = "generic"
)

// Families lists the families a configuration may name.
var Families = []Family{FamilyOpenAI, FamilyOllama, FamilyLlamaCpp, FamilyVLLM, FamilyLMStudio, FamilyGeneric}

// ParseFamily reads a HEARTH_MODEL_SERVER value; "" and "auto" mean detect.
func ParseFamily(s string) (Family, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "" || s == "auto" {
		return "", nil
	}
	if s == "llama.cpp" || s == "llama-server" {
		return FamilyLlamaCpp, nil
	}
	for _, f := range Families {
		if string(f) == s {
			return f, nil
		}
	}
	return "", fmt.Errorf("unknown model server %q: want auto, openai, ollama, llamacpp, vllm, lmstudio or generic", s)
}

// OutputMode is how structured output is asked for.
type OutputMode string

// Output modes, the degradation ladder's rungs in order.
const (
	// OutputJSONSchema sends response_format json_schema (in Profile.Dialect).
	OutputJSONSchema OutputMode = "json_schema"
	// OutputJSONObject sends response_format json_object with the schema
	// in the prompt.
	OutputJSONObject OutputMode = "json_object"
	// OutputText sends no response_format: the schema is in the prompt and
	// the document is extracted from the reply.
	OutputText OutputMode = "text"
)

// ToolMode is whether tools are offered to the model.
type ToolMode string

// Tool modes.
const (
	ToolsNative ToolMode = "native"
	// ToolsNone is the tool-less mode: the server cannot call tools, so
	// none are offered; the facts an assignment gathered are in its prompt.
	ToolsNone ToolMode = "none"
)

// Request fields that carry the completion cap.
const (
	FieldMaxTokens           = "max_tokens"
	FieldMaxCompletionTokens = "max_completion_tokens"
)

// Profile is what Hearth uses with one endpoint (base URL and model): the
// server family, the structured-output mode and schema dialect, whether
// tools work, which token-cap field is read, the context size, and what
// was learned and why. It starts from the family's defaults and moves
// down when the server refuses something; it is stored (model_endpoints)
// and shown in Admin → Model, where Reset forgets it.
type Profile struct {
	BaseURL string `json:"base_url"`
	Model   string `json:"model"`
	Family  Family `json:"family"`
	// Detected says how the family was found ("configured", "base URL",
	// "model list", "reply").
	Detected    string     `json:"detected"`
	Output      OutputMode `json:"output"`
	Dialect     Dialect    `json:"dialect"`
	Tools       ToolMode   `json:"tools"`
	ToolDialect Dialect    `json:"tool_dialect"`
	// StrictTools sends tools with strict:true (OpenAI).
	StrictTools bool `json:"strict_tools"`
	// Split keeps tools and response_format out of one request: local
	// servers constrain the whole reply to the schema's grammar, so tool
	// calls never come (ggml-org/llama.cpp#25454).
	Split       bool   `json:"split"`
	TokensField string `json:"tokens_field"`
	// ContextTokens is the model's context size (0 = unknown); prompts
	// are trimmed to fit it.
	ContextTokens int `json:"context_tokens"`
	// Learned lists what changed from the family's defaults and why,
	// newest last.
	Learned   []Lesson  `json:"learned"`
	CheckedAt time.Time `json:"checked_at,omitzero"`
	UpdatedAt time.Time `json:"updated_at"`
}

// Lesson is one thing learned about an endpoint.
type Lesson struct {
	At time.Time `json:"at"`
	// What changed, e.g. "structured output json_schema → json_object".
	What string `json:"what"`
	// Because is the server's answer that taught it (status and message).
	Because string `json:"because"`
}

// maxLessons bounds Profile.Learned.
const maxLessons = 12

// NewProfile is family f's starting profile for an endpoint.
func NewProfile(baseURL, model string, f Family) Profile {
	p := Profile{BaseURL: NormalizeBaseURL(baseURL), Model: model, Family: f, Output: OutputJSONSchema,
		Tools: ToolsNative, TokensField: FieldMaxTokens, Split: true}
	switch f {
	case FamilyOpenAI:
		// Chat Completions reads max_completion_tokens; reasoning models refuse max_tokens.
		p.Dialect, p.ToolDialect, p.StrictTools, p.Split, p.TokensField = DialectOpenAIStrict, DialectOpenAIStrict, true, false, FieldMaxCompletionTokens
	case FamilyOllama, FamilyLlamaCpp, FamilyLMStudio:
		// Ollama ignores max_completion_tokens (not in its request struct).
		p.Dialect, p.ToolDialect = DialectGrammar, DialectGrammar
	case FamilyVLLM:
		p.Dialect, p.ToolDialect = DialectFull, DialectFull
	default:
		// An unknown server is taken at its word, "OpenAI-compatible", but
		// with max_tokens, which every server reads.
		p.Family = FamilyGeneric
		p.Dialect, p.ToolDialect, p.Split = DialectOpenAIStrict, DialectOpenAIStrict, false
	}
	return p
}

// Settings summarises the profile in one line.
func (p Profile) Settings() string {
	var b strings.Builder
	fmt.Fprintf(&b, "structured output %s", p.Output)
	if p.Output == OutputJSONSchema {
		fmt.Fprintf(&b, " (%s schema)", p.Dialect)
	}
	if p.Output != OutputJSONSchema {
		b.WriteString(" with the schema in the prompt")
	}
	switch {
	case p.Tools == ToolsNone:
		b.WriteString("; tool-less (facts in the prompt)")
	case p.StrictTools:
		fmt.Fprintf(&b, "; tools strict (%s)", p.ToolDialect)
	default:
		fmt.Fprintf(&b, "; tools (%s)", p.ToolDialect)
	}
	if p.Split && p.Tools == ToolsNative {
		b.WriteString(", in requests without the output format")
	}
	fmt.Fprintf(&b, "; %s", p.TokensField)
	if p.ContextTokens > 0 {
		fmt.Fprintf(&b, "; context %d tokens", p.ContextTokens)
	}
	return b.String()
}

func (p *Profile) learn(now time.Time, what, because string) {
	p.Learned = append(p.Learned, Lesson{At: now.UTC(), What: what, Because: because})
	if len(p.Learned) > maxLessons {
		p.Learned = p.Learned[len(p.Learned)-maxLessons:]
	}
	p.UpdatedAt = now.UTC()
}

// stepOutput moves structured output one rung down: the schema in the
// minimal dialect, then json_object with the schema in the prompt (LM
// Studio refuses json_object, so it goes to text), then plain text.
// noSchema skips the minimal rung (the server refused json_schema as
// such, not this schema). It reports false at the bottom.
func (p *Profile) stepOutput(noSchema bool) (string, bool) {
	from := p.outputName()
	switch {
	case p.Output == OutputJSONSchema && p.Dialect != DialectMinimal && !noSchema:
		p.Dialect = DialectMinimal
	case p.Output == OutputJSONSchema && p.Family != FamilyLMStudio:
		p.Output = OutputJSONObject
	case p.Output != OutputText:
		p.Output = OutputText
	default:
		return "", false
	}
	return "structured output " + from + " → " + p.outputName(), true
}

func (p Profile) outputName() string {
	if p.Output == OutputJSONSchema {
		return "json_schema (" + string(p.Dialect) + ")"
	}
	return string(p.Output)
}

// stepToolSchema sends tool parameters in the minimal dialect, not strict;
// below that tools are off.
func (p *Profile) stepToolSchema() string {
	if p.ToolDialect != DialectMinimal || p.StrictTools {
		from := string(p.ToolDialect)
		p.ToolDialect, p.StrictTools = DialectMinimal, false
		return "tool parameters " + from + " → minimal, not strict"
	}
	p.Tools = ToolsNone
	return "tools off (tool-less mode)"
}

// NormalizeBaseURL is the key an endpoint is remembered under: no
// trailing slash; "" is OpenAI's API.
func NormalizeBaseURL(s string) string {
	s = strings.TrimRight(strings.TrimSpace(s), "/")
	if s == "" {
		return DefaultBaseURL
	}
	return s
}

// DefaultBaseURL is where openai-go sends requests without a base URL.
const DefaultBaseURL = "https://api.openai.com/v1"

// familyFromURL guesses a family from the base URL alone: OpenAI's host,
// and the servers' documented default ports (Ollama 11434, LM Studio
// 1234). "" when it cannot tell.
func familyFromURL(base string) Family {
	u, err := url.Parse(base)
	if err != nil {
		return ""
	}
	switch {
	case u.Hostname() == "api.openai.com":
		return FamilyOpenAI
	case u.Port() == "11434":
		return FamilyOllama
	case u.Port() == "1234":
		return FamilyLMStudio
	}
	return ""
}

// ProfileStore keeps what was learned per endpoint.
type ProfileStore interface {
	Load(ctx context.Context, baseURL, model string) (Profile, bool, error)
	Save(ctx context.Context, p Profile) error
}

// MemoryProfiles is a ProfileStore in memory (tests, and a runtime built
// without a database).
type MemoryProfiles struct {
	mu sync.Mutex
	m  map[[2]string]Profile
}

// Load implements ProfileStore.
func (s *MemoryProfiles) Load(_ context.Context, baseURL, model string) (Profile, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.m[[2]string{NormalizeBaseURL(baseURL), model}]
	p.Learned = append([]Lesson(nil), p.Learned...)
	return p, ok, nil
}

// Save implements ProfileStore.
func (s *MemoryProfiles) Save(_ context.Context, p Profile) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[[2]string]Profile{}
	}
	p.Learned = append([]Lesson(nil), p.Learned...)
	s.m[[2]string{NormalizeBaseURL(p.BaseURL), p.Model}] = p
	return nil
}
