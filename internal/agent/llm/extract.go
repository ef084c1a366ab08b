package llm

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
)

// thinkBlock is reasoning a server leaves in content when its reasoning
// parser is off (llama.cpp --reasoning-format none, vLLM without
// --reasoning-parser).
var thinkBlock = regexp.MustCompile(`(?s)<think>.*?</think>`)

// stripThink removes <think>…</think> blocks, and an unclosed one that
// runs to the end.
func stripThink(s string) string {
	s = thinkBlock.ReplaceAllString(s, "")
	if i := strings.Index(s, "<think>"); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}

var fence = regexp.MustCompile("(?s)```[a-zA-Z]*\\s*\\n?(.*?)```")

// extractDocument finds the JSON document in a reply written without a
// structured-output constraint: the whole reply, a fenced block, or the
// first balanced {…} in the prose around it.
func extractDocument(s string) (string, bool) {
	s = stripThink(s)
	if json.Valid([]byte(s)) && strings.HasPrefix(s, "{") {
		return s, true
	}
	for _, m := range fence.FindAllStringSubmatch(s, -1) {
		if b := strings.TrimSpace(m[1]); strings.HasPrefix(b, "{") && json.Valid([]byte(b)) {
			return b, true
		}
	}
	for i := 0; i < len(s); i++ {
		if s[i] != '{' {
			continue
		}
		if end := balanced(s[i:]); end > 0 && json.Valid([]byte(s[i:i+end])) {
			return s[i : i+end], true
		}
	}
	return s, false
}

// balanced returns the length of the JSON object or array that s starts
// with (0 if it never closes), skipping brackets inside strings.
func balanced(s string) int {
	depth, inStr, esc := 0, false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case esc:
			esc = false
		case inStr && c == '\\':
			esc = true
		case c == '"':
			inStr = !inStr
		case inStr:
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return 0
}

// contentCall is a tool call a model wrote into its message content.
type contentCall struct {
	Name string
	Args string
}

var (
	// Hermes / Qwen2.5 style, also used by many chat templates.
	toolCallTag = regexp.MustCompile(`(?s)<tool_call>(.*?)</tool_call>`)
	// Qwen2.5-Coder (vllm-project/vllm PR #33083).
	toolsTag = regexp.MustCompile(`(?s)<tools>(.*?)</tools>`)
	// LM Studio's default tool format ("[TOOL_REQUEST]" in its tools docs).
	toolRequest = regexp.MustCompile(`(?s)\[TOOL_REQUEST\](.*?)\[END_TOOL_REQUEST\]`)
	// Qwen3-Coder's XML form: <function=NAME><parameter=P>value</parameter></function>.
	xmlFunction  = regexp.MustCompile(`(?s)<function=([A-Za-z0-9_-]+)>(.*?)</function>`)
	xmlParameter = regexp.MustCompile(`(?s)<parameter=([A-Za-z0-9_-]+)>(.*?)</parameter>`)
)

// contentToolCalls finds tool calls written into content by a model whose
// server did not parse them (LM Studio: "If LM Studio cannot parse any
// correctly formatted tool calls, it will simply return the response to
// the standard message.content field"; Ollama and vLLM do the same when
// the template or parser misses). Only calls to an offered tool with an
// object of arguments count.
func contentToolCalls(content string, offered []string) []contentCall {
	s := stripThink(content)
	var found []contentCall
	add := func(calls []contentCall) {
		for _, c := range calls {
			if slices.Contains(offered, c.Name) {
				found = append(found, c)
			}
		}
	}
	for _, re := range []*regexp.Regexp{toolCallTag, toolsTag, toolRequest} {
		for _, m := range re.FindAllStringSubmatch(s, -1) {
			inner := strings.TrimSpace(m[1])
			if fm := xmlFunction.FindAllStringSubmatch(inner, -1); fm != nil {
				add(xmlCalls(fm))
				continue
			}
			add(jsonCalls(inner))
		}
	}
	if len(found) > 0 {
		return found
	}
	if fm := xmlFunction.FindAllStringSubmatch(s, -1); fm != nil {
		add(xmlCalls(fm))
		return found
	}
	// A bare call, or one in a fence: the whole reply must be the call.
	body := s
	if m := fence.FindStringSubmatch(s); m != nil && strings.TrimSpace(fence.ReplaceAllString(s, "")) == "" {
		body = m[1]
	}
	add(jsonCalls(strings.TrimSpace(body)))
	return found
}

// jsonCalls reads {"name":…,"arguments"|"parameters":{…}} or an array of them.
func jsonCalls(s string) []contentCall {
	var one map[string]json.RawMessage
	if err := json.Unmarshal([]byte(s), &one); err == nil {
		if c, ok := jsonCall(one); ok {
			return []contentCall{c}
		}
		return nil
	}
	var many []map[string]json.RawMessage
	if err := json.Unmarshal([]byte(s), &many); err != nil {
		return nil
	}
	var out []contentCall
	for _, m := range many {
		if c, ok := jsonCall(m); ok {
			out = append(out, c)
		}
	}
	return out
}

func jsonCall(m map[string]json.RawMessage) (contentCall, bool) {
	var name string
	if json.Unmarshal(m["name"], &name) != nil || name == "" {
		return contentCall{}, false
	}
	args, ok := m["arguments"]
	if !ok {
		args, ok = m["parameters"] // Llama 3.x JSON tool calls
	}
	if !ok {
		return contentCall{Name: name, Args: "{}"}, true
	}
	var asString string
	if json.Unmarshal(args, &asString) == nil { // arguments as a JSON string
		args = json.RawMessage(asString)
	}
	var obj map[string]any
	if json.Unmarshal(args, &obj) != nil {
		return contentCall{}, false
	}
	b, _ := json.Marshal(obj)
	return contentCall{Name: name, Args: string(b)}, true
}

func xmlCalls(matches [][]string) []contentCall {
	var out []contentCall
	for _, fm := range matches {
		args := map[string]any{}
		for _, pm := range xmlParameter.FindAllStringSubmatch(fm[2], -1) {
			raw := strings.TrimSpace(pm[2])
			var v any
			if json.Unmarshal([]byte(raw), &v) != nil {
				v = raw
			}
			args[pm[1]] = v
		}
		b, _ := json.Marshal(args)
		out = append(out, contentCall{Name: fm[1], Args: string(b)})
	}
	return out
}
