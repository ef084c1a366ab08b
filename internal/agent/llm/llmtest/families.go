package llmtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
)

// The families below follow each server's documentation and source as read
// for issue 25 (the research notes' §1-§8, which cite them); versions:
// OpenAI's Structured Outputs guide (2025-26 text), Ollama v0.33.0-rc2
// (fb30760), llama.cpp llama-server (builds up to b10868), vLLM after
// v0.12 (protocol.py @040a2cc), LM Studio 0.4.x (docs @c6854fb).

// OpenAIOptions tune the OpenAI fake.
type OpenAIOptions struct {
	// APIKey is the key requests must carry ("" = any).
	APIKey string
}

// OpenAI is api.openai.com's Chat Completions: strict json_schema and
// strict tools checked against the Structured Outputs subset (refused
// with its 400 invalid_request_error bodies), json_object only when a
// message says "json", a bearer key; usage on every reply, call_ ids,
// arguments streamed in fragments, a usage chunk with include_usage.
func OpenAI(o OpenAIOptions) Family {
	return Family{
		Name:   "openai",
		APIKey: o.APIKey,
		Check: func(r Request) *Refusal {
			if rf := r.ResponseFormat(); rf != nil {
				switch rf["type"] {
				case "json_schema":
					js, _ := rf["json_schema"].(map[string]any)
					name, _ := js["name"].(string)
					if strict, _ := js["strict"].(bool); strict {
						sch, _ := js["schema"].(map[string]any)
						if msg := StrictViolation(sch); msg != "" {
							return openAIError(400, fmt.Sprintf("Invalid schema for response_format '%s': %s", name, msg),
								"invalid_request_error", "response_format", "invalid_json_schema")
						}
					}
				case "json_object":
					if !strings.Contains(strings.ToLower(string(r.Raw)), "json") {
						return openAIError(400, "'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'.",
							"invalid_request_error", "messages", nil)
					}
				}
			}
			for i, t := range r.Tools() {
				if t.Strict {
					if msg := StrictViolation(t.Parameters); msg != "" {
						return openAIError(400, fmt.Sprintf("Invalid schema for function '%s': %s", t.Name, msg),
							"invalid_request_error", fmt.Sprintf("tools[%d].parameters", i), "invalid_function_parameters")
					}
				}
			}
			return nil
		},
		Shape: Shape{Fingerprint: "fp_hearth_fake"},
		Models: func() (int, string) {
			return 200, `{"object":"list","data":[{"id":"gpt-4o-mini","object":"model","created":1721172741,"owned_by":"system"}]}`
		},
	}
}

// OllamaOptions tune the Ollama fake.
type OllamaOptions struct {
	// NoTools is a model whose template has no tool support.
	NoTools bool
	// TemplateMiss is a model whose tool calls the template parser misses:
	// they arrive as raw JSON in content with finish_reason "stop"
	// (ollama/ollama#12174, Gitlawb/openclaude#433).
	TemplateMiss bool
	// Models are the installed models ("" entries ignored; none = any).
	Models []string
}

// Ollama is Ollama's OpenAI-compatible endpoint (docs/api/openai-compatibility.mdx,
// openai/openai.go, middleware/openai.go): any bearer; 404 for a missing
// model; 400 "<model> does not support tools"; a json_schema goes to the
// llama-server child whose conversion errors come back as the child's JSON
// inside the message; max_completion_tokens is not read (max_tokens is);
// replies carry system_fingerprint "fp_ollama", usage always, tool calls
// with 8-character call_ ids and an index, streamed whole.
func Ollama(o OllamaOptions) Family {
	return Family{
		Name: "ollama",
		Check: func(r Request) *Refusal {
			model := r.Model()
			if len(o.Models) > 0 && !slices.Contains(o.Models, model) {
				return openAIError(404, fmt.Sprintf("model '%s' not found", model), "not_found_error", nil, nil)
			}
			if len(r.Messages()) == 0 {
				return openAIError(400, "[] is too short - 'messages'", "invalid_request_error", nil, nil)
			}
			if len(r.Tools()) > 0 && o.NoTools {
				return openAIError(400, "registry.ollama.ai/library/"+model+" does not support tools", "invalid_request_error", nil, nil)
			}
			if sch := r.Schema(); sch != nil {
				if probs := GrammarProblems(sch, false); len(probs) > 0 {
					inner, _ := json.Marshal(map[string]any{"error": map[string]any{"code": 400,
						"message": "JSON schema conversion failed:\n" + strings.Join(probs, "\n"), "type": "invalid_request_error"}})
					return openAIError(400, string(inner), "invalid_request_error", nil, nil)
				}
			}
			return nil
		},
		Shape: Shape{Fingerprint: "fp_ollama", ToolIndex: true, StreamToolsWhole: true,
			ToolCallID: func(seq, i int) string { return fmt.Sprintf("call_%04d%04d", seq%10000, i) },
			ToolCallsInContent: func(calls []Call) string {
				if !o.TemplateMiss {
					return ""
				}
				return rawJSONCalls(calls)
			}},
		Models: func() (int, string) {
			return 200, `{"object":"list","data":[{"id":"qwen2.5:7b","object":"model","created":1755000000,"owned_by":"library"}]}`
		},
	}.withContentCalls(o.TemplateMiss)
}

// LlamaCppOptions tune the llama.cpp fake.
type LlamaCppOptions struct {
	// NoJinja is a server started without --jinja (older builds' default):
	// tools are refused.
	NoJinja bool
	// OldBuild refuses type arrays in schemas and answers conversion
	// failures with 500 server_error (builds before the 400 change).
	OldBuild bool
	// APIKey is --api-key ("" = none).
	APIKey string
	// NCtx is the slot's context size in tokens (0 = unlimited); the
	// prompt is estimated at four characters a token.
	NCtx int
}

// LlamaCpp is llama.cpp's llama-server (tools/server/README.md,
// server-common.cpp oaicompat_chat_params_parse, server-task.cpp): 500
// "tools param requires --jinja flag" without jinja; response_format
// types text/json_object/json_schema; schemas converted to a grammar
// ("JSON schema conversion failed" 400, 500 in older builds, prefixed for
// tools); with a json_schema the reply is grammar-bound so tool calls never
// come (ggml-org/llama.cpp#25454); exceed_context_size_error 400 with
// n_prompt_tokens and n_ctx; 401 "Invalid API Key"; 32-character tool
// call ids, usage with timings.
func LlamaCpp(o LlamaCppOptions) Family {
	status, typ := 400, "invalid_request_error"
	if o.OldBuild {
		status, typ = 500, "server_error"
	}
	lerr := func(code int, message, typ string) *Refusal {
		return refusal(code, map[string]any{"error": map[string]any{"code": code, "message": message, "type": typ}})
	}
	return Family{
		Name:         "llamacpp",
		APIKey:       o.APIKey,
		Unauthorized: lerr(401, "Invalid API Key", "authentication_error"),
		Check: func(r Request) *Refusal {
			if _, ok := r.Body["messages"]; !ok {
				return lerr(400, "'messages' is required", "invalid_request_error")
			}
			tools := r.Tools()
			if len(tools) > 0 && o.NoJinja {
				return lerr(500, "tools param requires --jinja flag", "server_error")
			}
			if rf := r.ResponseFormat(); rf != nil {
				if t, _ := rf["type"].(string); t != "text" && t != "json_object" && t != "json_schema" {
					return lerr(400, `response_format type must be one of "text" or "json_object", but got: `+t, "invalid_request_error")
				}
			}
			if sch := r.Schema(); sch != nil {
				if probs := GrammarProblems(sch, o.OldBuild); len(probs) > 0 {
					return lerr(status, "JSON schema conversion failed:\n"+strings.Join(probs, "\n"), typ)
				}
			}
			for _, t := range tools {
				if probs := GrammarProblems(t.Parameters, o.OldBuild); len(probs) > 0 {
					return lerr(status, "Unable to generate parser for this template. Automatic parser generation failed: JSON schema conversion failed:\n"+
						strings.Join(probs, "\n"), typ)
				}
			}
			if n := r.PromptTokens(); o.NCtx > 0 && n >= o.NCtx {
				return refusal(400, map[string]any{"error": map[string]any{"code": 400, "type": "exceed_context_size_error",
					"message":         fmt.Sprintf("request (%d tokens) exceeds the available context size (%d tokens), try increasing it", n, o.NCtx),
					"n_prompt_tokens": n, "n_ctx": o.NCtx}})
			}
			return nil
		},
		Sees: func(r Request) Request {
			if r.Schema() != nil && len(r.Tools()) > 0 {
				r.Body = cloneWithout(r.Body, "tools") // the grammar only admits the document
			}
			return r
		},
		Shape: Shape{Fingerprint: "b10868-304665fe7",
			ToolCallID: func(seq, i int) string { return fmt.Sprintf("%016d%016d", seq, i) },
			Extra:      map[string]any{"timings": map[string]any{"prompt_n": 12, "predicted_n": 8, "predicted_per_second": 11.5}}},
		Models: func() (int, string) {
			return 200, `{"object":"list","data":[{"id":"qwen2.5-7b-instruct-q4_k_m.gguf","object":"model","created":1755000000,"owned_by":"llamacpp","meta":{"n_ctx_train":32768}}]}`
		},
		Routes: map[string]http.HandlerFunc{"GET /health": func(w http.ResponseWriter, _ *http.Request) {
			writeJSON(w, 200, `{"status":"ok"}`)
		}},
	}
}

// VLLMOptions tune the vLLM fake.
type VLLMOptions struct {
	// AutoTools is a server started with --enable-auto-tool-choice and
	// --tool-call-parser (off by default, as in vLLM).
	AutoTools bool
	// XGrammar pins the structured-output backend to xgrammar, which
	// refuses some schema features ("auto" falls back instead).
	XGrammar bool
	// FlatErrors answers errors in the shape before v0.10.1.
	FlatErrors bool
	// APIKey is --api-key ("" = none).
	APIKey string
	// Served is --served-model-name ("" = any model).
	Served string
	// MaxModelLen is the context size (0 = unlimited); prompt tokens are
	// estimated at four characters a token, and max_tokens counts.
	MaxModelLen int
}

// VLLM is vLLM's OpenAI-compatible server (docs "Tool Calling" and
// "Structured Outputs", entrypoints/openai): tools need the auto tool
// choice flags (400 otherwise, even without tool_choice); "tools" must
// not be empty; xgrammar's unsupported features refused when pinned; the
// model must be the served one (404); the context check counts
// max_tokens; 401 {"error":"Unauthorized"}; tool ids chatcmpl-tool-…;
// stop_reason beside finish_reason; streamed usage once stream_options
// is present.
func VLLM(o VLLMOptions) Family {
	verr := func(code int, message, typ string) *Refusal {
		if o.FlatErrors {
			return refusal(code, map[string]any{"object": "error", "message": message, "type": typ, "param": nil, "code": code})
		}
		return refusal(code, map[string]any{"error": map[string]any{"message": message, "type": typ, "param": nil, "code": code}})
	}
	return Family{
		Name:         "vllm",
		APIKey:       o.APIKey,
		Unauthorized: &Refusal{Status: 401, Body: `{"error":"Unauthorized"}`},
		Check: func(r Request) *Refusal {
			if o.Served != "" && r.Model() != o.Served {
				return verr(404, fmt.Sprintf("The model `%s` does not exist.", r.Model()), "NotFoundError")
			}
			if tl, ok := r.Body["tools"].([]any); ok && len(tl) == 0 {
				return verr(400, "`tools` must not be an empty array. Either provide at least one tool or omit the field entirely.", "BadRequestError")
			}
			if _, ok := r.Body["stream_options"]; ok && r.Body["stream"] != true {
				return verr(400, "Stream options can only be defined when `stream=True`.", "BadRequestError")
			}
			if choice, _ := r.Body["tool_choice"].(string); len(r.Tools()) > 0 && (choice == "" || choice == "auto") && !o.AutoTools {
				return verr(400, `"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set`, "BadRequestError")
			}
			if sch := r.Schema(); sch != nil && o.XGrammar && xgrammarUnsupported(sch) {
				return verr(400, "The provided JSON schema contains features not supported by xgrammar.", "BadRequestError")
			}
			if o.MaxModelLen > 0 {
				out := intField(r.Body, "max_completion_tokens", intField(r.Body, "max_tokens", 0))
				if in := r.PromptTokens(); in+out > o.MaxModelLen {
					return verr(400, fmt.Sprintf("This model's maximum context length is %d tokens. However, you requested %d output tokens and your prompt contains at least %d input tokens, for a total of at least %d tokens. Please reduce the length of the input prompt or the number of requested output tokens.",
						o.MaxModelLen, out, in, in+out), "BadRequestError")
				}
			}
			return nil
		},
		Shape: Shape{ChoiceExtra: map[string]any{"stop_reason": nil},
			ToolCallID: func(seq, i int) string { return fmt.Sprintf("chatcmpl-tool-%08x-0000-4000-8000-%012x", seq, i) },
			StreamUsage: func(body map[string]any) bool {
				so, ok := body["stream_options"].(map[string]any)
				if !ok {
					return false
				}
				v, set := so["include_usage"].(bool)
				return v || !set
			}},
		Models: func() (int, string) {
			b, _ := json.Marshal(map[string]any{"object": "list", "data": []any{map[string]any{"id": orDefault(o.Served, "Qwen/Qwen2.5-7B-Instruct"),
				"object": "model", "created": 1755000000, "owned_by": "vllm", "max_model_len": o.MaxModelLen}}})
			return 200, string(b)
		},
	}
}

// LMStudioOptions tune the LM Studio fake.
type LMStudioOptions struct {
	// DefaultToolFormat is a model without native tool support: LM Studio
	// prompts it to write [TOOL_REQUEST]…[END_TOOL_REQUEST] and, failing to
	// parse that, returns it in content.
	DefaultToolFormat bool
	// Models are the downloaded models (none = any).
	Models []string
}

// LMStudio is LM Studio's OpenAI-compatible server (docs 1_developer/
// 3_openai-compat): response_format json_schema only (json_object is
// refused with a string error body); an unknown model is a 400
// model_not_found; tool calls with numeric-string ids, or in content for
// a default-format model (tools.mdx: "it will simply return the response
// to the standard message.content field").
func LMStudio(o LMStudioOptions) Family {
	return Family{
		Name: "lmstudio",
		Check: func(r Request) *Refusal {
			if len(o.Models) > 0 && !slices.Contains(o.Models, r.Model()) {
				return openAIError(400, fmt.Sprintf("Invalid model identifier %q. Please specify a valid downloaded model (e.g., %s).",
					r.Model(), strings.Join(o.Models, ", ")), "invalid_request_error", "model", "model_not_found")
			}
			if rf := r.ResponseFormat(); rf != nil && rf["type"] == "json_object" {
				return &Refusal{Status: 400, Body: `{"error":"'response_format.type' must be 'json_schema' or 'text'"}`}
			}
			return nil
		},
		Shape: Shape{ToolCallID: func(seq, i int) string { return fmt.Sprintf("%d%05d", 365174485+seq, i) },
			ToolCallsInContent: func(calls []Call) string {
				var b strings.Builder
				for _, c := range calls {
					b.WriteString("[TOOL_REQUEST]" + rawJSONCalls([]Call{c}) + "[END_TOOL_REQUEST]")
				}
				return b.String()
			}},
		Models: func() (int, string) {
			return 200, `{"object":"list","data":[{"id":"qwen2.5-7b-instruct","object":"model","owned_by":"organization_owner"}]}`
		},
	}.withContentCalls(o.DefaultToolFormat)
}

// MinimalOptions tune the minimal server.
type MinimalOptions struct {
	// Formats are the response_format types accepted (none = only "text").
	Formats []string
}

// Minimal is a small OpenAI-compatible server of the kind many wrappers
// are. It is synthetic (no single project's documentation): it refuses
// tools and the response formats it does not know with a bare
// {"error":{"message":…}}, sends no usage and finish_reason null, and has
// no /models.
func Minimal(o MinimalOptions) Family {
	return Family{
		Name: "minimal",
		Check: func(r Request) *Refusal {
			if _, ok := r.Body["tools"]; ok {
				return refusal(400, map[string]any{"error": map[string]any{"message": "tools are not supported"}})
			}
			if rf := r.ResponseFormat(); rf != nil {
				t, _ := rf["type"].(string)
				if t != "text" && !slices.Contains(o.Formats, t) {
					return refusal(400, map[string]any{"error": map[string]any{"message": "response_format type '" + t + "' is not supported"}})
				}
			}
			return nil
		},
		Shape: Shape{NoUsage: true, NullFinish: true},
	}
}

// withContentCalls keeps ToolCallsInContent only when on.
func (f Family) withContentCalls(on bool) Family {
	if !on {
		f.Shape.ToolCallsInContent = nil
	}
	return f
}

// rawJSONCalls writes calls as {"name":…,"arguments":{…}} objects.
func rawJSONCalls(calls []Call) string {
	var parts []string
	for _, c := range calls {
		var args any = map[string]any{}
		_ = json.Unmarshal([]byte(c.Arguments), &args)
		b, _ := json.Marshal(map[string]any{"name": c.Name, "arguments": args})
		parts = append(parts, string(b))
	}
	return strings.Join(parts, "\n")
}

func cloneWithout(m map[string]any, key string) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		if k != key {
			out[k] = v
		}
	}
	return out
}

func intField(m map[string]any, key string, def int) int {
	if f, ok := m[key].(float64); ok {
		return int(f)
	}
	return def
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
