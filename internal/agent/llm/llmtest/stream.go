package llmtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// stream answers a request with "stream": true the way the Chat
// Completions API streams (OpenAI API reference, "The chat completion
// chunk object", platform.openai.com/docs/api-reference/chat/streaming):
// Server-Sent Events whose data are chat.completion.chunk objects with one
// id, created and model: a first delta with the role, the content in
// pieces, each tool call as a delta with its index, id, type and name and
// then its arguments in pieces, a last chunk with the finish_reason and an
// empty delta, a usage chunk with empty choices when the request asked for
// stream_options.include_usage, and "data: [DONE]".
func (s *Server) stream(w http.ResponseWriter, r *http.Request, reply Reply, seq int, req Request) {
	model := req.Model()
	if reply.Model != "" {
		model = reply.Model
	}
	id, created := fmt.Sprintf("chatcmpl-%d", seq), time.Now().Unix()
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	flush := func() {
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
	}
	send := func(choices []any, usage *wireUsage) bool {
		doc := map[string]any{"id": id, "object": "chat.completion.chunk", "created": created, "model": model, "choices": choices}
		if usage != nil {
			doc["usage"] = usage
		}
		b, _ := json.Marshal(doc)
		if _, err := fmt.Fprintf(w, "data: %s\n\n", b); err != nil {
			return false
		}
		flush()
		return true
	}
	pause := func() bool {
		if reply.ChunkDelay <= 0 {
			return true
		}
		t := time.NewTimer(reply.ChunkDelay)
		defer t.Stop()
		select {
		case <-t.C:
			return true
		case <-r.Context().Done():
		case <-s.closing:
		}
		return false
	}
	delta := func(d map[string]any) []any {
		return []any{map[string]any{"index": 0, "delta": d, "finish_reason": nil}}
	}
	if !send(delta(map[string]any{"role": "assistant", "content": ""}), nil) {
		return
	}
	pieces := reply.Chunks
	if pieces == nil {
		pieces = split(reply.Content, 4)
	}
	for _, p := range pieces {
		if !pause() || !send(delta(map[string]any{"content": p}), nil) {
			return
		}
	}
	finish := "stop"
	for i, c := range reply.ToolCalls {
		callID := c.ID
		if callID == "" {
			callID = fmt.Sprintf("call_%d_%d", seq, i+1)
		}
		first := map[string]any{"index": i, "id": callID, "type": "function", "function": map[string]any{"name": c.Name, "arguments": ""}}
		if !pause() || !send(delta(map[string]any{"tool_calls": []any{first}}), nil) {
			return
		}
		for _, p := range split(c.Arguments, 3) {
			if !send(delta(map[string]any{"tool_calls": []any{map[string]any{"index": i, "function": map[string]any{"arguments": p}}}}), nil) {
				return
			}
		}
		finish = "tool_calls"
	}
	if reply.FinishReason != "" {
		finish = reply.FinishReason
	}
	if !send([]any{map[string]any{"index": 0, "delta": map[string]any{}, "finish_reason": finish}}, nil) {
		return
	}
	if opts, _ := req.Body["stream_options"].(map[string]any); opts["include_usage"] == true {
		send([]any{}, &wireUsage{PromptTokens: reply.PromptTokens, CompletionTokens: reply.CompletionTokens,
			TotalTokens: reply.PromptTokens + reply.CompletionTokens})
	}
	fmt.Fprint(w, "data: [DONE]\n\n")
	flush()
}

// split cuts s after word ends into at most n pieces that join back to s.
func split(s string, n int) []string {
	if s == "" {
		return nil
	}
	words := strings.SplitAfter(s, " ")
	per := max(1, (len(words)+n-1)/n)
	var out []string
	for i := 0; i < len(words); i += per {
		out = append(out, strings.Join(words[i:min(i+per, len(words))], ""))
	}
	return out
}
