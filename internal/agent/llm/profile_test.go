package llm

import (
	"strings"
	"testing"
)

// The output ladder per family: LM Studio refuses json_object, so it goes
// from the minimal schema straight to text; a server that refuses
// json_schema as such skips the minimal schema.
func TestOutputLadder(t *testing.T) {
	walk := func(p Profile, noSchema bool) string {
		steps := []string{p.outputName()}
		for {
			if _, ok := p.stepOutput(noSchema); !ok {
				return strings.Join(steps, " → ")
			}
			steps = append(steps, p.outputName())
		}
	}
	for _, tc := range []struct {
		f        Family
		noSchema bool
		want     string
	}{
		{FamilyOpenAI, false, "json_schema (openai-strict) → json_schema (minimal) → json_object → text"},
		{FamilyOpenAI, true, "json_schema (openai-strict) → json_object → text"},
		{FamilyLMStudio, false, "json_schema (grammar) → json_schema (minimal) → text"},
		{FamilyVLLM, false, "json_schema (full) → json_schema (minimal) → json_object → text"},
		{"", false, "json_schema (openai-strict) → json_schema (minimal) → json_object → text"},
	} {
		if got := walk(NewProfile("http://x/v1", "m", tc.f), tc.noSchema); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.f, got, tc.want)
		}
	}
	p := NewProfile("", "m", FamilyOpenAI)
	if p.BaseURL != DefaultBaseURL || familyFromURL(DefaultBaseURL) != FamilyOpenAI {
		t.Fatalf("base URL %q", p.BaseURL)
	}
	if w := p.stepToolSchema(); p.StrictTools || p.ToolDialect != DialectMinimal || p.Tools != ToolsNative || !strings.Contains(w, "minimal") {
		t.Fatalf("first tool step: %s %+v", w, p)
	}
	if p.stepToolSchema(); p.Tools != ToolsNone {
		t.Fatalf("second tool step: %+v", p)
	}
}

// Every error shape the families use is read, and classified.
func TestServerErrorShapes(t *testing.T) {
	for _, tc := range []struct {
		status               int
		body, message        string
		overflow, tools, fmt bool
		limit                int
	}{
		{400, `{"error":{"message":"Invalid schema for response_format 'd': In context=(), 'minLength' is not permitted.","type":"invalid_request_error","param":"response_format","code":null}}`,
			"Invalid schema for response_format 'd': In context=(), 'minLength' is not permitted.", false, false, true, 0},
		{400, `{"error":"'response_format.type' must be 'json_schema' or 'text'"}`, "'response_format.type' must be 'json_schema' or 'text'", false, false, true, 0},
		{400, `{"object":"error","message":"\"auto\" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set","type":"BadRequestError","param":null,"code":400}`,
			`"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set`, false, true, false, 0},
		{500, `{"error":{"code":500,"message":"tools param requires --jinja flag","type":"server_error"}}`, "tools param requires --jinja flag", false, true, false, 0},
		{400, `{"error":{"message":"{\"error\":{\"code\":400,\"message\":\"request (9177 tokens) exceeds the available context size (4096 tokens), try increasing it\",\"type\":\"exceed_context_size_error\"}}","type":"invalid_request_error","param":null,"code":null}}`,
			"request (9177 tokens) exceeds the available context size (4096 tokens), try increasing it", true, false, false, 4096},
		{400, `{"error":{"message":"This model's maximum context length is 8192 tokens. However, you requested 8 output tokens and your prompt contains at least 8185 input tokens.","type":"BadRequestError","param":null,"code":400}}`,
			"This model's maximum context length is 8192 tokens. However, you requested 8 output tokens and your prompt contains at least 8185 input tokens.", true, false, false, 8192},
		{422, `{"detail":[{"loc":["body","tools"],"msg":"Extra inputs are not permitted","type":"extra_forbidden"}]}`, "tools: Extra inputs are not permitted", false, true, false, 0},
		{503, "Service Unavailable\n", "Service Unavailable", false, false, false, 0},
		{400, "{\"error\":\"bad \\u001b[31mred\\u0007 input\"}", "bad [31mred input", false, false, false, 0},
	} {
		se := parseErrorBody(tc.status, []byte(tc.body))
		if se.Message != tc.message {
			t.Errorf("%s: message %q", tc.body, se.Message)
		}
		limit, over := se.contextOverflow()
		if over != tc.overflow || limit != tc.limit || se.refusesTools() != tc.tools || se.refusesFormat() != tc.fmt && !tc.overflow {
			t.Errorf("%s: overflow %v/%d tools %v format %v", tc.body, over, limit, se.refusesTools(), se.refusesFormat())
		}
	}
	se := parseErrorBody(400, []byte(`{"error":{"message":"Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead."}}`))
	if se.refusedField() != FieldMaxTokens {
		t.Fatalf("refused field %q", se.refusedField())
	}
	se = parseErrorBody(401, []byte(`{"error":{"message":"Incorrect API key provided: sk-abc123. You can find your API key at https://x.","code":"invalid_api_key"}}`))
	redact(se, "sk-abc123")
	if strings.Contains(se.Error(), "abc123") || !strings.Contains(se.Error(), "401 Unauthorized: Incorrect API key provided: ****") {
		t.Fatalf("redacted: %s", se.Error())
	}
	se = parseErrorBody(401, []byte(`{"error":{"message":"Incorrect API key provided: sk-ab*****23."}}`))
	redact(se, "")
	if strings.Contains(se.Error(), "sk-ab") {
		t.Fatalf("a partly masked key echo stays: %s", se.Error())
	}
}

func TestExtraction(t *testing.T) {
	for in, want := range map[string]string{
		`{"a":1}`:                            `{"a":1}`,
		"<think>plan {x}</think>\n{\"a\":1}": `{"a":1}`,
		"Sure!\n```json\n{\"a\": {\"b\": \"}\"}}\n```\nBye": `{"a": {"b": "}"}}`,
		"The plan is {\"a\":[1,2]} as asked.":               `{"a":[1,2]}`,
	} {
		if got, ok := extractDocument(in); !ok || got != want {
			t.Errorf("%q: %q %v", in, got, ok)
		}
	}
	if _, ok := extractDocument("no JSON here {oops"); ok {
		t.Error("found a document in prose")
	}
	offered := []string{"get_weight", "log_note"}
	for in, want := range map[string]string{
		"<tool_call>\n{\"name\": \"get_weight\", \"arguments\": {\"days\": 7}}\n</tool_call>":      `get_weight {"days":7}`,
		"[TOOL_REQUEST]{\"name\":\"log_note\",\"arguments\":{\"text\":\"hi\"}}[END_TOOL_REQUEST]":  `log_note {"text":"hi"}`,
		"<tool_call><function=get_weight><parameter=days>\n7\n</parameter></function></tool_call>": `get_weight {"days":7}`,
		"```json\n{\"name\":\"get_weight\",\"parameters\":{\"days\":3}}\n```":                      `get_weight {"days":3}`,
		"<tools>[{\"name\":\"get_weight\",\"arguments\":\"{\\\"days\\\":1}\"}]</tools>":            `get_weight {"days":1}`,
		"{\"name\":\"delete_everything\",\"arguments\":{}}":                                        ``,
		"I weighed {\"name\":\"get_weight\",\"arguments\":{}} yesterday.":                          ``,
		// The reply must be the calls: markup inside prose is text.
		"You had <function=log_note><parameter=text>x</parameter></function> for lunch.":                                                                       ``,
		"Sure.\n<tool_call>{\"name\":\"get_weight\",\"arguments\":{\"days\":7}}</tool_call>":                                                                   ``,
		"<tool_call>{\"name\":\"get_weight\",\"arguments\":{}}</tool_call> and then some":                                                                      ``,
		"<function=log_note>note: <parameter=text>x</parameter></function>":                                                                                    ``,
		"<think>the member asked</think>\n<function=get_weight><parameter=days>2</parameter></function>":                                                       `get_weight {"days":2}`,
		"<think>maybe <function=log_note><parameter=text>x</parameter></function>":                                                                             ``,
		"[TOOL_REQUEST]{\"name\":\"get_weight\",\"arguments\":{}}[END_TOOL_REQUEST]\n[TOOL_REQUEST]{\"name\":\"log_note\",\"arguments\":{}}[END_TOOL_REQUEST]": `get_weight {};log_note {}`,
		"{\"name\":\"get_weight\",\"arguments\":{}}\n{\"name\":\"log_note\",\"arguments\":{\"text\":\"a\"}}":                                                   `get_weight {};log_note {"text":"a"}`,
		"{\"name\":\"get_weight\",\"arguments\":{}}\nDone!":                                                                                                    ``,
	} {
		var got []string
		for _, c := range contentToolCalls(in, offered) {
			got = append(got, c.Name+" "+c.Args)
		}
		if strings.Join(got, ";") != want {
			t.Errorf("%q: %v, want %q", in, got, want)
		}
	}
}
