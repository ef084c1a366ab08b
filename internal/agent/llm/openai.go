// Package llm holds the runtimes behind agent.Runtime: OpenAI (any
// OpenAI-compatible Chat Completions server through openai-go) and
// Heuristic (no network; the assignment's planner). Package llmtest has
// fake servers for tests, one per server family.
//
// Servers differ (README "Model servers"), so the OpenAI runtime keeps a
// Profile per endpoint (base URL and model): it starts from the server
// family's settings (detected from the base URL, the model list or the
// first reply, or configured) and, when the server refuses something,
// retries the same turn one rung down a ladder and remembers it:
// structured output json_schema (in the family's schema dialect) → the
// minimal dialect → json_object with the schema in the prompt → plain
// text with the document extracted; tools → minimal tool schemas →
// tool-less (the gathered facts are in the prompt). It also trims the
// conversation to the model's context window, reads tool calls that
// local models write into their content, and keeps the server's error
// message (never the API key) for the run's fallback reason.
package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"slices"
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
	// APIKey is sent as a bearer token; with none, no Authorization header
	// is sent (local servers without a key).
	APIKey string
	// Model is the default model when a request names none.
	Model string
	// Server is the server family; "" detects it (base URL, model list,
	// replies).
	Server Family
	// ContextTokens is the model's context window in tokens, for trimming
	// prompts; 0 learns it (vLLM's model list, or the first overflow error).
	ContextTokens int
	// ConnectTimeout bounds connecting to the server (0 = 10 s).
	ConnectTimeout time.Duration
	// RequestTimeout bounds each HTTP attempt, the whole reply included
	// (0 = 2 minutes). A small model on a Raspberry Pi may need 10.
	RequestTimeout time.Duration
	// FirstTokenTimeout bounds the wait for each piece of a streamed reply,
	// the first one included (0 = RequestTimeout).
	FirstTokenTimeout time.Duration
	// MaxRetries is how many times a request is retried on 408/409/429/5xx
	// and connection errors, with exponential backoff honouring Retry-After.
	MaxRetries int
	// MaxRetryDelay caps one backoff wait (0 = the SDK default).
	MaxRetryDelay time.Duration
	// LegacyMaxTokens always sends max_tokens instead of the field the
	// profile chose.
	LegacyMaxTokens bool
	// Profiles remembers what was learned per endpoint (nil = in memory).
	Profiles ProfileStore
	// HTTPClient replaces the default HTTP client (ConnectTimeout is then
	// the client's business).
	HTTPClient *http.Client
	// Now is the clock of lessons learned (nil = time.Now).
	Now func() time.Time
}

// OpenAI runs chat completions with tools and structured output.
type OpenAI struct {
	client openai.Client
	cfg    OpenAIConfig
	store  ProfileStore
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
	if cfg.ConnectTimeout <= 0 {
		cfg.ConnectTimeout = 10 * time.Second
	}
	if cfg.FirstTokenTimeout <= 0 {
		cfg.FirstTokenTimeout = cfg.RequestTimeout
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	hc := cfg.HTTPClient
	if hc == nil {
		tr := http.DefaultTransport.(*http.Transport).Clone()
		tr.DialContext = (&net.Dialer{Timeout: cfg.ConnectTimeout, KeepAlive: 30 * time.Second}).DialContext
		tr.TLSHandshakeTimeout = cfg.ConnectTimeout
		hc = &http.Client{Transport: tr}
	}
	opts := []option.RequestOption{
		option.WithAPIKey(cfg.APIKey),
		option.WithMaxRetries(max(cfg.MaxRetries, 0)),
		option.WithRequestTimeout(cfg.RequestTimeout),
		option.WithHTTPClient(hc),
	}
	if cfg.APIKey == "" {
		// Local servers need no key; an empty "Bearer " is worse than none.
		opts = append(opts, option.WithMiddleware(func(r *http.Request, next option.MiddlewareNext) (*http.Response, error) {
			r.Header.Del("Authorization")
			return next(r)
		}))
	}
	if cfg.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(cfg.BaseURL))
	}
	if cfg.MaxRetryDelay > 0 {
		opts = append(opts, option.WithMaxRetryDelay(cfg.MaxRetryDelay))
	}
	st := cfg.Profiles
	if st == nil {
		st = &MemoryProfiles{}
	}
	return &OpenAI{client: openai.NewClient(opts...), cfg: cfg, store: st}, nil
}

// Model returns the configured default model.
func (c *OpenAI) Model() string { return c.cfg.Model }

// BaseURL returns the endpoint's base URL as profiles are keyed.
func (c *OpenAI) BaseURL() string { return NormalizeBaseURL(c.cfg.BaseURL) }

// HasKey reports whether an API key is configured (never the key).
func (c *OpenAI) HasKey() bool { return c.cfg.APIKey != "" }

// Profile returns what is used with model on this endpoint: the stored
// profile, or a new one from the detected family.
func (c *OpenAI) Profile(ctx context.Context, model string) (Profile, error) {
	if model == "" {
		model = c.cfg.Model
	}
	p, ok, err := c.store.Load(ctx, c.BaseURL(), model)
	if err != nil || ok {
		return p, err
	}
	return c.detect(ctx, model, nil)
}

// detect builds a new profile: the configured family, else one the base
// URL or the model list names, else generic. list may be given (Check).
func (c *OpenAI) detect(ctx context.Context, model string, list *ModelList) (Profile, error) {
	fam, how := c.cfg.Server, "configured (HEARTH_MODEL_SERVER)"
	if fam == "" {
		fam, how = familyFromURL(c.BaseURL()), "base URL"
	}
	if list == nil && (fam == "" || c.cfg.ContextTokens == 0 && fam != FamilyOpenAI) {
		l := c.ListModels(ctx)
		list = &l
	}
	if fam == "" && list != nil {
		fam, how = list.family(), "model list"
	}
	if fam == "" {
		how = "not recognised: generic settings"
	}
	p := NewProfile(c.BaseURL(), model, fam)
	p.Detected = how
	switch {
	case c.cfg.ContextTokens > 0:
		p.ContextTokens = c.cfg.ContextTokens
	case list != nil:
		p.ContextTokens = list.contextFor(model)
	}
	p.UpdatedAt = c.cfg.Now().UTC()
	return p, c.store.Save(ctx, p)
}

// defaultIterations bounds the tool-call loop when the request does not.
const defaultIterations = 8

// maxAdaptations bounds how often one call steps down the ladders.
const maxAdaptations = 8

// Execute sends the conversation and runs the tool-call loop: while the
// model asks for tools (and iterations remain) each call is executed with
// req.CallTool and its result sent back. The final assistant text is the
// output (with Request.Output, the JSON document found in it). A model
// still calling tools after MaxIterations turns is an error. A refusal the
// endpoint's profile can step down from is retried at once, one rung down,
// and remembered.
func (c *OpenAI) Execute(ctx context.Context, req agent.ModelRequest) (res agent.Result, err error) {
	model := req.Model
	if model == "" {
		model = c.cfg.Model
	}
	wording := ""
	if req.ToolModel != "" && req.ToolModel != model && len(req.Tools) > 0 {
		wording, model = model, req.ToolModel
	}
	res.Model = model
	p, err := c.Profile(ctx, model)
	if err != nil {
		return res, err
	}
	cl := &call{c: c, req: req, p: p, model: model, wording: wording, res: &res}
	defer func() { res.Attempts = int(cl.requests.Load()) }()
	err = cl.run(ctx)
	return res, err
}

// call is one Execute: the conversation and the profile as it adapts.
type call struct {
	c     *OpenAI
	req   agent.ModelRequest
	p     Profile
	model string
	// wording, when set, is the model that writes the final answer after
	// the tool model (cl.model) finished its tool turns.
	wording string
	res     *agent.Result

	turns    []openai.ChatCompletionMessageParamUnion // tool turns after the request's messages
	requests atomic.Int64
	adapted  int
	trimmed  bool // the context window was learned from an overflow this call
	// lastEstimate is the last request's prompt size in estimated tokens.
	lastEstimate int

	// results are the tool results sent back this call (quoted checks them).
	results []string

	sentTools, sentFormat bool
	final                 bool // the structured follow-up after a split tool phase
}

func (cl *call) run(ctx context.Context) error {
	cl.noteMode()
	iterations := cl.req.MaxIterations
	if iterations <= 0 {
		iterations = defaultIterations
	}
	offered := make([]string, 0, len(cl.req.Tools))
	for _, t := range cl.req.Tools {
		offered = append(offered, t.Name)
	}
	for turn := 1; turn <= iterations; {
		params, err := cl.params()
		if err != nil {
			return err
		}
		if err := cl.beforeSend(params); err != nil {
			return fmt.Errorf("llm: stopped before request %d: %w", cl.requests.Load()+1, err)
		}
		r, err := cl.send(ctx, params)
		if err != nil {
			if cl.adapt(ctx, err) {
				continue // the same turn, one rung down
			}
			return fmt.Errorf("llm: chat completion: %w", err)
		}
		cl.res.Usage = cl.res.Usage.Add(r.usage)
		if cl.req.ToolModel != "" { // two models may answer: price each one's share
			if cl.res.ModelUsage == nil {
				cl.res.ModelUsage = map[string]agent.Usage{}
			}
			cl.res.ModelUsage[cl.model] = cl.res.ModelUsage[cl.model].Add(r.usage)
		}
		cl.res.FinishReason = r.finish
		if r.model != "" {
			cl.res.Model = r.model
		}
		cl.fingerprint(ctx, r.fingerprint)
		calls := r.calls
		if len(calls) == 0 && cl.sentTools && cl.p.Family.readsContentCalls() {
			if found := contentToolCalls(r.content, offered); len(found) > 0 {
				if cl.quoted(found) {
					cl.note("a tool call written in the reply's text repeats text the model was given (stored data): not run, kept as text")
				} else {
					cl.note("tool calls read from the reply's text (the server did not parse them)")
					for i, f := range found {
						calls = append(calls, toolCall{id: fmt.Sprintf("call_content_%d_%d", turn, i+1), name: f.Name, args: f.Args})
					}
					r.content = ""
				}
			}
		}
		if len(calls) == 0 { // tool calls decide a tool turn, whatever finish_reason says
			if cl.wording != "" { // the tool phase is over: the wording model answers
				if err := cl.handOver(ctx); err != nil {
					return err
				}
				continue // not a tool turn; it happens once
			}
			if r.content == "" && r.refusal != "" {
				return fmt.Errorf("llm: the model refused: %s", r.refusal)
			}
			out := stripThink(r.content)
			if cl.req.Output != nil {
				doc, ok := extractDocument(out)
				if !ok && cl.needsFinal() {
					cl.final = true
					cl.turns = append(cl.turns, openai.AssistantMessage(out),
						openai.UserMessage("Now write the final answer: the JSON document only."))
					cl.note("the answer came without the document; asked again with the output format and without tools")
					turn++
					continue
				}
				out = doc
			}
			if out == "" && r.finish == "" {
				return errors.New("llm: the reply was empty and never finished (the server may have run out of context)")
			}
			cl.res.Output = out
			return nil
		}
		if cl.req.CallTool == nil {
			return errors.New("llm: the model called a tool but none were offered")
		}
		cl.turns = append(cl.turns, assistantToolTurn(r.content, calls))
		for _, tc := range calls {
			done := runTool(ctx, cl.req.CallTool, tc.name, tc.args)
			cl.res.ToolCalls = append(cl.res.ToolCalls, done)
			content := string(done.Result)
			if done.Error != "" {
				b, _ := json.Marshal(map[string]string{"error": done.Error})
				content = string(b)
			}
			cl.turns = append(cl.turns, openai.ToolMessage(content, tc.id))
			cl.results = append(cl.results, content)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		turn++
	}
	return fmt.Errorf("llm: the model was still calling tools after %d turns", iterations)
}

// handOver ends the tool model's part: its closing reply is dropped and
// the wording model answers from the tool results, without tools (as
// after a split tool phase).
func (cl *call) handOver(ctx context.Context) error {
	p, err := cl.c.Profile(ctx, cl.wording)
	if err != nil {
		return err
	}
	cl.model, cl.p, cl.wording, cl.final = cl.wording, p, "", true
	cl.res.Model = cl.model
	cl.note("tool turns by " + cl.req.ToolModel + ", the answer by " + cl.model)
	return nil
}

// beforeSend asks the request's BeforeSend (the run's budget) whether
// params may be sent, with the body's bytes/4 as the prompt estimate and
// the completion cap as the completion estimate.
func (cl *call) beforeSend(params openai.ChatCompletionNewParams) error {
	if cl.req.BeforeSend == nil {
		return nil
	}
	body, err := json.Marshal(params)
	if err != nil {
		return fmt.Errorf("llm: measure request: %w", err)
	}
	next := agent.Usage{InputTokens: agent.EstimateTokens(len(body)), OutputTokens: int64(max(cl.req.MaxTokens, 0))}
	return cl.req.BeforeSend(next, cl.res.Usage)
}

// quoted reports whether any call's markup is in what the model was given
// (the system prompt, which carries memory and context sections, the
// messages and the tool results): a model that repeats a stored meal name
// or note holding markup is quoting data, not calling a tool. Escapes are
// undone and whitespace ignored on both sides, so a name that reached the
// model JSON-encoded (\u003cfunction=…) still matches. It only runs when a
// reply was found to be calls, so its pass over the prompt costs nothing
// on ordinary turns.
func (cl *call) quoted(found []contentCall) bool {
	texts := make([]string, 0, 1+len(cl.req.Messages)+len(cl.results))
	texts = append(texts, cl.req.System)
	for _, m := range cl.req.Messages {
		texts = append(texts, m.Content)
	}
	texts = append(texts, cl.results...)
	given := canonical(strings.Join(texts, "\n"))
	for _, f := range found {
		if m := canonical(f.Markup); m != "" && strings.Contains(given, m) {
			return true
		}
	}
	return false
}

// needsFinal: after a split tool phase the answer was not the document, so
// one more request asks for it with the output format and no tools.
func (cl *call) needsFinal() bool {
	return !cl.final && cl.sentTools && !cl.sentFormat && cl.p.Output != OutputText
}

func assistantToolTurn(content string, calls []toolCall) openai.ChatCompletionMessageParamUnion {
	msg := openai.ChatCompletionAssistantMessageParam{}
	if content != "" {
		msg.Content.OfString = openai.String(content)
	}
	for _, tc := range calls {
		msg.ToolCalls = append(msg.ToolCalls, openai.ChatCompletionMessageToolCallUnionParam{
			OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{ID: tc.id,
				Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: tc.name, Arguments: tc.args}}})
	}
	return openai.ChatCompletionMessageParamUnion{OfAssistant: &msg}
}

// note records what this call adapted to (once each).
func (cl *call) note(s string) {
	if !slices.Contains(cl.res.Notes, s) {
		cl.res.Notes = append(cl.res.Notes, s)
	}
}

// noteMode says when the endpoint runs below its family's first rung, and
// why, so a run that used json_object or no tools explains itself.
func (cl *call) noteMode() {
	top := NewProfile(cl.p.BaseURL, cl.p.Model, cl.p.Family)
	if cl.req.Output != nil && (cl.p.Output != top.Output || cl.p.Dialect != top.Dialect) {
		cl.note("structured output " + cl.p.outputName() + " for this endpoint" + cl.why("structured output"))
	}
	if len(cl.req.Tools) > 0 && cl.p.Tools == ToolsNone {
		cl.note("tool-less mode for this endpoint: the facts are in the prompt" + cl.why("tools off"))
	}
}

// why is the latest lesson about topic, as " (learned …: …)".
func (cl *call) why(topic string) string {
	for i := len(cl.p.Learned) - 1; i >= 0; i-- {
		l := cl.p.Learned[i]
		if strings.HasPrefix(l.What, topic) {
			return fmt.Sprintf(" (learned %s: %s)", l.At.Format("2006-01-02"), l.Because)
		}
	}
	return ""
}

// adapt steps the profile down for a refusal it knows and reports whether
// the turn should be retried.
func (cl *call) adapt(ctx context.Context, err error) bool {
	se, ok := ServerErrorOf(err)
	if !ok || cl.adapted >= maxAdaptations {
		return false
	}
	because := se.Error()
	what := ""
	formatFirst := strings.HasPrefix(se.Param, "response_format")
	switch {
	case !cl.trimmed && cl.overflow(se):
		cl.trimmed = true
		what = fmt.Sprintf("context window %d tokens", cl.p.ContextTokens)
	case se.refusedField() == FieldMaxTokens && cl.p.TokensField == FieldMaxTokens:
		cl.p.TokensField, what = FieldMaxCompletionTokens, "token cap sent as max_completion_tokens"
	case se.refusedField() == FieldMaxCompletionTokens && cl.p.TokensField == FieldMaxCompletionTokens:
		cl.p.TokensField, what = FieldMaxTokens, "token cap sent as max_tokens"
	case cl.sentTools && !formatFirst && se.refusesToolSchema():
		what = cl.p.stepToolSchema()
	case cl.sentTools && !formatFirst && se.refusesTools():
		cl.p.Tools, what = ToolsNone, "tools off (tool-less mode)"
	case cl.sentFormat && se.refusesFormat():
		step, ok := cl.p.stepOutput(se.refusesJSONSchema())
		if !ok {
			return false
		}
		what = step
	default:
		return false
	}
	cl.adapted++
	cl.p.learn(cl.c.cfg.Now(), what, because)
	if err := cl.c.store.Save(ctx, cl.p); err != nil {
		cl.note("could not remember the endpoint's settings: " + err.Error())
	}
	cl.note(what + ", because the server answered " + because)
	return true
}

// overflow learns the context window from an overflow error: the limit the
// server named, else three quarters of what was sent.
func (cl *call) overflow(se *ServerError) bool {
	limit, ok := se.contextOverflow()
	if !ok {
		return false
	}
	if limit <= 0 {
		limit = cl.lastEstimate * 3 / 4
	}
	if limit <= 0 || cl.p.ContextTokens > 0 && limit >= cl.p.ContextTokens {
		return false // nothing new to trim to
	}
	cl.p.ContextTokens = limit
	return true
}

// fingerprint switches a generic profile to Ollama's when a reply says
// "fp_ollama" (Ollama's system_fingerprint), e.g. behind a proxy.
func (cl *call) fingerprint(ctx context.Context, fp string) {
	if fp != "fp_ollama" || cl.p.Family != FamilyGeneric || len(cl.p.Learned) > 0 {
		return
	}
	next := NewProfile(cl.p.BaseURL, cl.p.Model, FamilyOllama)
	next.Detected, next.ContextTokens = "reply (system_fingerprint fp_ollama)", cl.p.ContextTokens
	next.UpdatedAt = cl.c.cfg.Now().UTC()
	cl.p = next
	_ = cl.c.store.Save(ctx, cl.p)
}

// runTool executes one call; failures become the tool's result for the model.
func runTool(ctx context.Context, call agent.ToolCaller, name, args string) agent.ToolCall {
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
