package llmtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// Family describes how a fake server behaves: what it refuses and how its
// replies look. The zero Family accepts everything and answers as OpenAI
// does (the permissive New server).
type Family struct {
	Name string
	// APIKey, when set, must arrive as "Authorization: Bearer <key>";
	// Unauthorized is the refusal otherwise (default: OpenAI's 401).
	APIKey       string
	Unauthorized *Refusal
	// Check refuses a chat request the real server would refuse, in its
	// status and body shape; nil accepts all.
	Check func(Request) *Refusal
	// Sees is the request as the scripted model sees it (e.g. without the
	// tools a grammar made unreachable); nil = as sent.
	Sees func(Request) Request
	// Shape is how replies look.
	Shape Shape
	// Models answers GET /v1/models; nil = no such route (404).
	Models func() (int, string)
	// Routes are extra handlers (e.g. llama.cpp's /health).
	Routes map[string]http.HandlerFunc
}

// Refusal is a server's error answer.
type Refusal struct {
	Status int
	Body   string
}

// refusal builds a Refusal whose body is v marshalled.
func refusal(status int, v any) *Refusal {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return &Refusal{Status: status, Body: string(b)}
}

// openAIError is the {"error":{message,type,param,code}} shape OpenAI and
// Ollama use.
func openAIError(status int, message, typ string, param, code any) *Refusal {
	return refusal(status, map[string]any{"error": map[string]any{"message": message, "type": typ, "param": param, "code": code}})
}

// Shape is how a family's replies differ.
type Shape struct {
	// IDPrefix of the completion id (default "chatcmpl-").
	IDPrefix string
	// ToolCallID makes the id of tool call i of reply seq (default call_<seq>_<i>).
	ToolCallID func(seq, i int) string
	// Fingerprint is system_fingerprint ("" = omitted).
	Fingerprint string
	// NoUsage omits the usage object.
	NoUsage bool
	// NullFinish sends finish_reason null on replies without tool calls.
	NullFinish bool
	// StopWithTools sends finish_reason "stop" with tool calls.
	StopWithTools bool
	// Extra are additional top-level fields (llama.cpp's timings).
	Extra map[string]any
	// ChoiceExtra are additional fields of the choice (vLLM's stop_reason).
	ChoiceExtra map[string]any
	// ToolIndex puts "index" on the tool calls of a whole message (Ollama).
	ToolIndex bool
	// ToolCallsInContent, when set, writes the model's tool calls into the
	// content in this form instead of tool_calls, finish_reason "stop": a
	// server whose template or parser missed them.
	ToolCallsInContent func(calls []Call) string
	// StreamToolsWhole sends each tool call in one delta (Ollama), not in
	// fragments (OpenAI, llama.cpp).
	StreamToolsWhole bool
	// StreamUsage says whether a streamed reply ends with a usage chunk
	// (default: when stream_options.include_usage is true).
	StreamUsage func(body map[string]any) bool
}

func (f Family) auth(h http.Header) *Refusal {
	if f.APIKey == "" || h.Get("Authorization") == "Bearer "+f.APIKey {
		return nil
	}
	if f.Unauthorized != nil {
		return f.Unauthorized
	}
	// OpenAI's 401 (shape as its other errors; the message text is not
	// from a primary source).
	return openAIError(http.StatusUnauthorized, "Incorrect API key provided: "+strings.TrimPrefix(h.Get("Authorization"), "Bearer ")+
		". You can find your API key at https://platform.openai.com/account/api-keys.", "invalid_request_error", nil, "invalid_api_key")
}

// completion is one reply in the wire format.
type completion struct {
	id, model, fingerprint string
	created                int64
	content, refusal       *string
	calls                  []wireToolCall
	finish                 *string
	usage                  *wireUsage
	extra, choiceExtra     map[string]any
}

type wireToolCall struct {
	Index    *int         `json:"index,omitempty"`
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function wireFunction `json:"function"`
}

type wireFunction struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

type wireUsage struct {
	PromptTokens     int64 `json:"prompt_tokens"`
	CompletionTokens int64 `json:"completion_tokens"`
	TotalTokens      int64 `json:"total_tokens"`
}

func (f Family) completion(reply Reply, seq int, req Request) completion {
	sh := f.Shape
	model := req.Model()
	if reply.Model != "" {
		model = reply.Model
	}
	prefix := sh.IDPrefix
	if prefix == "" {
		prefix = "chatcmpl-"
	}
	c := completion{id: fmt.Sprintf("%s%d", prefix, seq), model: model, fingerprint: sh.Fingerprint,
		created: time.Now().Unix(), extra: sh.Extra, choiceExtra: sh.ChoiceExtra}
	content := reply.Content
	calls := reply.ToolCalls
	if len(calls) > 0 && sh.ToolCallsInContent != nil {
		content, calls = sh.ToolCallsInContent(calls), nil
	}
	if content != "" || len(calls) == 0 {
		c.content = &content
	}
	if reply.Refusal != "" {
		ref := reply.Refusal
		c.refusal = &ref
	}
	finish := "stop"
	for i, call := range calls {
		id := call.ID
		switch {
		case id != "":
		case sh.ToolCallID != nil:
			id = sh.ToolCallID(seq, i+1)
		default:
			id = fmt.Sprintf("call_%d_%d", seq, i+1)
		}
		tc := wireToolCall{ID: id, Type: "function", Function: wireFunction{Name: call.Name, Arguments: call.Arguments}}
		if sh.ToolIndex {
			tc.Index = &i
		}
		c.calls = append(c.calls, tc)
		if !sh.StopWithTools {
			finish = "tool_calls"
		}
	}
	if reply.FinishReason != "" {
		finish = reply.FinishReason
	}
	if !(sh.NullFinish && len(calls) == 0 && reply.FinishReason == "") {
		c.finish = &finish
	}
	if !sh.NoUsage {
		c.usage = &wireUsage{PromptTokens: reply.PromptTokens, CompletionTokens: reply.CompletionTokens,
			TotalTokens: reply.PromptTokens + reply.CompletionTokens}
	}
	return c
}

func (c completion) marshal() []byte {
	msg := map[string]any{"role": "assistant", "content": c.content}
	if c.refusal != nil {
		msg["refusal"] = *c.refusal
	}
	if len(c.calls) > 0 {
		msg["tool_calls"] = c.calls
	}
	choice := map[string]any{"index": 0, "message": msg, "finish_reason": c.finish, "logprobs": nil}
	for k, v := range c.choiceExtra {
		choice[k] = v
	}
	doc := c.envelope("chat.completion")
	doc["choices"] = []any{choice}
	if c.usage != nil {
		doc["usage"] = c.usage
	}
	b, _ := json.Marshal(doc)
	return b
}

func (c completion) envelope(object string) map[string]any {
	doc := map[string]any{"id": c.id, "object": object, "created": c.created, "model": c.model}
	if c.fingerprint != "" {
		doc["system_fingerprint"] = c.fingerprint
	}
	for k, v := range c.extra {
		doc[k] = v
	}
	return doc
}

// writeStream sends c as Server-Sent Events the way the family streams:
// a role chunk, the content in pieces, tool calls (whole or in fragments),
// a separate finish chunk, a usage chunk with empty choices when asked
// for, then [DONE] (the OpenAI streaming format, which Ollama, llama.cpp,
// vLLM and LM Studio follow).
func (f Family) writeStream(w http.ResponseWriter, c completion, req Request, reply Reply, wait func(time.Duration) bool) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	send := func(choices []any, usage *wireUsage) {
		doc := c.envelope("chat.completion.chunk")
		doc["choices"] = choices
		if usage != nil {
			doc["usage"] = usage
		}
		b, _ := json.Marshal(doc)
		fmt.Fprintf(w, "data: %s\n\n", b)
		if flusher != nil {
			flusher.Flush()
		}
	}
	delta := func(d map[string]any) []any {
		return []any{map[string]any{"index": 0, "delta": d, "finish_reason": nil}}
	}
	send(delta(map[string]any{"role": "assistant", "content": ""}), nil)
	if reply.StreamCut {
		return
	}
	if c.content != nil {
		parts := reply.Chunks
		if parts == nil {
			parts = pieces(*c.content, 3)
		}
		for _, piece := range parts {
			if !wait(reply.ChunkDelay) {
				return
			}
			send(delta(map[string]any{"content": piece}), nil)
		}
	}
	for i, tc := range c.calls {
		if !wait(reply.ChunkDelay) {
			return
		}
		if f.Shape.StreamToolsWhole {
			send(delta(map[string]any{"tool_calls": []any{map[string]any{"index": i, "id": tc.ID, "type": "function",
				"function": map[string]any{"name": tc.Function.Name, "arguments": tc.Function.Arguments}}}}), nil)
			continue
		}
		send(delta(map[string]any{"tool_calls": []any{map[string]any{"index": i, "id": tc.ID, "type": "function",
			"function": map[string]any{"name": tc.Function.Name, "arguments": ""}}}}), nil)
		for _, piece := range pieces(tc.Function.Arguments, 3) {
			send(delta(map[string]any{"tool_calls": []any{map[string]any{"index": i, "function": map[string]any{"arguments": piece}}}}), nil)
		}
	}
	fin := map[string]any{"index": 0, "delta": map[string]any{}, "finish_reason": c.finish}
	for k, v := range c.choiceExtra {
		fin[k] = v
	}
	send([]any{fin}, nil)
	wantUsage := func(body map[string]any) bool {
		so, _ := body["stream_options"].(map[string]any)
		v, _ := so["include_usage"].(bool)
		return v
	}
	if f.Shape.StreamUsage != nil {
		wantUsage = f.Shape.StreamUsage
	}
	if c.usage != nil && wantUsage(req.Body) {
		send([]any{}, c.usage)
	}
	fmt.Fprint(w, "data: [DONE]\n\n")
}

// pieces splits s into about n parts (at least one, on rune boundaries).
func pieces(s string, n int) []string {
	r := []rune(s)
	if len(r) == 0 {
		return nil
	}
	size := max(1, (len(r)+n-1)/n)
	var out []string
	for i := 0; i < len(r); i += size {
		out = append(out, string(r[i:min(i+size, len(r))]))
	}
	return out
}
