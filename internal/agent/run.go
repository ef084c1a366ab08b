package agent

import (
	"encoding/json"
	"time"
)

// Status is where a run stands.
type Status string

// Run statuses. Terminal: succeeded, fell_back, failed, interrupted.
const (
	StatusQueued      Status = "queued"
	StatusRunning     Status = "running"
	StatusSucceeded   Status = "succeeded"
	StatusFellBack    Status = "fell_back"
	StatusFailed      Status = "failed"
	StatusInterrupted Status = "interrupted"
)

// Terminal reports whether the run has finished.
func (s Status) Terminal() bool {
	return s == StatusSucceeded || s == StatusFellBack || s == StatusFailed || s == StatusInterrupted
}

// Valid reports whether s is a known status.
func (s Status) Valid() bool { return s == StatusQueued || s == StatusRunning || s.Terminal() }

// Trigger is what started a run.
type Trigger string

// Run triggers.
const (
	TriggerSchedule Trigger = "schedule"
	TriggerManual   Trigger = "manual"
	TriggerAPI      Trigger = "api"
	TriggerAgent    Trigger = "agent"
	// TriggerDemo: the demo household's first plans, prepared at first
	// start with the built-in (heuristic) planner whatever model is set.
	TriggerDemo Trigger = "demo"
)

// Valid reports whether t is a known trigger.
func (t Trigger) Valid() bool {
	return t == TriggerSchedule || t == TriggerManual || t == TriggerAPI || t == TriggerAgent || t == TriggerDemo
}

// Run phases, in template order; chat runs use load_memory, prune, history,
// reason, save.
const (
	PhaseLoadMemory = "load_memory"
	PhasePrune      = "prune"
	PhaseGather     = "gather"
	PhasePrompt     = "prompt"
	PhaseReason     = "reason"
	PhaseValidate   = "validate"
	PhaseAct        = "act"
	PhaseSaveMemory = "save_memory"
	PhaseHistory    = "history"
	PhaseSave       = "save"
)

// Why a run cannot use the model (Exec.NoModelReason). FallbackBudget is also
// the fallback reason recorded when the day's budget was spent.
const (
	FallbackBudget  = "budget"
	FallbackNoModel = "no_model"
	// FallbackNeedsModel: an agent made in admin, which has no built-in
	// planner, was asked to run with no model configured.
	FallbackNeedsModel = "needs_model"
)

// PhaseTiming is the time spent in one phase (summed over retries).
type PhaseTiming struct {
	Phase string  `json:"phase"`
	MS    float64 `json:"ms"`
}

// AttemptErrors are the validation errors of one output, and the output
// that was rejected (clipped to MaxRejectedOutput bytes).
type AttemptErrors struct {
	Attempt int               `json:"attempt"`
	Source  string            `json:"source"` // model, heuristic or reuse
	Errors  []ValidationError `json:"errors"`
	Output  string            `json:"output,omitempty"`
}

// MaxRejectedOutput caps how much of a rejected output a run keeps.
const MaxRejectedOutput = 32 << 10

// Run is one execution of an assignment or a chat turn. Assignment is ""
// for chat runs, which carry ThreadID. Attempts counts reasoning attempts
// (1 + correction retries). Prompt is the text sent to the model.
type Run struct {
	ID         int64         `json:"id"`
	Agent      string        `json:"agent"`
	Assignment string        `json:"assignment"`
	Member     string        `json:"member"`
	ThreadID   *int64        `json:"thread_id,omitempty"`
	Trigger    Trigger       `json:"trigger"`
	Status     Status        `json:"status"`
	Phase      string        `json:"phase,omitempty"`
	CreatedAt  time.Time     `json:"created_at"`
	StartedAt  *time.Time    `json:"started_at"`
	FinishedAt *time.Time    `json:"finished_at"`
	Timings    []PhaseTiming `json:"timings"`
	Attempts   int           `json:"attempts"`
	Model      string        `json:"model"`
	TokensIn   int64         `json:"tokens_in"`
	TokensOut  int64         `json:"tokens_out"`
	// PromptTokens are the prompts sent, one per request, counted offline
	// by part (next to TokensIn, the server's own count).
	PromptTokens     []PromptTokens  `json:"prompt_tokens"`
	CostUSD          float64         `json:"cost_usd"`
	Error            string          `json:"error"`
	FallbackReason   string          `json:"fallback_reason"`
	Output           json.RawMessage `json:"output,omitempty"`
	Prompt           *Prompt         `json:"prompt,omitempty"`
	ToolCalls        []ToolCall      `json:"tool_calls"`
	ValidationErrors []AttemptErrors `json:"validation_errors"`
	// Effects are the writes the model's tools staged and what became of
	// them: applied at commit when the model's output was accepted,
	// discarded otherwise.
	Effects []EffectOutcome `json:"effects"`
	// ModelNotes say what the model calls adapted to: a structured-output
	// mode the server refused and the one used instead, tools off, a prompt
	// trimmed to the context window.
	ModelNotes []string `json:"model_notes"`
	InputHash  string   `json:"input_hash,omitempty"`
	ReusedFrom *int64   `json:"reused_from,omitempty"`
	// WorkflowRunID names the workflow run this run is an attempt of.
	WorkflowRunID *int64 `json:"workflow_run_id,omitempty"`
	// Origin names what started the run beyond its trigger: "task:12" for
	// a scheduled task, "todo:7" for a to-do the heartbeat took ("" for
	// none). Tools see it in Scope.Origin (the scheduling guardrails do).
	Origin string `json:"origin,omitempty"`
	// Steps trace the agents of a declarative definition's pipeline that
	// ran in this run (package definition's []Step as JSON), with what
	// their hooks did; nil for runs no definition shaped.
	Steps json.RawMessage `json:"steps,omitempty"`
}

// RunFilter selects runs for List; empty fields match all. Limit <= 0 means
// 50 (at most 500). BeforeID pages backwards (runs with id < BeforeID).
type RunFilter struct {
	Agent      string
	Assignment string
	Member     string
	Status     Status
	Limit      int
	BeforeID   int64
}

// RunEvent is the progress event published (kind "run") to the admin topic
// and the member's topic.
type RunEvent struct {
	ID         int64  `json:"id"`
	Agent      string `json:"agent"`
	Assignment string `json:"assignment"`
	Member     string `json:"member"`
	Status     Status `json:"status"`
	Phase      string `json:"phase,omitempty"`
	Error      string `json:"error,omitempty"`
}

func (r *Run) event() RunEvent {
	return RunEvent{ID: r.ID, Agent: r.Agent, Assignment: r.Assignment, Member: r.Member,
		Status: r.Status, Phase: r.Phase, Error: r.Error}
}

// addTiming adds d to phase, keeping first-seen order.
func (r *Run) addTiming(phase string, d time.Duration) {
	ms := float64(d.Microseconds()) / 1000
	for i := range r.Timings {
		if r.Timings[i].Phase == phase {
			r.Timings[i].MS += ms
			return
		}
	}
	r.Timings = append(r.Timings, PhaseTiming{Phase: phase, MS: ms})
}

// FallbackNote says in words why a run fell back to the built-in coach ("" for
// a run that did not): the scheduled task's ledger and the run page show it.
func (r Run) FallbackNote() string {
	if r.Status != StatusFellBack {
		return ""
	}
	why := r.FallbackReason
	switch why {
	case FallbackNoModel:
		why = "no model is configured"
	case FallbackBudget:
		why = "the day's model budget is spent"
	case FallbackNeedsModel:
		return "needs a model: no language model is configured"
	case "":
		why = "no reason recorded"
	}
	return "fell back to the built-in coach: " + why
}
