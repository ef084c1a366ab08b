package llm

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"hearth/internal/agent"
)

// CheckReport is what a connection check found ("Test connection" in
// Admin → Model, `hearth model check`).
type CheckReport struct {
	BaseURL string `json:"base_url"`
	Model   string `json:"model"`
	// KeySet says whether an API key is configured (the key is never shown).
	KeySet  bool        `json:"key_set"`
	Started time.Time   `json:"started"`
	Steps   []CheckStep `json:"steps"`
	// Done is set when every step ran.
	Done bool `json:"done"`
	// Profile is the settings Hearth chose for the endpoint.
	Profile Profile `json:"profile"`
}

// CheckStep is one step of a check.
type CheckStep struct {
	Name string `json:"name"`
	// State is "ok", "degraded" (works in a lesser mode), "unknown" (the
	// server does not say; not a failure), "failed" or "running".
	State  string `json:"state"`
	Detail string `json:"detail"`
	MS     int64  `json:"ms"`
}

// Check step states.
const (
	CheckOK       = "ok"
	CheckDegraded = "degraded"
	CheckUnknown  = "unknown"
	CheckFailed   = "failed"
	CheckRunning  = "running"
)

// Usable reports whether the model can write structured output, which
// every assignment needs (tools and streaming are optional).
func (r CheckReport) Usable() bool {
	for _, s := range r.Steps {
		if s.Name == StepStructured {
			return s.State == CheckOK || s.State == CheckDegraded
		}
	}
	return false
}

// Check step names.
const (
	StepModels     = "Model list"
	StepStructured = "Structured output"
	StepTools      = "Tool call"
	StepStream     = "Streamed reply"
)

// checkSchema is the tiny document the structured step asks for; it has a
// keyword OpenAI's strict mode refuses (maxLength), as real ones do.
var checkSchema = map[string]any{"type": "object", "additionalProperties": false, "required": []any{"sum", "word"},
	"properties": map[string]any{
		"sum":  map[string]any{"type": "integer", "minimum": 0, "maximum": 100},
		"word": map[string]any{"type": "string", "minLength": 1, "maxLength": 20},
	}}

// Check learns the endpoint afresh: it lists the models, detects the
// family, then makes one tiny structured request, one tool call and one
// streamed reply, stepping down the ladders as real runs do, and saves
// the settings that worked. progress, if set, gets the report after each
// step.
func (c *OpenAI) Check(ctx context.Context, progress func(CheckReport)) CheckReport {
	rep := CheckReport{BaseURL: c.BaseURL(), Model: c.cfg.Model, KeySet: c.cfg.APIKey != "", Started: time.Now().UTC()}
	emit := func() {
		if progress != nil {
			progress(rep)
		}
	}
	step := func(name string, fn func() (state, detail string)) {
		rep.Steps = append(rep.Steps, CheckStep{Name: name, State: CheckRunning})
		emit()
		start := time.Now()
		state, detail := fn()
		rep.Steps[len(rep.Steps)-1] = CheckStep{Name: name, State: state, Detail: detail, MS: time.Since(start).Milliseconds()}
		emit()
	}

	var list ModelList
	step(StepModels, func() (string, string) {
		list = c.ListModels(ctx)
		switch {
		case list.Status == 404:
			return CheckUnknown, "the server has no /models endpoint (many do not; not a problem)"
		case list.Err != nil:
			return CheckFailed, list.Err.Error()
		case list.Has(c.cfg.Model):
			return CheckOK, fmt.Sprintf("%d listed; %s is among them", len(list.Models), c.cfg.Model)
		}
		ids := make([]string, 0, 5)
		for i, m := range list.Models {
			if i == 5 {
				ids = append(ids, "…")
				break
			}
			ids = append(ids, m.ID)
		}
		return CheckDegraded, fmt.Sprintf("%s is not listed (%s); some servers load models on demand", c.cfg.Model, strings.Join(ids, ", "))
	})
	p, err := c.detect(ctx, c.cfg.Model, &list)
	if err != nil {
		rep.Steps = append(rep.Steps, CheckStep{Name: "Settings", State: CheckFailed, Detail: err.Error()})
		emit()
		return rep
	}
	rep.Profile = p

	step(StepStructured, func() (string, string) {
		res, err := c.Execute(ctx, agent.ModelRequest{
			Messages:  []agent.Message{{Role: agent.RoleUser, Content: "What is 2 + 3? Give the sum and the word \"five\"."}},
			Output:    &agent.OutputSchema{Name: "check", Schema: checkSchema},
			MaxTokens: 200,
		})
		if err != nil {
			return CheckFailed, err.Error()
		}
		sch, _ := agent.CompileSchema("check", checkSchema)
		if errs := sch.Validate([]byte(res.Output)); len(errs) > 0 {
			return CheckFailed, fmt.Sprintf("the reply %q does not match the schema: %s", clip(res.Output), agent.SummarizeErrors(errs))
		}
		state := CheckOK
		if len(res.Notes) > 0 {
			state = CheckDegraded
		}
		return state, joinNotes("reply "+clip(res.Output), res.Notes)
	})

	step(StepTools, func() (string, string) {
		var got []string
		add := agent.ToolSpec{Name: "add", Description: "Add two whole numbers.", Parameters: map[string]any{
			"type": "object", "additionalProperties": false, "required": []any{"a", "b"},
			"properties": map[string]any{"a": map[string]any{"type": "integer"}, "b": map[string]any{"type": "integer"}}}}
		res, err := c.Execute(ctx, agent.ModelRequest{
			Messages:      []agent.Message{{Role: agent.RoleUser, Content: "Use the add tool to add 2 and 3, then tell me the result."}},
			Tools:         []agent.ToolSpec{add},
			MaxIterations: 3, MaxTokens: 200,
			CallTool: func(_ context.Context, name string, args json.RawMessage) (any, error) {
				got = append(got, name+" "+string(args))
				var a struct{ A, B int }
				if err := json.Unmarshal(args, &a); err != nil {
					return nil, err
				}
				return map[string]int{"sum": a.A + a.B}, nil
			},
		})
		prof, _ := c.Profile(ctx, c.cfg.Model)
		switch {
		case prof.Tools == ToolsNone:
			return CheckDegraded, joinNotes("tools do not work here; runs use tool-less mode (the facts go into the prompt)", res.Notes)
		case err != nil:
			return CheckFailed, err.Error()
		case len(got) == 0:
			return CheckDegraded, "the model answered without calling the tool (" + clip(res.Output) + ")"
		}
		state := CheckOK
		if len(res.Notes) > 0 {
			state = CheckDegraded
		}
		return state, joinNotes("called "+strings.Join(got, ", ")+"; answered "+clip(res.Output), res.Notes)
	})

	step(StepStream, func() (string, string) {
		pieces, first := 0, time.Duration(0)
		start := time.Now()
		res, err := c.Execute(ctx, agent.ModelRequest{
			Messages:  []agent.Message{{Role: agent.RoleUser, Content: "Say hello to the household in five words."}},
			MaxTokens: 60,
			OnDelta: func(string) {
				if pieces == 0 {
					first = time.Since(start)
				}
				pieces++
			},
		})
		switch {
		case err != nil:
			return CheckFailed, err.Error()
		case pieces == 0 || strings.TrimSpace(res.Output) == "":
			return CheckFailed, "the stream carried no text"
		}
		return CheckOK, joinNotes(fmt.Sprintf("%d pieces, the first after %d ms: %s", pieces, first.Milliseconds(), clip(res.Output)), res.Notes)
	})

	if prof, err := c.Profile(ctx, c.cfg.Model); err == nil {
		prof.CheckedAt = time.Now().UTC()
		if err := c.store.Save(ctx, prof); err == nil {
			rep.Profile = prof
		}
	}
	rep.Done = true
	emit()
	return rep
}

func clip(s string) string {
	s = oneLine(s, 120)
	if s == "" {
		return `""`
	}
	return s
}

func joinNotes(s string, notes []string) string {
	if len(notes) == 0 {
		return s
	}
	return s + ". " + strings.Join(notes, "; ")
}
