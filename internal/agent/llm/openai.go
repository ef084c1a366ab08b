// Package llm holds the runtimes behind agent.Runtime: OpenAI (any
// OpenAI-compatible Chat Completions server through openai-go) and
// Heuristic (no network; the assignment's planner). Package llmtest has a
// fake Chat Completions server for tests.
package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"hearth/internal/agent"
)

// OpenAIConfig configures the OpenAI runtime.
type OpenAIConfig struct {
	// BaseURL of the API, e.g. https://api.openai.com/v1 or
	// http://127.0.0.1:11434/v1 (Ollama); "" = the SDK default (OpenAI).
	BaseURL string
	// APIKey is sent as a bearer token; local servers usually ignore it.
	APIKey string
	// Model is the default model when a request names none.
	Model string
	// RequestTimeout bounds each HTTP attempt (0 = 2 minutes).
	RequestTimeout time.Duration
	// MaxRetries is how many times a request is retried on 408/409/429/5xx
	// and connection errors, with exponential backoff honouring Retry-After.
	MaxRetries int
	// MaxRetryDelay caps one backoff wait (0 = the SDK default).
	MaxRetryDelay time.Duration
	// LegacyMaxTokens sends max_tokens instead of max_completion_tokens, for
	// servers that only read the older field.
	LegacyMaxTokens bool
	// HTTPClient replaces the default HTTP client.
	HTTPClient *http.Client
}

// OpenAI runs chat completions with tools and structured output.
type OpenAI struct {
	client openai.Client
	cfg    OpenAIConfig
}

var _ agent.Runtime = (*OpenAI)(nil)

// NewOpenAI returns a runtime for cfg; it makes no request until used.
func NewOpenAI(cfg OpenAIConfig) (*OpenAI, error) {
	if cfg.Model == "" {
		return nil, errors.New("llm: a default model is required")
	}
	if cfg.RequestTimeout <= 0 {
		cfg.RequestTimeout = 2 * time.Minute
	}
	opts := []option.RequestOption{
		option.WithAPIKey(cfg.APIKey),
		option.WithMaxRetries(max(cfg.MaxRetries, 0)),
		option.WithRequestTimeout(cfg.RequestTimeout),
	}
	if cfg.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(cfg.BaseURL))
	}
	if cfg.MaxRetryDelay > 0 {
		opts = append(opts, option.WithMaxRetryDelay(cfg.MaxRetryDelay))
	}
	if cfg.HTTPClient != nil {
		opts = append(opts, option.WithHTTPClient(cfg.HTTPClient))
	}
	return &OpenAI{client: openai.NewClient(opts...), cfg: cfg}, nil
}

// Model returns the configured default model.
func (c *OpenAI) Model() string { return c.cfg.Model }

// defaultIterations bounds the tool-call loop when the request does not.
const defaultIterations = 8

// Execute sends the conversation and runs the tool-call loop: while the
// model asks for tools (and iterations remain) each call is executed with
// req.CallTool and its result sent back. The final assistant text is the
// output. A model still calling tools after MaxIterations turns is an error.
func (c *OpenAI) Execute(ctx context.Context, req agent.Request) (res agent.Result, err error) {
	model := req.Model
	if model == "" {
		model = c.cfg.Model
	}
	res.Model = model
	params, err := c.params(model, req)
	if err != nil {
		return res, err
	}
	var requests atomic.Int64
	count := option.WithMiddleware(func(r *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		requests.Add(1)
		return next(r)
	})
	defer func() { res.Attempts = int(requests.Load()) }()

	iterations := req.MaxIterations
	if iterations <= 0 {
		iterations = defaultIterations
	}
	for turn := 1; turn <= iterations; turn++ {
		var t reply
		if req.OnDelta != nil {
			t, err = c.stream(ctx, params, count, req.OnDelta)
		} else {
			t, err = c.complete(ctx, params, count)
		}
		res.Usage = res.Usage.Add(t.usage)
		if t.model != "" {
			res.Model = t.model
		}
		if err != nil {
			return res, err
		}
		if len(t.calls) == 0 {
			if t.content == "" && t.refusal != "" {
				return res, fmt.Errorf("llm: the model refused: %s", t.refusal)
			}
			res.Output = t.content
			return res, nil
		}
		if req.CallTool == nil {
			return res, errors.New("llm: the model called a tool but none were offered")
		}
		params.Messages = append(params.Messages, t.assistant)
		for _, tc := range t.calls {
			call := c.runTool(ctx, req.CallTool, tc.name, tc.args)
			res.ToolCalls = append(res.ToolCalls, call)
			content := string(call.Result)
			if call.Error != "" {
				b, _ := json.Marshal(map[string]string{"error": call.Error})
				content = string(b)
			}
			params.Messages = append(params.Messages, openai.ToolMessage(content, tc.id))
		}
		if err := ctx.Err(); err != nil {
			return res, err
		}
	}
	return res, fmt.Errorf("llm: the model was still calling tools after %d turns", iterations)
}

// reply is one turn of the model's answer, streamed or not.
type reply struct {
	content, refusal string
	calls            []toolCall
	usage            agent.Usage
	model            string
	// assistant is the turn as the next request sends it back.
	assistant openai.ChatCompletionMessageParamUnion
}

type toolCall struct{ id, name, args string }

// complete makes one request and reads the whole reply.
func (c *OpenAI) complete(ctx context.Context, params openai.ChatCompletionNewParams, opts ...option.RequestOption) (reply, error) {
	comp, err := c.client.Chat.Completions.New(ctx, params, opts...)
	if err != nil {
		return reply{}, fmt.Errorf("llm: chat completion: %w", err)
	}
	r := reply{usage: agent.Usage{InputTokens: comp.Usage.PromptTokens, OutputTokens: comp.Usage.CompletionTokens}, model: comp.Model}
	if len(comp.Choices) == 0 {
		return r, errors.New("llm: the reply has no choices")
	}
	msg := comp.Choices[0].Message
	r.content, r.refusal, r.assistant = msg.Content, msg.Refusal, msg.ToParam()
	for _, tc := range msg.ToolCalls {
		r.calls = append(r.calls, toolCall{id: tc.ID, name: tc.Function.Name, args: tc.Function.Arguments})
	}
	return r, nil
}

// stream makes one streamed request: text deltas go to onDelta as they
// arrive (until the turn turns out to call tools), tool calls are
// assembled from their pieces by index, and usage comes from the last
// chunk (stream_options.include_usage).
func (c *OpenAI) stream(ctx context.Context, params openai.ChatCompletionNewParams, count option.RequestOption, onDelta func(string)) (reply, error) {
	params.StreamOptions = openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)}
	st := c.client.Chat.Completions.NewStreaming(ctx, params, count)
	defer st.Close()
	var r reply
	var text strings.Builder
	byIndex := map[int64]int{}
	for st.Next() {
		ch := st.Current()
		if ch.Model != "" {
			r.model = ch.Model
		}
		if ch.JSON.Usage.Valid() {
			r.usage = agent.Usage{InputTokens: ch.Usage.PromptTokens, OutputTokens: ch.Usage.CompletionTokens}
		}
		for _, choice := range ch.Choices {
			if choice.Index != 0 {
				continue
			}
			if d := choice.Delta.Content; d != "" {
				text.WriteString(d)
				if len(r.calls) == 0 {
					onDelta(d)
				}
			}
			r.refusal += choice.Delta.Refusal
			for _, tc := range choice.Delta.ToolCalls {
				i, ok := byIndex[tc.Index]
				if !ok {
					i = len(r.calls)
					byIndex[tc.Index] = i
					r.calls = append(r.calls, toolCall{})
				}
				if tc.ID != "" {
					r.calls[i].id = tc.ID
				}
				if tc.Function.Name != "" {
					r.calls[i].name = tc.Function.Name
				}
				r.calls[i].args += tc.Function.Arguments
			}
		}
	}
	if err := st.Err(); err != nil {
		return r, fmt.Errorf("llm: streamed chat completion: %w", err)
	}
	r.content = text.String()
	asst := openai.ChatCompletionAssistantMessageParam{}
	if r.content != "" {
		asst.Content.OfString = openai.String(r.content)
	}
	for i := range r.calls {
		if r.calls[i].id == "" {
			r.calls[i].id = fmt.Sprintf("call_%d", i+1)
		}
		asst.ToolCalls = append(asst.ToolCalls, openai.ChatCompletionMessageToolCallUnionParam{
			OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{ID: r.calls[i].id,
				Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: r.calls[i].name, Arguments: r.calls[i].args}}})
	}
	r.assistant = openai.ChatCompletionMessageParamUnion{OfAssistant: &asst}
	return r, nil
}

// runTool executes one call; failures become the tool's result for the model.
func (c *OpenAI) runTool(ctx context.Context, call agent.ToolCaller, name, args string) agent.ToolCall {
	tc := agent.ToolCall{Name: name, Args: json.RawMessage(args)}
	if args == "" || !json.Valid([]byte(args)) {
		tc.Args = json.RawMessage("{}")
		if args != "" {
			tc.Error = "arguments are not valid JSON"
			return tc
		}
	}
	v, err := call(ctx, name, tc.Args)
	if err != nil {
		tc.Error = err.Error()
		return tc
	}
	b, err := json.Marshal(v)
	if err != nil {
		tc.Error = "result is not JSON: " + err.Error()
		return tc
	}
	tc.Result = b
	return tc
}

// params builds the first request of a conversation.
func (c *OpenAI) params(model string, req agent.Request) (openai.ChatCompletionNewParams, error) {
	p := openai.ChatCompletionNewParams{Model: model}
	if req.System != "" {
		p.Messages = append(p.Messages, openai.SystemMessage(req.System))
	}
	for _, m := range req.Messages {
		switch m.Role {
		case agent.RoleUser:
			p.Messages = append(p.Messages, openai.UserMessage(m.Content))
		case agent.RoleAssistant:
			p.Messages = append(p.Messages, openai.AssistantMessage(m.Content))
		default:
			return p, fmt.Errorf("llm: unknown message role %q", m.Role)
		}
	}
	for _, t := range req.Tools {
		fn := openai.FunctionDefinitionParam{Name: t.Name, Parameters: openai.FunctionParameters(t.Parameters)}
		if t.Description != "" {
			fn.Description = openai.String(t.Description)
		}
		p.Tools = append(p.Tools, openai.ChatCompletionFunctionTool(fn))
	}
	if o := req.Output; o != nil {
		p.ResponseFormat = openai.ChatCompletionNewParamsResponseFormatUnion{OfJSONSchema: &openai.ResponseFormatJSONSchemaParam{
			JSONSchema: openai.ResponseFormatJSONSchemaJSONSchemaParam{Name: o.Name, Strict: openai.Bool(!o.Loose), Schema: o.Schema},
		}}
	}
	if req.Temperature != nil {
		p.Temperature = openai.Float(*req.Temperature)
	}
	if req.MaxTokens > 0 {
		if c.cfg.LegacyMaxTokens {
			p.MaxTokens = openai.Int(int64(req.MaxTokens))
		} else {
			p.MaxCompletionTokens = openai.Int(int64(req.MaxTokens))
		}
	}
	return p, nil
}
