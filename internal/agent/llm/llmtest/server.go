// Package llmtest is a fake OpenAI-compatible server for tests: it speaks
// the real Chat Completions wire format (content, tool calls, usage, errors,
// delays, hangs, malformed bodies, dropped connections) from a script, serves
// /v1/audio/transcriptions, and records every request it received. Point the
// real openai-go client (llm.OpenAI) at Server.URL().
package llmtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// Server is the fake. Scripted replies are consumed in order, one per chat
// request (transport retries included); when the script is empty the
// Otherwise function answers (default: a 500 saying the script ran out).
type Server struct {
	srv     *httptest.Server
	closing chan struct{}
	once    sync.Once

	mu          sync.Mutex
	script      []Reply
	otherwise   func(Request) Reply
	requests    []Request
	transcript  string
	seq         int
	inflight    int
	maxInflight int
}

// New starts a server with the given script; it is closed at test cleanup.
func New(tb testing.TB, replies ...Reply) *Server {
	tb.Helper()
	s := &Server{closing: make(chan struct{}), script: replies, transcript: "transcribed text"}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", s.chat)
	mux.HandleFunc("POST /v1/audio/transcriptions", s.transcribe)
	s.srv = httptest.NewServer(mux)
	tb.Cleanup(s.Close)
	return s
}

// URL is the base URL for the client, ending in /v1.
func (s *Server) URL() string { return s.srv.URL + "/v1" }

// Close releases hanging handlers and stops the server. Safe to call twice.
func (s *Server) Close() {
	s.once.Do(func() {
		close(s.closing)
		s.srv.CloseClientConnections()
		s.srv.Close()
	})
}

// Push appends replies to the script.
func (s *Server) Push(replies ...Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.script = append(s.script, replies...)
}

// Otherwise sets the reply for requests beyond the script (e.g. a model
// that calls tools forever).
func (s *Server) Otherwise(fn func(Request) Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.otherwise = fn
}

// SetTranscript sets the text /v1/audio/transcriptions returns.
func (s *Server) SetTranscript(text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.transcript = text
}

// Requests returns every request received, in arrival order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// ChatRequests returns the chat completion requests received.
func (s *Server) ChatRequests() []Request {
	var out []Request
	for _, r := range s.Requests() {
		if r.Path == "/v1/chat/completions" {
			out = append(out, r)
		}
	}
	return out
}

// MaxConcurrent reports the most requests that were in flight at once.
func (s *Server) MaxConcurrent() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.maxInflight
}

// Remaining reports how many scripted replies are unused.
func (s *Server) Remaining() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.script)
}

func (s *Server) enter(req Request) (Reply, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, req)
	s.inflight++
	s.maxInflight = max(s.maxInflight, s.inflight)
	s.seq++
	if len(s.script) > 0 {
		r := s.script[0]
		s.script = s.script[1:]
		return r, s.seq
	}
	if s.otherwise != nil {
		return s.otherwise(req), s.seq
	}
	return Reply{Status: http.StatusInternalServerError, Body: `{"error":{"message":"llmtest: no scripted reply left","type":"server_error"}}`}, s.seq
}

func (s *Server) leave() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.inflight--
}

func (s *Server) chat(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	req := Request{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Raw: raw}
	_ = json.Unmarshal(raw, &req.Body)
	reply, seq := s.enter(req)
	defer s.leave()

	if reply.Hang {
		select {
		case <-r.Context().Done():
		case <-s.closing:
		}
		return
	}
	if reply.Delay > 0 {
		t := time.NewTimer(reply.Delay)
		defer t.Stop()
		select {
		case <-t.C:
		case <-r.Context().Done():
			return
		case <-s.closing:
			return
		}
	}
	for k, v := range reply.Header {
		w.Header().Set(k, v)
	}
	if reply.CloseMidBody {
		closeMidBody(w)
		return
	}
	status := reply.Status
	if status == 0 {
		status = http.StatusOK
	}
	if stream, _ := req.Body["stream"].(bool); stream && status == http.StatusOK && reply.Body == "" {
		s.stream(w, r, reply, seq, req)
		return
	}
	body := reply.Body
	if body == "" {
		body = s.body(reply, status, seq, req.Model())
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, body)
}

func (s *Server) body(reply Reply, status, seq int, model string) string {
	if status >= 300 {
		b, _ := json.Marshal(map[string]any{"error": map[string]any{
			"message": fmt.Sprintf("llmtest: scripted status %d", status), "type": "llmtest_error", "code": nil}})
		return string(b)
	}
	if reply.Model != "" {
		model = reply.Model
	}
	msg := wireMessage{Role: "assistant"}
	finish := "stop"
	if reply.Content != "" || len(reply.ToolCalls) == 0 {
		c := reply.Content
		msg.Content = &c
	}
	if reply.Refusal != "" {
		ref := reply.Refusal
		msg.Refusal = &ref
	}
	for i, c := range reply.ToolCalls {
		id := c.ID
		if id == "" {
			id = fmt.Sprintf("call_%d_%d", seq, i+1)
		}
		msg.ToolCalls = append(msg.ToolCalls, wireToolCall{ID: id, Type: "function",
			Function: wireFunction{Name: c.Name, Arguments: c.Arguments}})
		finish = "tool_calls"
	}
	if reply.FinishReason != "" {
		finish = reply.FinishReason
	}
	b, _ := json.Marshal(wireCompletion{
		ID: fmt.Sprintf("chatcmpl-%d", seq), Object: "chat.completion", Created: time.Now().Unix(), Model: model,
		Choices: []wireChoice{{Index: 0, FinishReason: finish, Message: msg}},
		Usage: wireUsage{PromptTokens: reply.PromptTokens, CompletionTokens: reply.CompletionTokens,
			TotalTokens: reply.PromptTokens + reply.CompletionTokens},
	})
	return string(b)
}

// closeMidBody promises a long JSON body, sends a fragment and hangs up.
func closeMidBody(w http.ResponseWriter) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		panic("llmtest: response writer cannot hijack")
	}
	conn, buf, err := hj.Hijack()
	if err != nil {
		return
	}
	defer conn.Close()
	_, _ = buf.WriteString("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 4096\r\n\r\n")
	_, _ = buf.WriteString(`{"id":"chatcmpl-cut","object":"chat.completion","choices":[{"index":0,"mess`)
	_ = buf.Flush()
}

func (s *Server) transcribe(w http.ResponseWriter, r *http.Request) {
	req := Request{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Form: map[string]string{}}
	if err := r.ParseMultipartForm(32 << 20); err == nil {
		for k, v := range r.MultipartForm.Value {
			req.Form[k] = strings.Join(v, ",")
		}
		if fh := r.MultipartForm.File["file"]; len(fh) > 0 {
			req.FileName = fh[0].Filename
		}
	}
	s.mu.Lock()
	s.requests = append(s.requests, req) // transcriptions do not consume the chat script
	text := s.transcript
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]string{"text": text})
}
