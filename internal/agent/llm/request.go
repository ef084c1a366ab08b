package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"

	"hearth/internal/agent"
)

// toolLessNote tells the model, in tool-less mode, where its facts are.
const toolLessNote = "No tools are available on this model server. Everything you need was looked up for you " +
	"and is in the prompt; do not write tool calls."

// schemaNote introduces the schema when it travels in the prompt (the word
// "JSON" also satisfies OpenAI's json_object rule that a message mention it).
const schemaNote = "Reply with one JSON document that matches this JSON Schema, and nothing else (no prose, no code fence):\n"

// toolCall is a tool call of a reply, native or read from its text.
type toolCall struct{ id, name, args string }

// reply is one model answer, whichever way it arrived.
type reply struct {
	content, refusal, finish, model, fingerprint string
	calls                                        []toolCall
	usage                                        agent.Usage
}

// params builds the next request from the profile as it stands: the tools
// (in the tool dialect, or none), the output format (json_schema in the
// dialect, json_object, or none with the schema in the prompt), the token
// cap field, and the conversation trimmed to the context window.
func (cl *call) params() (openai.ChatCompletionNewParams, error) {
	p, req := cl.p, cl.req
	useTools := len(req.Tools) > 0 && p.Tools == ToolsNative && !cl.final
	useFormat := req.Output != nil && p.Output != OutputText && !(useTools && p.Split)
	cl.sentTools, cl.sentFormat = useTools, useFormat

	system := req.System
	if len(req.Tools) > 0 && !useTools && !cl.final {
		system = joinText(system, toolLessNote)
	}
	var inPrompt string // the schema when it travels in the prompt
	if req.Output != nil && (!useFormat || p.Output == OutputJSONObject) {
		b, _ := json.Marshal(req.Output.Schema)
		inPrompt = schemaNote + string(b)
		system = joinText(system, inPrompt)
	}
	params := openai.ChatCompletionNewParams{Model: cl.model}
	fixed := tokens(system)
	if useTools {
		for _, t := range req.Tools {
			sch, strict := p.ToolDialect.Convert(t.Parameters)
			fn := shared.FunctionDefinitionParam{Name: t.Name, Parameters: shared.FunctionParameters(sch)}
			if t.Description != "" {
				fn.Description = openai.String(t.Description)
			}
			if p.StrictTools && strict {
				fn.Strict = openai.Bool(true)
			}
			params.Tools = append(params.Tools, openai.ChatCompletionFunctionTool(fn))
			b, _ := json.Marshal(fn)
			fixed += tokens(string(b))
		}
	}
	if useFormat {
		if p.Output == OutputJSONObject {
			params.ResponseFormat.OfJSONObject = &shared.ResponseFormatJSONObjectParam{}
		} else {
			params.ResponseFormat.OfJSONSchema = cl.jsonSchema()
		}
	}
	if req.Temperature != nil {
		params.Temperature = openai.Float(*req.Temperature)
	}
	if req.MaxTokens > 0 {
		if p.TokensField == FieldMaxCompletionTokens && !cl.c.cfg.LegacyMaxTokens {
			params.MaxCompletionTokens = openai.Int(int64(req.MaxTokens))
		} else {
			params.MaxTokens = openai.Int(int64(req.MaxTokens))
		}
	}
	turns := cl.renderTurns(useTools || cl.p.Tools == ToolsNative && !cl.final)
	for _, t := range turns {
		b, _ := json.Marshal(t)
		fixed += tokens(string(b))
	}
	msgs, kept, err := cl.fit(fixed)
	if err != nil {
		return params, err
	}
	cl.res.Prompts = append(cl.res.Prompts, cl.countPrompt(params, system, inPrompt, kept, turns))
	if system != "" {
		params.Messages = append(params.Messages, openai.SystemMessage(system))
	}
	params.Messages = append(params.Messages, msgs...)
	params.Messages = append(params.Messages, turns...)
	return params, nil
}

// jsonSchema is the response format in the profile's dialect; strict only
// when the converted schema follows the strict rules and the caller did
// not mark it loose. OpenAI's strict check does not apply to a non-strict
// schema, so one that cannot be strict is sent whole.
func (cl *call) jsonSchema() *shared.ResponseFormatJSONSchemaParam {
	o := cl.req.Output
	sch, strict := cl.p.Dialect.Convert(o.Schema)
	if o.Loose || !strict {
		strict = false
		if cl.p.Dialect == DialectOpenAIStrict {
			sch, _ = DialectFull.Convert(o.Schema)
		}
	}
	return &shared.ResponseFormatJSONSchemaParam{JSONSchema: shared.ResponseFormatJSONSchemaJSONSchemaParam{
		Name: schemaName(o.Name), Strict: openai.Bool(strict), Schema: sch}}
}

// schemaName makes a response-format name OpenAI accepts (^[a-zA-Z0-9_-]{1,64}$).
func schemaName(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			b[i] = '_'
		}
	}
	if len(b) > 64 {
		b = b[:64]
	}
	if len(b) == 0 {
		return "output"
	}
	return string(b)
}

// renderTurns sends the tool turns natively, or as text once tools are no
// longer offered (a server without tools, or the final structured request
// after a split tool phase), since servers may refuse tool messages then.
func (cl *call) renderTurns(native bool) []openai.ChatCompletionMessageParamUnion {
	if native {
		return cl.turns
	}
	out := make([]openai.ChatCompletionMessageParamUnion, 0, len(cl.turns))
	for _, t := range cl.turns {
		switch {
		case t.OfAssistant != nil && len(t.OfAssistant.ToolCalls) > 0:
			var b strings.Builder
			for _, tc := range t.OfAssistant.ToolCalls {
				if f := tc.OfFunction; f != nil {
					fmt.Fprintf(&b, "I called %s with %s.\n", f.Function.Name, f.Function.Arguments)
				}
			}
			out = append(out, openai.AssistantMessage(strings.TrimSpace(b.String())))
		case t.OfTool != nil:
			out = append(out, openai.UserMessage("Tool result: "+t.OfTool.Content.OfString.Value))
		default:
			out = append(out, t)
		}
	}
	return out
}

// tokens estimates a text's tokens: three bytes a token errs on the large
// side for English and JSON (about four in OpenAI's tokenizers).
func tokens(s string) int { return (len(s)+2)/3 + 4 }

// fit converts the request's messages, dropping the oldest unpinned ones
// (never the last) until the prompt fits the context window with room for
// the reply; fixed is what cannot be dropped (system, tools, tool turns).
func (cl *call) fit(fixed int) ([]openai.ChatCompletionMessageParamUnion, []agent.Message, error) {
	msgs := cl.req.Messages
	keep := make([]bool, len(msgs))
	total := fixed
	for i, m := range msgs {
		keep[i] = true
		total += tokens(m.Content)
	}
	cl.lastEstimate = total
	if budget := cl.budget(); budget > 0 && total > budget {
		dropped := 0
		for i := 0; i < len(msgs)-1 && total > budget; i++ {
			if !msgs[i].Pinned {
				keep[i] = false
				total -= tokens(msgs[i].Content)
				dropped++
			}
		}
		if total > budget {
			return nil, nil, fmt.Errorf("llm: the prompt (about %d tokens) does not fit the model's context window of %d tokens with room for the reply, even without older messages",
				total, cl.p.ContextTokens)
		}
		cl.lastEstimate = total
		if dropped > 0 {
			cl.note(fmt.Sprintf("dropped the %d oldest messages to fit the model's context window of %d tokens", dropped, cl.p.ContextTokens))
		}
	}
	out := make([]openai.ChatCompletionMessageParamUnion, 0, len(msgs))
	kept := make([]agent.Message, 0, len(msgs))
	for i, m := range msgs {
		if !keep[i] {
			continue
		}
		kept = append(kept, m)
		if m.Role == agent.RoleAssistant {
			out = append(out, openai.AssistantMessage(m.Content))
		} else {
			out = append(out, openai.UserMessage(m.Content))
		}
	}
	return out, kept, nil
}

// budget is the prompt's share of the context window (0 = unknown): the
// reply's cap (vLLM and OpenAI count it against the window) or a quarter
// of the window, and a 5 % margin for the estimate.
func (cl *call) budget() int {
	n := cl.p.ContextTokens
	if n <= 0 {
		return 0
	}
	reserve := cl.req.MaxTokens
	if reserve <= 0 {
		reserve = min(1024, n/4)
	}
	return (n - reserve) * 95 / 100
}

func joinText(a, b string) string {
	if strings.TrimSpace(a) == "" {
		return b
	}
	return a + "\n\n" + b
}

// send makes one request (streamed when the caller asked for deltas).
func (cl *call) send(ctx context.Context, params openai.ChatCompletionNewParams) (reply, error) {
	cp := &capture{}
	opts := []option.RequestOption{option.WithMiddleware(cp.middleware(),
		func(r *http.Request, next option.MiddlewareNext) (*http.Response, error) {
			cl.requests.Add(1)
			return next(r)
		})}
	if cl.req.OnDelta != nil {
		r, err := cl.stream(ctx, params, opts)
		return r, cp.explain(err, cl.c.cfg.APIKey)
	}
	comp, err := cl.c.client.Chat.Completions.New(ctx, params, opts...)
	if err != nil {
		return reply{}, cp.explain(err, cl.c.cfg.APIKey)
	}
	if len(comp.Choices) == 0 {
		return reply{}, errors.New("llm: the reply has no choices")
	}
	ch := comp.Choices[0]
	r := reply{content: ch.Message.Content, refusal: ch.Message.Refusal, finish: ch.FinishReason,
		model: comp.Model, fingerprint: comp.SystemFingerprint}
	for i, tc := range ch.Message.ToolCalls {
		r.calls = append(r.calls, toolCall{id: orID(tc.ID, i), name: tc.Function.Name, args: tc.Function.Arguments})
	}
	if comp.JSON.Usage.Valid() {
		r.usage = agent.Usage{InputTokens: comp.Usage.PromptTokens, OutputTokens: comp.Usage.CompletionTokens}
	} else {
		r.usage = cl.estimateUsage(r)
	}
	return r, nil
}

// estimateUsage stands in for a missing usage object (servers outside the
// big four may omit it), so the daily budget still counts the call.
func (cl *call) estimateUsage(r reply) agent.Usage {
	out := tokens(r.content)
	for _, c := range r.calls {
		out += tokens(c.args)
	}
	cl.note("token usage estimated (the server reported none)")
	return agent.Usage{InputTokens: int64(cl.lastEstimate), OutputTokens: int64(out)}
}

func orID(id string, i int) string {
	if id != "" {
		return id
	}
	return fmt.Sprintf("call_%d", i+1)
}

// errSilent ends a stream that went quiet for longer than FirstTokenTimeout.
var errSilent = errors.New("llm: the server sent nothing for too long")

// stream makes a streamed request: text deltas go to OnDelta as they
// arrive, tool calls are assembled (whole, as Ollama sends them, or in
// fragments, as llama.cpp and OpenAI do), and usage comes from the final
// chunk when the server sends one (stream_options.include_usage).
func (cl *call) stream(ctx context.Context, params openai.ChatCompletionNewParams, opts []option.RequestOption) (reply, error) {
	params.StreamOptions = openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)}
	wait := cl.c.cfg.FirstTokenTimeout
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	quiet := time.AfterFunc(wait, func() { cancel(errSilent) })
	defer quiet.Stop()

	st := cl.c.client.Chat.Completions.NewStreaming(ctx, params, opts...)
	defer st.Close()
	var (
		r        reply
		text     strings.Builder
		byIndex  = map[int64]int{}
		usage    bool
		finished bool
	)
	for st.Next() {
		quiet.Reset(wait)
		ch := st.Current()
		if ch.Model != "" {
			r.model = ch.Model
		}
		if ch.SystemFingerprint != "" {
			r.fingerprint = ch.SystemFingerprint
		}
		if ch.JSON.Usage.Valid() {
			usage = true
			r.usage = agent.Usage{InputTokens: ch.Usage.PromptTokens, OutputTokens: ch.Usage.CompletionTokens}
		}
		for _, c := range ch.Choices {
			if c.Index != 0 {
				continue
			}
			if d := c.Delta.Content; d != "" {
				text.WriteString(d)
				if len(r.calls) == 0 {
					cl.req.OnDelta(d)
				}
			}
			r.refusal += c.Delta.Refusal
			for _, tc := range c.Delta.ToolCalls {
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
			if c.FinishReason != "" {
				r.finish, finished = c.FinishReason, true
			}
		}
	}
	if err := st.Err(); err != nil {
		if errors.Is(context.Cause(ctx), errSilent) {
			return r, fmt.Errorf("llm: no reply from the model for %s (first-token timeout): %w", wait, err)
		}
		return r, err
	}
	r.content = text.String()
	if !finished && r.content == "" && len(r.calls) == 0 {
		return r, errors.New("llm: the stream ended without an answer")
	}
	for i := range r.calls {
		r.calls[i].id = orID(r.calls[i].id, i)
	}
	if !usage {
		r.usage = cl.estimateUsage(r)
	}
	return r, nil
}
