package agent

// PromptTokens is one request's prompt as a runtime sent it, counted
// offline by part (package llm/tokens, o200k_base): what each part costs
// a server that reads it at tens of tokens a second, whatever the
// server's own usage says.
type PromptTokens struct {
	// System is the system prompt without the working memory and the
	// schema when those travel in it.
	System int `json:"system"`
	// Tools is the tool definitions sent (names, descriptions, parameter
	// schemas as JSON); ToolCount says how many.
	Tools     int `json:"tools"`
	ToolCount int `json:"tool_count"`
	// Schema is the response format's JSON Schema (in the request or the
	// prompt).
	Schema int `json:"schema"`
	// Facts is the task's pinned messages: the gathered facts and context.
	Facts int `json:"facts"`
	// Memory is the member's working memory, wherever it travels.
	Memory int `json:"memory"`
	// History is the conversation: earlier turns, tool calls and results.
	History int `json:"history"`
}

// Total is the prompt's counted tokens.
func (p PromptTokens) Total() int {
	return p.System + p.Tools + p.Schema + p.Facts + p.Memory + p.History
}

// SumPromptTokens adds a run's requests up, part by part.
func SumPromptTokens(ps []PromptTokens) PromptTokens {
	var s PromptTokens
	for _, p := range ps {
		s.System += p.System
		s.Tools += p.Tools
		s.ToolCount += p.ToolCount
		s.Schema += p.Schema
		s.Facts += p.Facts
		s.Memory += p.Memory
		s.History += p.History
	}
	return s
}

// memoryText is mem as prompts carry it ("" for none), for counting.
func memoryText(mem *Memory) string {
	if mem == nil {
		return ""
	}
	return mem.Serialize()
}
