package llm

import (
	"encoding/json"
	"strings"

	"github.com/openai/openai-go/v3"

	"hearth/internal/agent"
	tokcount "hearth/internal/agent/llm/tokens"
)

// countPrompt counts the request about to be sent by part (package
// tokens): system is the system text sent, inPrompt the schema text it
// carries (when the schema travels in the prompt), kept the request's
// messages that survived trimming, turns the tool turns as sent.
func (cl *call) countPrompt(params openai.ChatCompletionNewParams, system, inPrompt string,
	kept []agent.Message, turns []openai.ChatCompletionMessageParamUnion) agent.PromptTokens {
	var pt agent.PromptTokens
	mem := strings.TrimSpace(cl.req.Memory)
	memCounted := false
	// memory is taken out of the text that carries it, once.
	takeMemory := func(s string) int {
		n := tokcount.Count(s)
		if mem != "" && !memCounted && strings.Contains(s, mem) {
			memCounted = true
			m := tokcount.Count(mem)
			pt.Memory = m
			n -= m
		}
		return n
	}
	if inPrompt != "" {
		system = strings.Replace(system, inPrompt, "", 1)
		pt.Schema = tokcount.Count(inPrompt)
	}
	pt.System = takeMemory(system)
	for _, t := range params.Tools {
		b, _ := json.Marshal(t)
		pt.Tools += tokcount.Count(string(b))
		pt.ToolCount++
	}
	if f := params.ResponseFormat.OfJSONSchema; f != nil {
		b, _ := json.Marshal(f)
		pt.Schema += tokcount.Count(string(b))
	}
	for _, m := range kept {
		if m.Pinned {
			pt.Facts += takeMemory(m.Content)
		} else {
			pt.History += takeMemory(m.Content)
		}
	}
	for _, t := range turns {
		b, _ := json.Marshal(t)
		pt.History += tokcount.Count(string(b))
	}
	return pt
}
