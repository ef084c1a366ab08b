package llm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/ssestream"

	"hearth/internal/text"
)

// ServerError is a model server's refusal as the server put it: the HTTP
// status and the message of its body. openai-go reports only the status in
// its error text, and cannot decode every server's body at all (LM Studio's
// and vLLM's {"error":"text"}, vLLM's flat pre-0.10.1 shape), so the
// runtime keeps the body itself (capture) and reads every shape here.
type ServerError struct {
	Status int
	// Message is the server's own message ("" when the body had none).
	Message string
	// Type, Code and Param are the error object's fields when present.
	Type, Code, Param string
	err               error
}

func (e *ServerError) Error() string {
	var b strings.Builder
	if e.Status > 0 {
		fmt.Fprintf(&b, "%d %s", e.Status, http.StatusText(e.Status))
	} else {
		b.WriteString("stream error")
	}
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	var tags []string
	for _, t := range []string{e.Type, e.Code} {
		if t != "" && t != strconv.Itoa(e.Status) && !strings.Contains(e.Message, t) {
			tags = append(tags, t)
		}
	}
	if e.Param != "" {
		tags = append(tags, "param "+e.Param)
	}
	if len(tags) > 0 {
		b.WriteString(" (" + strings.Join(tags, ", ") + ")")
	}
	return b.String()
}

func (e *ServerError) Unwrap() error { return e.err }

// text is everything the server said, lower-cased, for classification.
func (e *ServerError) text() string {
	return strings.ToLower(e.Message + " " + e.Type + " " + e.Code + " " + e.Param)
}

// maxErrorBody caps how much of an error body is kept.
const maxErrorBody = 8 << 10

// capture keeps the status and body of the last failed response of one call.
type capture struct {
	mu     sync.Mutex
	status int
	body   []byte
}

// middleware records a ≥400 response's body and hands the client an
// identical copy to decode.
func (c *capture) middleware() option.Middleware {
	return func(r *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		resp, err := next(r)
		if err != nil || resp == nil || resp.StatusCode < 400 {
			return resp, err
		}
		body, rerr := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		_ = resp.Body.Close()
		resp.Body = io.NopCloser(bytes.NewReader(body))
		if rerr != nil {
			return resp, nil
		}
		c.mu.Lock()
		c.status, c.body = resp.StatusCode, body[:min(len(body), maxErrorBody)]
		c.mu.Unlock()
		return resp, nil
	}
}

// explain turns err into a *ServerError when the server answered with an
// error (captured body) or sent one inside a stream; other errors
// (transport, timeouts) are returned as they are. key is redacted.
func (c *capture) explain(err error, key string) error {
	if err == nil {
		return nil
	}
	var stream *ssestream.StreamError
	if errors.As(err, &stream) {
		se := parseErrorBody(0, stream.Event.Data)
		se.err = err
		redact(se, key)
		return se
	}
	c.mu.Lock()
	status, body := c.status, c.body
	c.mu.Unlock()
	if status == 0 {
		return err
	}
	se := parseErrorBody(status, body)
	se.err = err
	redact(se, key)
	return se
}

// parseErrorBody reads the error shapes servers use:
//
//	{"error":{"message":…,"type":…,"param":…,"code":…}}   OpenAI, Ollama, llama.cpp, vLLM ≥ 0.10.1
//	{"error":"text"}                                        LM Studio, vLLM's auth middleware
//	{"object":"error","message":…,"code":400}              vLLM < 0.10.1
//	{"detail":"text"} or {"detail":[{"msg":…}]}             FastAPI servers (422)
//	plain text
//
// A message that is itself a JSON error body (Ollama passes llama-server's
// errors up that way) is unwrapped.
func parseErrorBody(status int, body []byte) *ServerError {
	se := &ServerError{Status: status}
	var doc map[string]any
	if json.Unmarshal(body, &doc) != nil {
		se.Message = oneLine(string(body), 400)
		return se
	}
	obj := doc
	switch e := doc["error"].(type) {
	case string:
		se.Message = oneLine(e, 1000)
		return se
	case map[string]any:
		obj = e
	}
	se.Message = scalar(obj["message"])
	se.Type, se.Code, se.Param = scalar(obj["type"]), scalar(obj["code"]), scalar(obj["param"])
	if se.Message == "" {
		switch d := doc["detail"].(type) {
		case string:
			se.Message = d
		case []any:
			var msgs []string
			for _, item := range d {
				if m, ok := item.(map[string]any); ok {
					var loc []string // pydantic's location names the field: ["body","tools"]
					if l, ok := m["loc"].([]any); ok {
						for _, part := range l {
							if p := scalar(part); p != "" && p != "body" {
								loc = append(loc, p)
							}
						}
					}
					msg := scalar(m["msg"])
					if len(loc) > 0 {
						msg = strings.Join(loc, ".") + ": " + msg
					}
					msgs = append(msgs, msg)
				}
			}
			se.Message = strings.Join(msgs, "; ")
		}
	}
	if strings.HasPrefix(strings.TrimSpace(se.Message), "{") {
		inner := parseErrorBody(status, []byte(se.Message))
		if inner.Message != "" {
			se.Message = inner.Message
			if inner.Type != "" {
				se.Type = inner.Type
			}
		}
	}
	se.Message = oneLine(se.Message, 1000)
	return se
}

func scalar(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	}
	return ""
}

// oneLine collapses whitespace runs (error bodies carry newlines), drops
// other control characters (the text reaches run records and pages) and
// caps s.
func oneLine(s string, limit int) string {
	s = strings.Join(strings.Fields(s), " ")
	s, _ = text.Clean(text.Line, s)
	if r := []rune(s); len(r) > limit {
		s = string(r[:limit]) + "…"
	}
	return s
}

// keyEcho is OpenAI's "Incorrect API key provided: sk-…" echo of the key.
var keyEcho = regexp.MustCompile(`(?i)(api key provided:?\s*)\S+`)

// redact removes the API key (and a server's echo of it) from se.
func redact(se *ServerError, key string) {
	for _, p := range []*string{&se.Message, &se.Type, &se.Code, &se.Param} {
		if key != "" {
			*p = strings.ReplaceAll(*p, key, "****")
		}
		*p = keyEcho.ReplaceAllString(*p, "${1}****")
	}
}

// ServerErrorOf returns the server error inside err, if any.
func ServerErrorOf(err error) (*ServerError, bool) {
	var se *ServerError
	ok := errors.As(err, &se)
	return se, ok
}

var (
	ctxLimitPatterns = []*regexp.Regexp{
		regexp.MustCompile(`maximum context length is (\d+)`),         // OpenAI, vLLM
		regexp.MustCompile(`available context size \((\d+) tokens\)`), // llama.cpp, Ollama
		regexp.MustCompile(`context length of only (\d+)`),
	}
	ctxOverflowWords = []string{"context length", "context size", "context window", "context_length_exceeded",
		"exceed_context_size", "tokens to keep", "prompt is too long", "prompt is longer"}
)

// contextOverflow reports a prompt that did not fit the model's context
// and the limit the server named (0 if none).
func (e *ServerError) contextOverflow() (limit int, ok bool) {
	t := e.text()
	for _, w := range ctxOverflowWords {
		if strings.Contains(t, w) {
			ok = true
		}
	}
	if !ok {
		return 0, false
	}
	for _, re := range ctxLimitPatterns {
		if m := re.FindStringSubmatch(t); m != nil {
			n, _ := strconv.Atoi(m[1])
			return n, true
		}
	}
	return 0, true
}

// refusal reports a request the server will never accept as sent (as
// opposed to a busy or broken server): 400, 404 on a field, 422, 501, and a
// 500 that names a schema conversion (older llama.cpp builds).
func (e *ServerError) refusal() bool {
	switch e.Status {
	case http.StatusBadRequest, http.StatusUnprocessableEntity, http.StatusNotImplemented:
		return true
	case http.StatusInternalServerError:
		t := e.text()
		return strings.Contains(t, "json schema conversion failed") || strings.Contains(t, "--jinja") ||
			strings.Contains(t, "grammar")
	case 0: // an error event inside a stream
		return true
	}
	return false
}

// refusesToolSchema: a tool's parameter schema was refused, not tools as such.
func (e *ServerError) refusesToolSchema() bool {
	t := e.text()
	return e.refusal() && (strings.Contains(t, "invalid schema for function") || strings.Contains(t, "invalid_function_parameters") ||
		strings.Contains(t, "tools[") && strings.Contains(t, "schema") ||
		strings.Contains(t, "parser") && strings.Contains(t, "json schema conversion failed"))
}

// refusesTools: the server cannot do tool calling (Ollama's "does not
// support tools", llama.cpp's "tools param requires --jinja flag", vLLM's
// "\"auto\" tool choice requires --enable-auto-tool-choice …").
func (e *ServerError) refusesTools() bool {
	t := e.text()
	return e.refusal() && !e.refusesToolSchema() && strings.Contains(t, "tool")
}

// refusesFormat: the response format (or its schema) was refused.
func (e *ServerError) refusesFormat() bool {
	t := e.text()
	if !e.refusal() {
		return false
	}
	for _, w := range []string{"response_format", "json_schema", "schema", "grammar", "json_object", "format", "'json'"} {
		if strings.Contains(t, w) {
			return true
		}
	}
	return false
}

// fieldRefusal finds the request field a server refused by name, e.g.
// OpenAI's "Unsupported parameter: 'max_tokens' is not supported with this
// model. Use 'max_completion_tokens' instead.".
var fieldRefusal = regexp.MustCompile(`(?:unsupported parameter|unrecognized request argument|unknown field)s?:?\s*'?"?([a-z_]+)|'([a-z_]+)' is not supported`)

// refusesJSONSchema: the json_schema response format as such is refused
// (OpenAI's "'response_format' of type 'json_schema' is not supported with
// this model"), so a simpler schema would not help.
func (e *ServerError) refusesJSONSchema() bool {
	t := e.text()
	return e.refusesFormat() && strings.Contains(t, "json_schema") && strings.Contains(t, "not supported")
}

// refusedField is the request field the server refused ("" if none).
func (e *ServerError) refusedField() string {
	if !e.refusal() {
		return ""
	}
	m := fieldRefusal.FindStringSubmatch(e.text())
	if m == nil {
		return ""
	}
	return m[1] + m[2]
}
