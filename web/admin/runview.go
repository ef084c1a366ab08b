package admin

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"hearth/internal/agent"
	"hearth/internal/agent/definition"
	"hearth/views/adminview"
)

// Phase order of the two run shapes, for the progress view.
var (
	assignmentPhases = []string{agent.PhaseLoadMemory, agent.PhasePrune, agent.PhaseGather, agent.PhasePrompt,
		agent.PhaseReason, agent.PhaseValidate, agent.PhaseAct, agent.PhaseSaveMemory}
	chatPhases = []string{agent.PhaseLoadMemory, agent.PhasePrune, agent.PhaseHistory, agent.PhaseReason, agent.PhaseSave}
)

// fmtWhen formats an instant in the household zone, with the year only when
// it is not this year's.
func (s *core) fmtWhen(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	t = t.In(s.opt.Location)
	if t.Year() != time.Now().In(s.opt.Location).Year() {
		return t.Format("2 Jan 2006 15:04")
	}
	return t.Format("Mon 2 Jan 15:04:05")
}

func (s *core) fmtWhenPtr(t *time.Time) string {
	if t == nil {
		return ""
	}
	return s.fmtWhen(*t)
}

// fmtMS renders a phase timing.
func fmtMS(ms float64) string {
	switch {
	case ms < 1:
		return fmt.Sprintf("%.0f µs", ms*1000)
	case ms < 1000:
		return fmt.Sprintf("%.0f ms", ms)
	case ms < 60000:
		return fmt.Sprintf("%.1f s", ms/1000)
	}
	return (time.Duration(ms) * time.Millisecond).Round(time.Second).String()
}

func fmtCost(usd float64) string {
	if usd == 0 {
		return "$0"
	}
	return fmt.Sprintf("$%.4f", usd)
}

// runView turns a run into its progress view.
func (s *core) runView(r agent.Run) adminview.RunView {
	v := adminview.RunView{ID: r.ID, Agent: r.Agent, Assignment: r.Assignment, Member: r.Member, Trigger: string(r.Trigger),
		Status: string(r.Status), Phase: r.Phase, Created: s.fmtWhen(r.CreatedAt), Started: s.fmtWhenPtr(r.StartedAt),
		Finished: s.fmtWhenPtr(r.FinishedAt), Attempts: r.Attempts, Model: r.Model, TokensIn: r.TokensIn,
		TokensOut: r.TokensOut, Cost: fmtCost(r.CostUSD), Error: r.Error, FallbackReason: r.FallbackReason,
		ModelNotes: r.ModelNotes, Active: !r.Status.Terminal()}
	if r.ReusedFrom != nil {
		v.ReusedFrom = *r.ReusedFrom
	}
	if r.ThreadID != nil {
		v.ThreadID = *r.ThreadID
	}
	if r.StartedAt != nil && r.FinishedAt != nil {
		v.Duration = fmtMS(float64(r.FinishedAt.Sub(*r.StartedAt).Microseconds()) / 1000)
	}
	order := assignmentPhases
	if r.Assignment == "" {
		order = chatPhases
	}
	took := map[string]float64{}
	for _, t := range r.Timings {
		took[t.Phase] = t.MS
		if !slices.Contains(order, t.Phase) {
			order = append(slices.Clone(order), t.Phase)
		}
	}
	for _, name := range order {
		ph := adminview.RunPhase{Name: name, State: "pending"}
		if ms, ok := took[name]; ok {
			ph.Took, ph.State = fmtMS(ms), "done"
		}
		if v.Active && r.Phase == name {
			ph.State = "current"
		}
		v.Phases = append(v.Phases, ph)
	}
	return v
}

func (s *core) runViews(runs []agent.Run) []adminview.RunView {
	out := make([]adminview.RunView, len(runs))
	for i, r := range runs {
		out[i] = s.runView(r)
	}
	return out
}

// indentJSON indents raw JSON for display; text that is not JSON is shown as is.
func indentJSON(raw []byte) string {
	if len(raw) == 0 {
		return ""
	}
	var b bytes.Buffer
	if err := json.Indent(&b, raw, "", "  "); err != nil {
		return string(raw)
	}
	return b.String()
}

// runDetail adds the prompt, output, tool calls, staged writes and
// validation errors.
func (s *core) runDetail(r agent.Run) adminview.RunDetail {
	d := adminview.RunDetail{RunView: s.runView(r), Output: indentJSON(r.Output)}
	if r.Prompt != nil {
		d.System, d.User = r.Prompt.System, r.Prompt.User
		d.PromptSource, d.NotSent, d.PromptNotes = r.Prompt.Source, r.Prompt.NotSent, r.Prompt.Notes
	}
	for _, tc := range r.ToolCalls {
		d.ToolCalls = append(d.ToolCalls, adminview.ToolCallView{Name: tc.Name, Args: indentJSON(tc.Args),
			Result: indentJSON(tc.Result), Error: tc.Error})
	}
	for _, e := range r.Effects {
		d.Effects = append(d.Effects, adminview.EffectView{Tool: e.Tool, Outcome: e.Outcome, Reason: e.Reason})
	}
	var steps []definition.Step
	if len(r.Steps) > 0 && json.Unmarshal(r.Steps, &steps) == nil {
		for _, st := range steps {
			d.Steps = append(d.Steps, adminview.PipelineStepView{Agent: st.AgentID, Key: st.Key, Error: st.Error, Depth: st.Depth,
				Attempts: st.Attempts, Skipped: st.Skipped, Notes: st.Notes})
		}
	}
	d.Prompts, d.PromptTotal = promptViews(r.PromptTokens)
	for _, a := range r.ValidationErrors {
		av := adminview.AttemptView{Attempt: a.Attempt, Source: a.Source}
		for _, e := range a.Errors {
			av.Errors = append(av.Errors, e.String())
		}
		d.Validation = append(d.Validation, av)
	}
	return d
}
