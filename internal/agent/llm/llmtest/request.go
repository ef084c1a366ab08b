package llmtest

import (
	"encoding/json"
	"net/http"
	"strings"
)

// Request is one request the fake received.
type Request struct {
	Method string
	Path   string
	Header http.Header
	// Body is the decoded JSON body of a chat request.
	Body map[string]any
	// Raw is the undecoded chat body.
	Raw []byte
	// Form and FileName describe a multipart transcription request.
	Form     map[string]string
	FileName string
}

// Message is one message of a recorded chat request.
type Message struct {
	Role       string
	Content    string
	ToolCallID string
	ToolCalls  []Call
}

// Model returns the requested model.
func (r Request) Model() string {
	s, _ := r.Body["model"].(string)
	return s
}

// Messages decodes the request's messages; array content parts are joined.
func (r Request) Messages() []Message {
	list, _ := r.Body["messages"].([]any)
	out := make([]Message, 0, len(list))
	for _, item := range list {
		m, _ := item.(map[string]any)
		msg := Message{}
		msg.Role, _ = m["role"].(string)
		msg.ToolCallID, _ = m["tool_call_id"].(string)
		switch c := m["content"].(type) {
		case string:
			msg.Content = c
		case []any:
			var parts []string
			for _, p := range c {
				if pm, ok := p.(map[string]any); ok {
					if t, ok := pm["text"].(string); ok {
						parts = append(parts, t)
					}
				}
			}
			msg.Content = strings.Join(parts, "")
		}
		calls, _ := m["tool_calls"].([]any)
		for _, tc := range calls {
			tm, _ := tc.(map[string]any)
			fn, _ := tm["function"].(map[string]any)
			c := Call{}
			c.ID, _ = tm["id"].(string)
			c.Name, _ = fn["name"].(string)
			c.Arguments, _ = fn["arguments"].(string)
			msg.ToolCalls = append(msg.ToolCalls, c)
		}
		out = append(out, msg)
	}
	return out
}

// LastMessage returns the final message (zero if none).
func (r Request) LastMessage() Message {
	ms := r.Messages()
	if len(ms) == 0 {
		return Message{}
	}
	return ms[len(ms)-1]
}

// ToolNames lists the names of the tools offered.
func (r Request) ToolNames() []string {
	list, _ := r.Body["tools"].([]any)
	var out []string
	for _, t := range list {
		tm, _ := t.(map[string]any)
		fn, _ := tm["function"].(map[string]any)
		if n, ok := fn["name"].(string); ok {
			out = append(out, n)
		}
	}
	return out
}

// ResponseFormat returns the response_format object (nil if none).
func (r Request) ResponseFormat() map[string]any {
	m, _ := r.Body["response_format"].(map[string]any)
	return m
}

// Get returns a top-level body field (e.g. "temperature").
func (r Request) Get(field string) any { return r.Body[field] }

// Contains reports whether the raw body contains s (JSON-escaped text is
// compared as sent).
func (r Request) Contains(s string) bool {
	if strings.Contains(string(r.Raw), s) {
		return true
	}
	b, _ := json.Marshal(s)
	return strings.Contains(string(r.Raw), strings.Trim(string(b), `"`))
}

// ToolDef is one offered tool as sent.
type ToolDef struct {
	Name       string
	Strict     bool
	Parameters map[string]any
}

// Tools returns the tools offered, with their parameters and strict flag.
func (r Request) Tools() []ToolDef {
	list, _ := r.Body["tools"].([]any)
	var out []ToolDef
	for _, t := range list {
		tm, _ := t.(map[string]any)
		fn, _ := tm["function"].(map[string]any)
		d := ToolDef{}
		d.Name, _ = fn["name"].(string)
		d.Strict, _ = fn["strict"].(bool)
		d.Parameters, _ = fn["parameters"].(map[string]any)
		out = append(out, d)
	}
	return out
}

// Schema is the JSON Schema the response format asks for: json_schema's
// schema, or the schema llama.cpp reads beside json_object (nil if none).
func (r Request) Schema() map[string]any {
	rf := r.ResponseFormat()
	if rf == nil {
		return nil
	}
	if js, ok := rf["json_schema"].(map[string]any); ok {
		s, _ := js["schema"].(map[string]any)
		return s
	}
	s, _ := rf["schema"].(map[string]any)
	return s
}

// PromptTokens estimates the prompt's tokens at four characters a token
// (messages and tool definitions).
func (r Request) PromptTokens() int {
	n := 0
	for _, m := range r.Messages() {
		n += len(m.Content) + len(m.Role)
		for _, c := range m.ToolCalls {
			n += len(c.Name) + len(c.Arguments)
		}
	}
	if t, ok := r.Body["tools"]; ok {
		b, _ := json.Marshal(t)
		n += len(b)
	}
	return n / 4
}

// HasToolResults reports whether the conversation already carries a tool
// result (a native tool message, or one sent back as text).
func (r Request) HasToolResults() bool {
	for _, m := range r.Messages() {
		if m.Role == "tool" || m.Role == "user" && strings.HasPrefix(m.Content, "Tool result:") {
			return true
		}
	}
	return false
}
