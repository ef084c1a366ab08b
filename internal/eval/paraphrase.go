package eval

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"hearth/internal/dashboard"
)

// Paraphrase is a scenario's plan in other words: the built-in coach's
// plan (its picks, the subjects of its calls to action, its prompts' ids
// and options, which answers are matched against) with the coach's words
// written another way, stating the same facts. A scripted model replies
// with it (RunParaphrases): it must pass the scenario, so the checks
// grade facts and not one coach's sentences; and with Wrong applied (one
// fact changed) it must fail the eval.
type Paraphrase struct {
	Briefing string   `json:"briefing"`
	Feedback []string `json:"feedback"`
	// CTA and Prompts replace the calls to action's messages and the
	// prompts' questions, in order; left out, the built-in coach's stay.
	CTA     []string `json:"cta,omitempty"`
	Prompts []string `json:"prompts,omitempty"`
	// Wrong changes one fact: the first From in the words becomes To.
	Wrong Wrong `json:"wrong"`
}

// Wrong is a one-fact change of a paraphrase.
type Wrong struct {
	From string `json:"from"`
	To   string `json:"to"`
}

func (p *Paraphrase) check() error {
	switch {
	case strings.TrimSpace(p.Briefing) == "":
		return errors.New("a briefing is required")
	case p.Wrong.From == "" || p.Wrong.From == p.Wrong.To:
		return errors.New("wrong needs from and a different to")
	case !strings.Contains(strings.Join(p.words(), "\n"), p.Wrong.From):
		return fmt.Errorf("wrong.from %q is not in the paraphrase's words", p.Wrong.From)
	}
	return nil
}

func (p *Paraphrase) words() []string {
	out := append([]string{p.Briefing}, p.Feedback...)
	out = append(out, p.CTA...)
	return append(out, p.Prompts...)
}

// Plan is the paraphrase of the built-in coach's plan d; wrong applies
// the one-fact change.
func (p *Paraphrase) Plan(d dashboard.Document, wrong bool) (dashboard.Document, error) {
	raw, err := json.Marshal(d) // a deep copy
	if err != nil {
		return d, err
	}
	var out dashboard.Document
	if err := json.Unmarshal(raw, &out); err != nil {
		return d, err
	}
	out.Coach.Briefing = p.Briefing
	out.Coach.Feedback = append([]string{}, p.Feedback...)
	if p.CTA != nil {
		if len(p.CTA) != len(out.Coach.CTA) {
			return out, fmt.Errorf("the paraphrase has %d call-to-action messages, the plan %d", len(p.CTA), len(out.Coach.CTA))
		}
		for i := range out.Coach.CTA {
			out.Coach.CTA[i].Message = p.CTA[i]
		}
	}
	if p.Prompts != nil {
		if len(p.Prompts) != len(out.Coach.Prompts) {
			return out, fmt.Errorf("the paraphrase has %d questions, the plan %d prompts", len(p.Prompts), len(out.Coach.Prompts))
		}
		for i := range out.Coach.Prompts {
			out.Coach.Prompts[i].Question = p.Prompts[i]
		}
	}
	if !wrong {
		return out, nil
	}
	swap := func(s *string) bool {
		if strings.Contains(*s, p.Wrong.From) {
			*s = strings.Replace(*s, p.Wrong.From, p.Wrong.To, 1)
			return true
		}
		return false
	}
	texts := []*string{&out.Coach.Briefing}
	for i := range out.Coach.Feedback {
		texts = append(texts, &out.Coach.Feedback[i])
	}
	for i := range out.Coach.CTA {
		texts = append(texts, &out.Coach.CTA[i].Message)
	}
	for i := range out.Coach.Prompts {
		texts = append(texts, &out.Coach.Prompts[i].Question)
	}
	for _, s := range texts {
		if swap(s) {
			return out, nil
		}
	}
	return out, fmt.Errorf("wrong.from %q is not in the plan's words", p.Wrong.From)
}

// ParaphraseCheck is how the scenarios took their paraphrases: each must
// pass, and each with its wrong fact must fail the eval.
type ParaphraseCheck struct {
	Results []ParaphraseResult `json:"results"`
	Total   int                `json:"total"`
	Passed  int                `json:"passed"`
	Caught  int                `json:"wrong_caught"`
}

// ParaphraseResult is one scenario's paraphrase and its wrong version.
type ParaphraseResult struct {
	Scenario string `json:"scenario"`
	Passed   bool   `json:"passed"`
	// Problem says why the paraphrase did not pass.
	Problem string `json:"problem,omitempty"`
	Wrong   string `json:"wrong"`
	Caught  bool   `json:"caught"`
	// CaughtBy is what failed the wrong plan: a scenario check, or a
	// generic grader's rate on a reply the coach's validation rejected.
	CaughtBy string `json:"caught_by,omitempty"`
}

// ScriptedModelName is the model the paraphrase runs talk to.
const ScriptedModelName = "scripted-paraphrase"

// RunParaphrases runs every scenario that has a paraphrase twice against
// a scripted model (a local server speaking the Chat Completions wire
// format, through the real client): once with the paraphrase of the
// built-in coach's plan in base (the heuristic report of the same
// scenarios), once with its wrong fact. modelFactory builds instances
// whose coach uses the model at baseURL, named ScriptedModelName. The
// earlier runs of a scenario's timeline get no plan from the model and
// fall back to the built-in coach, as they did in base.
func RunParaphrases(ctx context.Context, scs []*Scenario, base *Report, modelFactory func(baseURL string) Factory,
	opts Options) (*ParaphraseCheck, error) {
	docs := map[string]json.RawMessage{}
	for _, r := range base.Scenarios {
		docs[r.ID] = r.Document
	}
	out := &ParaphraseCheck{}
	for _, sc := range scs {
		if sc.Paraphrase == nil {
			continue
		}
		res := ParaphraseResult{Scenario: sc.ID, Wrong: sc.Paraphrase.Wrong.From + " → " + sc.Paraphrase.Wrong.To}
		var heur dashboard.Document
		if err := json.Unmarshal(docs[sc.ID], &heur); err != nil || len(docs[sc.ID]) == 0 {
			res.Problem = "the built-in coach wrote no plan to paraphrase"
			out.add(res)
			continue
		}
		for _, wrong := range []bool{false, true} {
			plan, err := sc.Paraphrase.Plan(heur, wrong)
			if err != nil {
				res.Problem = err.Error()
				break
			}
			r, err := runScripted(ctx, sc, plan, modelFactory, opts)
			if err != nil {
				return out, fmt.Errorf("paraphrase of %s: %w", sc.ID, err)
			}
			if wrong {
				res.Caught, res.CaughtBy = caught(r)
			} else {
				res.Problem = paraphraseProblem(r)
				res.Passed = res.Problem == ""
			}
		}
		out.add(res)
	}
	return out, nil
}

func (c *ParaphraseCheck) add(r ParaphraseResult) {
	c.Results = append(c.Results, r)
	c.Total++
	if r.Passed {
		c.Passed++
	}
	if r.Caught {
		c.Caught++
	}
}

// runScripted runs sc with the scripted model replying plan to the graded
// run (and no plan to the timeline's earlier runs).
func runScripted(ctx context.Context, sc *Scenario, plan dashboard.Document, modelFactory func(string) Factory,
	opts Options) (ScenarioResult, error) {
	reply, err := json.Marshal(plan)
	if err != nil {
		return ScenarioResult{}, err
	}
	var mu sync.Mutex
	var clock func() time.Time
	graded := func() bool {
		mu.Lock()
		defer mu.Unlock()
		return clock != nil && !clock().Before(sc.Now())
	}
	srv, err := startScripted(string(reply), graded)
	if err != nil {
		return ScenarioResult{}, err
	}
	defer srv.close()
	o := opts
	o.Parallel, o.Judge, o.Progress = 1, nil, nil
	f := modelFactory(srv.url)
	o.Factory = func(ctx context.Context, spec InstanceSpec) (*Instance, error) {
		mu.Lock()
		clock = spec.Now
		mu.Unlock()
		return f(ctx, spec)
	}
	rep, err := Run(ctx, []*Scenario{sc}, o)
	if err != nil {
		return ScenarioResult{}, err
	}
	if len(rep.Scenarios) != 1 {
		return ScenarioResult{}, errors.New("the scenario did not run")
	}
	return rep.Scenarios[0], nil
}

// paraphraseProblem says why a paraphrase run did not pass ("" when it
// did): the model's plan must be accepted as it is and meet every check.
func paraphraseProblem(r ScenarioResult) string {
	switch {
	case r.Error != "":
		return r.Error
	case r.Run.Model != ScriptedModelName || r.Run.Status != "succeeded" || r.Run.Retries > 0:
		return fmt.Sprintf("the coach did not take the plan as written: run %s (%s), %d validation retries", r.Run.Status,
			r.Run.FallbackReason, r.Run.Retries)
	}
	var failing []string
	for _, c := range r.Checks {
		if c.Status == StatusFail {
			failing = append(failing, c.Name+": "+clip(c.Detail, 160))
		}
	}
	return strings.Join(failing, "; ")
}

// caught says whether a wrong plan failed the eval and how: a check of
// the scenario on the plan the member sees, or (when the coach's
// validation rejected it) a reply whose figures, content or calls to
// action the generic graders count against the suite's rates.
func caught(r ScenarioResult) (bool, string) {
	if r.Error != "" {
		return false, ""
	}
	for _, c := range r.Checks {
		if c.Status == StatusFail {
			return true, "check " + c.Name
		}
	}
	for _, o := range r.Outputs {
		if o.Source != "model" {
			continue
		}
		for _, g := range []string{GraderNumbers, GraderContent, GraderStaleCTA} {
			if res := o.Result(g); !res.Passed {
				return true, "rejected reply, " + g + ": " + clip(strings.Join(res.Problems, "; "), 120)
			}
		}
	}
	return false, ""
}

// Print writes the paraphrase results.
func (c *ParaphraseCheck) Print(w io.Writer) {
	fmt.Fprintf(w, "paraphrases           %d/%d pass in other words; %d/%d with one wrong fact fail\n", c.Passed, c.Total,
		c.Caught, c.Total)
	for _, r := range c.Results {
		if !r.Passed {
			fmt.Fprintf(w, "  %-32s paraphrase FAILS: %s\n", r.Scenario, clip(r.Problem, 240))
		}
		if !r.Caught {
			fmt.Fprintf(w, "  %-32s wrong fact (%s) PASSES\n", r.Scenario, r.Wrong)
		}
	}
}

// scriptedModel is a local Chat Completions server: the graded run gets
// reply, any other run a text that is no plan.
type scriptedModel struct {
	url    string
	srv    *http.Server
	reply  string
	graded func() bool
}

func startScripted(reply string, graded func() bool) (*scriptedModel, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	m := &scriptedModel{url: "http://" + ln.Addr().String() + "/v1", reply: reply, graded: graded}
	m.srv = &http.Server{Handler: m, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = m.srv.Serve(ln) }()
	return m, nil
}

func (m *scriptedModel) close() { _ = m.srv.Close() }

func (m *scriptedModel) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	switch {
	case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/models"):
		_, _ = io.WriteString(w, `{"object":"list","data":[{"id":"`+ScriptedModelName+`","object":"model","created":0,"owned_by":"hearth"}]}`)
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/chat/completions"):
		var req struct {
			Model  string `json:"model"`
			Stream bool   `json:"stream"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Stream {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = io.WriteString(w, `{"error":{"message":"the scripted model answers non-streamed JSON requests","type":"invalid_request_error","code":null}}`)
			return
		}
		content := "No plan for this day."
		if m.graded() {
			content = m.reply
		}
		b, _ := json.Marshal(map[string]any{
			"id": "chatcmpl-scripted", "object": "chat.completion", "created": time.Now().Unix(), "model": req.Model,
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
				"message": map[string]any{"role": "assistant", "content": content}}},
			"usage": map[string]any{"prompt_tokens": 1000, "completion_tokens": len(content) / 4,
				"total_tokens": 1000 + len(content)/4},
		})
		_, _ = w.Write(b)
	default:
		w.WriteHeader(http.StatusNotFound)
		_, _ = io.WriteString(w, `{"error":{"message":"not found","type":"invalid_request_error","code":null}}`)
	}
}
