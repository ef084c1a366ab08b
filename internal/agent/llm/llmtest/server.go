// Package llmtest has fake OpenAI-compatible servers for tests. They speak
// the real Chat Completions wire format (content, tool calls, usage,
// errors, streaming, delays, hangs, malformed bodies, dropped connections)
// from a script, serve /v1/audio/transcriptions, and record every request.
// Point the real openai-go client (llm.OpenAI) at Server.URL().
//
// New is a permissive server that accepts anything. NewFamily serves as
// one real server family does (families.go): OpenAI with its strict-schema
// refusals, Ollama, llama.cpp, vLLM, LM Studio, and a minimal server
// without tools; each validates requests as its server documents, answers
// refusals in that server's error shape (the scripted reply is not used
// up by a refused request), and shapes replies (ids, usage, finish
// reasons, tool calls the server failed to parse, streaming) as it does.
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

// Server is the fake. Scripted replies are consumed in order, one per
// accepted chat request (transport retries included); when the script is
// empty the Otherwise function answers (default: a 500 saying the script
// ran out).
type Server struct {
	srv     *httptest.Server
	closing chan struct{}
	once    sync.Once
	fam     Family

	mu          sync.Mutex
	script      []Reply
	otherwise   func(Request) Reply
	requests    []Request
	refusals    []Refused
	transcript  string
	seq         int
	inflight    int
	maxInflight int
}

// Refused is a request the family's validation refused, with the answer.
type Refused struct {
	Request Request
	Status  int
	Body    string
}

// New starts a permissive server with the given script; it is closed at
// test cleanup.
func New(tb testing.TB, replies ...Reply) *Server {
	tb.Helper()
	return NewFamily(tb, Family{Name: "permissive"}, replies...)
}

// NewFamily starts a server that behaves as fam.
func NewFamily(tb testing.TB, fam Family, replies ...Reply) *Server {
	tb.Helper()
	s := &Server{closing: make(chan struct{}), script: replies, transcript: "transcribed text", fam: fam}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", s.chat)
	mux.HandleFunc("POST /v1/audio/transcriptions", s.transcribe)
	if fam.Models != nil {
		mux.HandleFunc("GET /v1/models", func(w http.ResponseWriter, r *http.Request) {
			s.record(Request{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone()})
			if ref := fam.auth(r.Header); ref != nil {
				writeJSON(w, ref.Status, ref.Body)
				return
			}
			status, body := fam.Models()
			writeJSON(w, status, body)
		})
	}
	for path, h := range fam.Routes {
		mux.HandleFunc(path, h)
	}
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
// that calls tools forever, or a model that answers from the request).
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

// ChatRequests returns the chat completion requests received (refused
// ones included).
func (s *Server) ChatRequests() []Request {
	var out []Request
	for _, r := range s.Requests() {
		if r.Path == "/v1/chat/completions" {
			out = append(out, r)
		}
	}
	return out
}

// Refusals returns the requests the family refused, in order.
func (s *Server) Refusals() []Refused {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Refused(nil), s.refusals...)
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

func (s *Server) record(req Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, req)
}

func (s *Server) refuse(req Request, ref *Refusal) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.refusals = append(s.refusals, Refused{Request: req, Status: ref.Status, Body: ref.Body})
}

func (s *Server) enter(req Request) (Reply, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
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
	s.record(req)
	if ref := s.fam.auth(r.Header); ref != nil {
		s.refuse(req, ref)
		writeJSON(w, ref.Status, ref.Body)
		return
	}
	if s.fam.Check != nil {
		if ref := s.fam.Check(req); ref != nil {
			s.refuse(req, ref)
			writeJSON(w, ref.Status, ref.Body)
			return
		}
	}
	seen := req
	if s.fam.Sees != nil {
		seen = s.fam.Sees(req)
	}
	reply, seq := s.enter(seen)
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
	if reply.Body != "" {
		writeJSON(w, status, reply.Body)
		return
	}
	if status >= 300 {
		b, _ := json.Marshal(map[string]any{"error": map[string]any{
			"message": fmt.Sprintf("llmtest: scripted status %d", status), "type": "llmtest_error", "code": nil}})
		writeJSON(w, status, string(b))
		return
	}
	c := s.fam.completion(reply, seq, seen)
	if stream, _ := req.Body["stream"].(bool); stream {
		s.fam.writeStream(w, c, req, reply, func(d time.Duration) bool { return s.wait(r, d) })
		return
	}
	writeJSON(w, http.StatusOK, string(c.marshal()))
}

func writeJSON(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, body)
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

// wait pauses d, unless the client goes away or the server closes first
// (then false).
func (s *Server) wait(r *http.Request, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-r.Context().Done():
	case <-s.closing:
	}
	return false
}
