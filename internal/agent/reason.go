package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// reasoned is a validated output and where it came from.
type reasoned struct {
	output json.RawMessage
	source string
}

// reason produces a validated output: reuse of identical input, else the
// model with correction retries, else (or without a model, or with the
// budget spent) the heuristic planner. It sets r.FallbackReason when the
// heuristic stands in for the model.
func (o *Orchestrator) reason(ctx context.Context, reg *registered, ca *compiledAssignment, r *Run,
	scope Scope, gathered any, mem *Memory) (reasoned, error) {
	check := func(ctx context.Context, raw, source string) (json.RawMessage, bool) {
		end := o.phase(ctx, r, PhaseValidate, false)
		defer end()
		doc := ExtractJSON(raw)
		errs := ca.schema.Validate([]byte(doc))
		if len(errs) == 0 {
			errs = ca.a.ValidateDomain(ctx, gathered, json.RawMessage(doc))
		}
		if len(errs) > 0 {
			r.ValidationErrors = append(r.ValidationErrors, AttemptErrors{Attempt: r.Attempts, Source: source, Errors: errs})
			return nil, false
		}
		var buf bytes.Buffer
		if err := json.Compact(&buf, []byte(doc)); err != nil {
			return json.RawMessage(doc), true
		}
		return buf.Bytes(), true
	}
	planner := func(ctx context.Context) (string, error) {
		v, err := ca.a.Plan(ctx, gathered, mem)
		if err != nil {
			return "", err
		}
		b, err := json.Marshal(v)
		return string(b), err
	}
	heuristic := func(fallback string) (reasoned, error) {
		r.FallbackReason = fallback
		end := o.phase(ctx, r, PhaseReason, false)
		r.Attempts++
		res, err := o.rt.Heuristic.Execute(ctx, Request{System: r.Prompt.System, Output: &ca.output, Planner: planner})
		end()
		if r.Model == "" {
			r.Model = res.Model
		}
		if err != nil {
			return reasoned{}, fmt.Errorf("heuristic plan: %w%s", err, fallbackNote(fallback))
		}
		out, ok := check(ctx, res.Output, SourceHeuristic)
		if !ok {
			last := r.ValidationErrors[len(r.ValidationErrors)-1].Errors
			return reasoned{}, fmt.Errorf("heuristic output invalid: %s%s", SummarizeErrors(last), fallbackNote(fallback))
		}
		return reasoned{output: out, source: SourceHeuristic}, nil
	}

	if o.rt.Model == nil {
		return heuristic("")
	}
	if !reg.def.NoReuse {
		if out, ok, err := o.reuse(ctx, r, check); err != nil {
			return reasoned{}, err
		} else if ok {
			return reasoned{output: out, source: SourceReuse}, nil
		}
	}
	if st, err := o.BudgetStatus(ctx); err != nil {
		return reasoned{}, err
	} else if st.Exhausted {
		return heuristic(FallbackBudget)
	}

	settings := reg.def.Model
	settings = settings.Merge(r.Prompt.Model)
	req := Request{
		System:        r.Prompt.System,
		Messages:      []Message{{Role: RoleUser, Content: r.Prompt.User}},
		Output:        &ca.output,
		Model:         settings.Model,
		Temperature:   settings.Temperature,
		MaxTokens:     settings.MaxTokens,
		MaxIterations: settings.maxIterations(),
		Planner:       planner,
	}
	if specs := reg.tools.Specs(); len(specs) > 0 {
		req.Tools, req.CallTool = specs, reg.tools.Caller(scope)
	}
	tries := 1 + settings.maxRetries()
	for attempt := 1; attempt <= tries; attempt++ {
		end := o.phase(ctx, r, PhaseReason, false)
		res, err := o.callModel(ctx, r, req)
		end()
		if err != nil {
			if ctx.Err() != nil {
				return reasoned{}, fmt.Errorf("reason: %w", err)
			}
			o.log.Warn("agent: model failed, using heuristic", "run", r.ID, "err", err)
			return heuristic("model_error: " + err.Error())
		}
		if out, ok := check(ctx, res.Output, SourceModel); ok {
			return reasoned{output: out, source: SourceModel}, nil
		}
		last := r.ValidationErrors[len(r.ValidationErrors)-1].Errors
		req.Messages = []Message{
			{Role: RoleUser, Content: r.Prompt.User},
			{Role: RoleUser, Content: correction(res.Output, last)},
		}
	}
	last := r.ValidationErrors[len(r.ValidationErrors)-1].Errors
	return heuristic(fmt.Sprintf("invalid_output: %d invalid replies, last: %s", tries, SummarizeErrors(last)))
}

// callModel runs one model attempt under the global cap and books its usage.
func (o *Orchestrator) callModel(ctx context.Context, r *Run, req Request) (Result, error) {
	r.Attempts++
	if err := acquire(ctx, o.modelSlot); err != nil {
		return Result{}, err
	}
	res, err := o.rt.Model.Execute(ctx, req)
	<-o.modelSlot
	r.TokensIn += res.Usage.InputTokens
	r.TokensOut += res.Usage.OutputTokens
	model := res.Model
	if model == "" {
		model = req.Model
	}
	if _, priced := o.opts.Prices.Lookup(model); !priced && req.Model != "" {
		model = req.Model
	}
	r.CostUSD += o.opts.Prices.Cost(model, res.Usage)
	if res.Model != "" {
		r.Model = res.Model
	} else if req.Model != "" {
		r.Model = req.Model
	}
	r.ToolCalls = append(r.ToolCalls, res.ToolCalls...)
	return res, err
}

// reuse returns the last successful run's output when the input hash matches
// and the output still validates.
func (o *Orchestrator) reuse(ctx context.Context, r *Run, check func(context.Context, string, string) (json.RawMessage, bool)) (json.RawMessage, bool, error) {
	last, ok, err := o.runs.lastSucceeded(ctx, r.Agent, r.Assignment, r.Member, r.ID)
	if err != nil || !ok || last.InputHash != r.InputHash || len(last.Output) == 0 {
		return nil, false, err
	}
	out, valid := check(ctx, string(last.Output), SourceReuse)
	if !valid {
		return nil, false, nil
	}
	src := last.ID
	if last.ReusedFrom != nil {
		src = *last.ReusedFrom
	}
	r.ReusedFrom = &src
	r.Model = last.Model
	return out, true, nil
}

// correction is the user message that sends invalid output back to the model.
func correction(previous string, errs []ValidationError) string {
	return "Your previous output failed validation.\n\n## Errors\n" + FormatValidationErrors(errs) +
		"\n## Your previous output\n" + previous +
		"\n\nReturn the corrected JSON document only, matching the schema."
}

// SummarizeErrors shortens validation errors (at most three, then a count)
// for a run's error or fallback reason.
func SummarizeErrors(errs []ValidationError) string {
	parts := make([]string, 0, 3)
	for i, e := range errs {
		if i == 3 {
			parts = append(parts, fmt.Sprintf("and %d more", len(errs)-3))
			break
		}
		parts = append(parts, e.String())
	}
	return strings.Join(parts, "; ")
}

func fallbackNote(reason string) string {
	if reason == "" {
		return ""
	}
	return " (after falling back: " + reason + ")"
}
