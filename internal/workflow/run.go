package workflow

import (
	"encoding/json"
	"time"
)

// Status is where a run stands.
type Status string

// Run statuses. success and failed end a run (a failed run can Restart);
// suspended waits for Resume; paused waits for Restart.
const (
	StatusRunning   Status = "running"
	StatusSuspended Status = "suspended"
	StatusSuccess   Status = "success"
	StatusFailed    Status = "failed"
	StatusPaused    Status = "paused"
)

// Valid reports whether s is a known run status.
func (s Status) Valid() bool {
	switch s {
	case StatusRunning, StatusSuspended, StatusSuccess, StatusFailed, StatusPaused:
		return true
	}
	return false
}

// StepStatus is where one step stands.
type StepStatus string

// Step statuses.
const (
	StepRunning   StepStatus = "running"
	StepSuccess   StepStatus = "success"
	StepFailed    StepStatus = "failed"
	StepSuspended StepStatus = "suspended"
)

// Trigger is what started a run (the agent engine's trigger names).
type Trigger string

// Run triggers.
const (
	TriggerSchedule Trigger = "schedule"
	TriggerManual   Trigger = "manual"
	TriggerAPI      Trigger = "api"
	TriggerAgent    Trigger = "agent"
	// TriggerDemo: the demo household's first plans (the engine's attempts
	// then use the heuristic coach, as agent.TriggerDemo does).
	TriggerDemo Trigger = "demo"
)

// Valid reports whether t is a known trigger.
func (t Trigger) Valid() bool {
	return t == TriggerSchedule || t == TriggerManual || t == TriggerAPI || t == TriggerAgent || t == TriggerDemo
}

// Run is one execution of a workflow for a member, with its steps in the
// order they first started.
type Run struct {
	ID       int64   `json:"id"`
	Workflow string  `json:"workflow"`
	Version  string  `json:"version"`
	Member   string  `json:"member"`
	Status   Status  `json:"status"`
	Trigger  Trigger `json:"trigger"`
	// Origin names what started the run beyond its trigger ("task:12");
	// every attempt's engine run carries it (agent.Run.Origin).
	Origin     string          `json:"origin,omitempty"`
	Input      json.RawMessage `json:"input"`
	State      json.RawMessage `json:"state"`
	Output     json.RawMessage `json:"output,omitempty"`
	Error      string          `json:"error,omitempty"`
	CreatedAt  time.Time       `json:"created_at"`
	UpdatedAt  time.Time       `json:"updated_at"`
	FinishedAt *time.Time      `json:"finished_at,omitempty"`
	Steps      []StepRecord    `json:"steps"`
	// AgentRuns are the engine runs of the run's attempts (bound
	// workflows), oldest first, an interrupted one included.
	AgentRuns []int64 `json:"agent_runs"`
}

// StepRecord is one step's stored result. Path names it in the run: the
// step id, under its nested workflow's id ("review/ask"), with the
// iteration for a loop ("poll@2").
type StepRecord struct {
	Path       string          `json:"path"`
	Step       string          `json:"step"`
	Status     StepStatus      `json:"status"`
	Attempts   int             `json:"attempts"`
	Input      json.RawMessage `json:"input"`
	Output     json.RawMessage `json:"output,omitempty"`
	StatePatch json.RawMessage `json:"state_patch,omitempty"`
	// Suspended is what the step asked while waiting (its suspend payload).
	Suspended json.RawMessage `json:"suspended,omitempty"`
	// Resumed is the answer it was resumed with.
	Resumed    json.RawMessage `json:"resumed,omitempty"`
	Error      string          `json:"error,omitempty"`
	AgentRuns  []int64         `json:"agent_runs"`
	StartedAt  time.Time       `json:"started_at"`
	FinishedAt *time.Time      `json:"finished_at,omitempty"`

	seq int
}

// Waiting lists the run's steps waiting for a person.
func (r Run) Waiting() []StepRecord {
	var out []StepRecord
	for _, s := range r.Steps {
		if s.Status == StepSuspended && len(s.Resumed) == 0 {
			out = append(out, s)
		}
	}
	return out
}

// Step returns the run's record of path.
func (r Run) Step(path string) (StepRecord, bool) {
	for _, s := range r.Steps {
		if s.Path == path {
			return s, true
		}
	}
	return StepRecord{}, false
}

// Filter selects runs for List; empty fields match all. Limit <= 0 means
// 50 (at most 500).
type Filter struct {
	Workflow string
	Member   string
	Status   Status
	Limit    int
	BeforeID int64
}

// Event types published while a run executes.
const (
	EventRunStarted    = "run_started"
	EventStepStarted   = "step_started"
	EventStepFinished  = "step_finished"
	EventStepSuspended = "step_suspended"
	EventStepFailed    = "step_failed"
	EventRunStatus     = "run_status"
)

// Event is what the runtime publishes (live.KindWorkflow) on the admin
// topic, and the member's topic when the workflow can ask the member: a
// step started, finished, failed or suspended, or the run's status changed.
type Event struct {
	Type     string `json:"type"`
	RunID    int64  `json:"run_id"`
	Workflow string `json:"workflow"`
	Member   string `json:"member"`
	Path     string `json:"path,omitempty"`
	Status   string `json:"status"`
	Error    string `json:"error,omitempty"`
}
