package llm

import (
	"encoding/json"
	"io"
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
	// Markup is the call as the model wrote it (the <function=…> block or
	// the JSON object, without a wrapper), for the quoted-data check.
	Markup string
}

var (
	// The wrappers of calls written as text, anchored: the reply must
	// consist of them. Hermes / Qwen2.5 <tool_call>, also used by many chat
	// templates; Qwen2.5-Coder <tools> (vllm-project/vllm PR #33083); LM
	// Studio's default tool format ("[TOOL_REQUEST]" in its tools docs).
	callWrappers = []*regexp.Regexp{
		regexp.MustCompile(`(?s)^<tool_call>(.*?)</tool_call>`),
		regexp.MustCompile(`(?s)^<tools>(.*?)</tools>`),
		regexp.MustCompile(`(?s)^\[TOOL_REQUEST\](.*?)\[END_TOOL_REQUEST\]`),
	}
	// Qwen3-Coder's XML form: <function=NAME><parameter=P>value</parameter></function>.
	xmlFunction  = regexp.MustCompile(`(?s)^<function=([A-Za-z0-9_-]+)>(.*?)</function>`)
	xmlParameter = regexp.MustCompile(`(?s)^<parameter=([A-Za-z0-9_-]+)>(.*?)</parameter>`)
)

// readsContentCalls reports whether servers of family f are known to leave
// a model's tool calls in the message content: LM Studio ("If LM Studio
// cannot parse any correctly formatted tool calls, it will simply return
// the response to the standard message.content field"), Ollama when the
// template misses them (ollama/ollama#12174), vLLM and llama.cpp when the
// tool-call parser does not match the model's format. OpenAI and unknown
// servers parse calls themselves, so text there is only ever text.
func (f Family) readsContentCalls() bool {
	switch f {
	case FamilyOllama, FamilyLMStudio, FamilyVLLM, FamilyLlamaCpp:
		return true
	}
	return false
}

// contentToolCalls finds tool calls written into content by a model whose
// server did not parse them. The whole reply must be the calls (after an
// optional leading <think> block): a reply with any other text around
// markup is text, since a model quoting a meal name or a note that holds
// markup is not calling anything. Calls to a tool not offered are dropped.
func contentToolCalls(content string, offered []string) []contentCall {
	s := strings.TrimSpace(content)
	if strings.HasPrefix(s, "<think>") {
		end := strings.Index(s, "</think>")
		if end < 0 {
			return nil // reasoning only
		}
		s = strings.TrimSpace(s[end+len("</think>"):])
	}
	calls, ok := markupCalls(s)
	if !ok {
		// A bare call, or one alone in a fence.
		body := s
		if m := fence.FindStringSubmatch(s); m != nil && m[0] == s {
			body = strings.TrimSpace(m[1])
		}
		if calls, ok = jsonCalls(body); !ok {
			return nil
		}
	}
	var found []contentCall
	for _, c := range calls {
		if slices.Contains(offered, c.Name) {
			found = append(found, c)
		}
	}
	return found
}

// markupCalls reads s as a sequence of wrapped or <function=…> calls with
// only whitespace between them; ok is false when anything else is there.
// A wrapper holds <function=…> blocks or JSON calls.
func markupCalls(s string) (calls []contentCall, ok bool) {
	for s = strings.TrimSpace(s); s != ""; s = strings.TrimSpace(s) {
		if fc, rest, ok := functionCall(s); ok {
			calls, s = append(calls, fc), rest
			continue
		}
		matched := false
		for _, re := range callWrappers {
			m := re.FindStringSubmatchIndex(s)
			if m == nil {
				continue
			}
			inner := strings.TrimSpace(s[m[2]:m[3]])
			got, ok := functionCalls(inner)
			if !ok {
				if got, ok = jsonCalls(inner); !ok {
					return nil, false
				}
			}
			calls, s, matched = append(calls, got...), s[m[1]:], true
			break
		}
		if !matched {
			return nil, false
		}
	}
	return calls, len(calls) > 0
}

// functionCalls reads s as <function=…> blocks and whitespace only.
func functionCalls(s string) (calls []contentCall, ok bool) {
	for s = strings.TrimSpace(s); s != ""; s = strings.TrimSpace(s) {
		fc, rest, ok := functionCall(s)
		if !ok {
			return nil, false
		}
		calls, s = append(calls, fc), rest
	}
	return calls, len(calls) > 0
}

// functionCall reads one <function=NAME>…</function> block at the start of
// s whose body holds only <parameter=…> blocks.
func functionCall(s string) (contentCall, string, bool) {
	m := xmlFunction.FindStringSubmatchIndex(s)
	if m == nil {
		return contentCall{}, s, false
	}
	args := map[string]any{}
	for body := strings.TrimSpace(s[m[4]:m[5]]); body != ""; body = strings.TrimSpace(body) {
		pm := xmlParameter.FindStringSubmatchIndex(body)
		if pm == nil {
			return contentCall{}, s, false
		}
		raw := strings.TrimSpace(body[pm[4]:pm[5]])
		var v any
		if json.Unmarshal([]byte(raw), &v) != nil {
			v = raw
		}
		args[body[pm[2]:pm[3]]] = v
		body = body[pm[1]:]
	}
	b, _ := json.Marshal(args)
	return contentCall{Name: s[m[2]:m[3]], Args: string(b), Markup: s[:m[1]]}, s[m[1]:], true
}

// jsonCalls reads s as JSON calls and nothing else: {"name":…,
// "arguments"|"parameters":{…}} objects or arrays of them, one after
// another (Ollama writes one object a line). ok is false when s holds
// anything else, or an object that is not a call.
func jsonCalls(s string) (calls []contentCall, ok bool) {
	dec := json.NewDecoder(strings.NewReader(s))
	for {
		var v json.RawMessage
		if err := dec.Decode(&v); err == io.EOF {
			break
		} else if err != nil {
			return nil, false
		}
		items := []json.RawMessage{v}
		if strings.HasPrefix(string(v), "[") && json.Unmarshal(v, &items) != nil {
			return nil, false
		}
		for _, raw := range items {
			var obj map[string]json.RawMessage
			if json.Unmarshal(raw, &obj) != nil {
				return nil, false
			}
			c, ok := jsonCall(obj)
			if !ok {
				return nil, false
			}
			c.Markup = strings.TrimSpace(string(raw))
			calls = append(calls, c)
		}
	}
	return calls, len(calls) > 0
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

// unescape undoes the escapes text gets on its way into a prompt as a
// JSON or Go-quoted string.
var unescape = strings.NewReplacer(`\u003c`, "<", `\u003C`, "<", `\u003e`, ">", `\u003E`, ">", `\u0026`, "&",
	`\"`, `"`, `\\`, `\`, `\/`, "/", `\n`, "\n", `\t`, "\t", `\r`, "\r")

// canonical is s with quoting undone (JSON in JSON too: a tool result
// that holds a JSON text) and without whitespace, for comparing a call
// with the prompt it might have been copied from.
func canonical(s string) string {
	for range 3 {
		u := unescape.Replace(s)
		if u == s {
			break
		}
		s = u
	}
	return strings.Join(strings.Fields(s), "")
}
