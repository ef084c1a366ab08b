package agent

import (
	"errors"
	"fmt"
	"slices"
)

// RunBudget caps the tokens one run may spend on the model, across every
// request of its tool loop, corrections and sub-agents. Zero fields are
// unlimited. On a small local server prompt size is latency, so a run that
// keeps calling tools is stopped before it costs minutes.
type RunBudget struct {
	PromptTokens     int64 `json:"prompt_tokens"`
	CompletionTokens int64 `json:"completion_tokens"`
}

// Unlimited reports whether b caps nothing.
func (b RunBudget) Unlimited() bool { return b.PromptTokens <= 0 && b.CompletionTokens <= 0 }

// Merge returns b with the positive fields of o applied over it (an
// assignment's setting over its agent's, over the household default).
func (b RunBudget) Merge(o RunBudget) RunBudget {
	if o.PromptTokens > 0 {
		b.PromptTokens = o.PromptTokens
	}
	if o.CompletionTokens > 0 {
		b.CompletionTokens = o.CompletionTokens
	}
	return b
}

// EstimateTokens is a conservative token estimate for a request body of n
// bytes (bytes/4: English text and JSON run 3.5–4.5 bytes per token with
// the common tokenizers, so this errs towards stopping early).
func EstimateTokens(n int) int64 { return int64(n+3) / 4 }

// RunBudgetError is a request the run's budget does not allow: the loop
// stopped before sending it. Spent is what the server reported so far,
// Next the estimate of the request that was not sent.
type RunBudgetError struct {
	Part  string // "prompt" or "completion"
	Spent int64
	Next  int64
	Limit int64
}

func (e *RunBudgetError) Error() string {
	return fmt.Sprintf("run budget: %d %s tokens spent, the next request needs ~%d more, the budget is %d",
		e.Spent, e.Part, e.Next, e.Limit)
}

// check returns the error that stops a request estimated at next when
// spent is already used, or nil when it fits.
func (b RunBudget) check(spent, next Usage) error {
	if b.PromptTokens > 0 && spent.InputTokens+next.InputTokens > b.PromptTokens {
		return &RunBudgetError{Part: "prompt", Spent: spent.InputTokens, Next: next.InputTokens, Limit: b.PromptTokens}
	}
	// Every reply costs at least one token, so a spent budget stops even a
	// request without a completion cap.
	if b.CompletionTokens > 0 && (spent.OutputTokens >= b.CompletionTokens || spent.OutputTokens+next.OutputTokens > b.CompletionTokens) {
		return &RunBudgetError{Part: "completion", Spent: spent.OutputTokens, Next: next.OutputTokens, Limit: b.CompletionTokens}
	}
	return nil
}

// note records a line in the run's model notes (once), such as the figures
// of a budget stop, so the run view says why it stopped.
func (x *Exec) note(s string) {
	x.update(func(r *Run) {
		if !slices.Contains(r.ModelNotes, s) {
			r.ModelNotes = append(r.ModelNotes, s)
		}
	})
}

// ModelFallbackReason is the fallback reason a driver records when the
// model's reasoning failed with err: FallbackBudget for a run budget
// stop, "model_error: …" otherwise.
func ModelFallbackReason(err error) string {
	var over *RunBudgetError
	if errors.As(err, &over) {
		return FallbackBudget
	}
	return "model_error: " + err.Error()
}
