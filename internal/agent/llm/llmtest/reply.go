package llmtest

import (
	"encoding/json"
	"net/http"
	"time"
)

// Reply is one scripted answer of the fake server. The zero value is an
// empty assistant message with status 200.
type Reply struct {
	// Status is the HTTP status (0 = 200). Non-2xx statuses get an OpenAI
	// error body unless Body is set.
	Status int
	// Content is the assistant's text.
	Content string
	// ToolCalls makes the reply a tool-call turn (finish_reason tool_calls).
	ToolCalls []Call
	// Refusal sets the message's refusal text.
	Refusal string
	// PromptTokens and CompletionTokens fill "usage".
	PromptTokens, CompletionTokens int64
	// Model is the "model" field (default: the request's model).
	Model string
	// FinishReason overrides the computed one ("stop" / "tool_calls").
	FinishReason string
	// Header adds response headers (e.g. "Retry-After-Ms": "10").
	Header map[string]string
	// Body is sent verbatim instead of a generated body (malformed JSON, …).
	Body string
	// Delay waits before answering (cut short if the client goes away).
	Delay time.Duration
	// Hang never answers: the handler blocks until the client gives up or
	// the server closes.
	Hang bool
	// CloseMidBody sends the headers and part of the body, then closes the
	// connection.
	CloseMidBody bool
	// StreamCut ends a streamed reply after its first chunk, without a
	// finish chunk or [DONE] (a server that died mid-answer).
	StreamCut bool
	// Chunks are the pieces a streamed reply sends its content in (nil:
	// about three, split evenly).
	Chunks []string
	// ChunkDelay waits before each content piece and tool call of a
	// streamed reply (a model that types slowly).
	ChunkDelay time.Duration
}

// Call is a tool call in a scripted reply; ID defaults to call_<n>.
type Call struct {
	ID        string
	Name      string
	Arguments string
}

// Text is a reply with content and usage numbers.
func Text(content string, promptTokens, completionTokens int64) Reply {
	return Reply{Content: content, PromptTokens: promptTokens, CompletionTokens: completionTokens}
}

// JSON is a reply whose content is v marshalled to JSON.
func JSON(v any, promptTokens, completionTokens int64) Reply {
	b, err := json.Marshal(v)
	if err != nil {
		panic("llmtest: " + err.Error())
	}
	return Text(string(b), promptTokens, completionTokens)
}

// Tool is a reply that calls one tool with args (marshalled unless already a string).
func Tool(name string, args any) Reply {
	s, ok := args.(string)
	if !ok {
		b, err := json.Marshal(args)
		if err != nil {
			panic("llmtest: " + err.Error())
		}
		s = string(b)
	}
	return Reply{ToolCalls: []Call{{Name: name, Arguments: s}}}
}

// Error is an HTTP error reply with an OpenAI-style error body.
func Error(status int) Reply { return Reply{Status: status} }

// RateLimited is a 429 asking the client to retry after 10 ms.
func RateLimited() Reply {
	return Reply{Status: http.StatusTooManyRequests, Header: map[string]string{"Retry-After-Ms": "10"}}
}
