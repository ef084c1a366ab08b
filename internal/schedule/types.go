package schedule

import "time"

// Kind is how a task's schedule is read.
type Kind string

// Task kinds.
const (
	KindOnce      Kind = "once"      // schedule is an RFC 3339 instant
	KindRecurring Kind = "recurring" // schedule is a 5-field cron expression in the household zone
	KindInterval  Kind = "interval"  // schedule is a whole number of minutes ≥ 1
	KindHeartbeat Kind = "heartbeat" // interval that works through the agent's to-do list when it is idle
)

// Status is where a task is in its life.
type Status string

// Task statuses. Active and error tasks are registered with the engine: a
// recurring task whose last run failed keeps firing and shows the reason.
const (
	StatusActive          Status = "active"
	StatusPaused          Status = "paused"
	StatusCompleted       Status = "completed"
	StatusError           Status = "error"
	StatusPendingApproval Status = "pending_approval"
	StatusExpired         Status = "expired"
)

// schedulable reports whether tasks in this status are registered and fire.
func (s Status) schedulable() bool { return s == StatusActive || s == StatusError }

// OverlapPolicy says what a fire does while the previous run still runs.
type OverlapPolicy string

// Overlap policies.
const (
	OverlapSkip  OverlapPolicy = "skip"  // record the fire as skipped_overlap
	OverlapQueue OverlapPolicy = "queue" // run once more after the current run (at most one queued)
)

// CatchupPolicy says what Start does with slots missed while the server was down.
type CatchupPolicy string

// Catch-up policies.
const (
	CatchupOnce CatchupPolicy = "once" // run once (not once per slot) if within the catch-up window
	CatchupSkip CatchupPolicy = "skip" // record the slots as missed and wait for the next one
)

// CreatedBy says who made a task or to-do.
type CreatedBy string

// Creators.
const (
	ByUser  CreatedBy = "user"
	ByAgent CreatedBy = "agent"
)

// Outcome is what happened to one slot of a task.
type Outcome string

// Ledger outcomes. Running and queued are transient; a crash leaves running
// rows that the next Start turns into interrupted.
const (
	OutcomeRunning        Outcome = "running"
	OutcomeQueued         Outcome = "queued"
	OutcomeRan            Outcome = "ran"
	OutcomeFailed         Outcome = "failed"
	OutcomeInterrupted    Outcome = "interrupted"
	OutcomeMissed         Outcome = "missed"
	OutcomeSkippedOverlap Outcome = "skipped_overlap"
	OutcomeSkippedPaused  Outcome = "skipped_paused"
	OutcomeSkippedBudget  Outcome = "skipped_budget"
)

// rerunnable reports whether an admin may run this slot again.
func (o Outcome) rerunnable() bool {
	switch o {
	case OutcomeRunning, OutcomeQueued, OutcomeRan:
		return false
	}
	return true
}

// Trigger values passed to the Runner and stored as a fire's Via.
const (
	TriggerSchedule  = "schedule"
	TriggerCatchup   = "catchup"
	TriggerManual    = "manual"
	TriggerHeartbeat = "heartbeat"
)

// Task is one scheduled task. Times are in the household zone.
type Task struct {
	ID            int64         `json:"id"`
	Description   string        `json:"description"`
	Kind          Kind          `json:"type"`
	Schedule      string        `json:"schedule"`
	AgentID       string        `json:"agent"`
	AssignmentID  string        `json:"assignment,omitempty"` // "" = freeform action or heartbeat
	MemberID      string        `json:"member,omitempty"`     // "" = all members (assignment) or none (heartbeat)
	Prompt        string        `json:"prompt,omitempty"`     // freeform actions only
	Status        Status        `json:"status"`
	StatusReason  string        `json:"status_reason,omitempty"`
	PauseNote     string        `json:"pause_note,omitempty"`
	PausedAt      *time.Time    `json:"paused_at,omitempty"`
	OverlapPolicy OverlapPolicy `json:"overlap_policy"`
	CatchupPolicy CatchupPolicy `json:"catchup_policy"`
	CreatedBy     CreatedBy     `json:"created_by"`
	CreatedByRun  int64         `json:"created_by_run,omitempty"`
	Keep          bool          `json:"keep"`
	ExpiresAt     *time.Time    `json:"expires_at,omitempty"`
	LastRunAt     *time.Time    `json:"last_run_at,omitempty"`
	// NextRunAt is the next slot; for a paused task, the slot it would have fired at.
	NextRunAt *time.Time `json:"next_run_at,omitempty"`
	RunCount  int        `json:"run_count"`
	LastRunID int64      `json:"last_run_id,omitempty"`
	// LastOutcome is the last slot's outcome; LastNote what its run's
	// record adds (its failure, or why it fell back to the built-in coach).
	LastOutcome Outcome `json:"last_outcome,omitempty"`
	LastNote    string  `json:"last_note,omitempty"`
	// Running is true while a run of this task is in progress (its ledger
	// has a running row).
	Running   bool      `json:"running"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// SystemAgent is the agent id of Hearth's own jobs (the nightly backup):
// their AssignmentID names the job. The app's Runner runs them; they are
// shown and edited in the admin like any task, and the agents' tools never
// see or touch them.
const SystemAgent = "system"

// System reports whether the task is one of Hearth's own jobs.
func (t Task) System() bool { return t.AgentID == SystemAgent }

// Freeform reports whether the task runs a prompt rather than an assignment.
func (t Task) Freeform() bool { return t.Kind != KindHeartbeat && t.AssignmentID == "" }

// TaskInput creates a task. AgentID defaults to Options.DefaultAgent. A task
// names an AssignmentID (MemberID "" = all members) or is a freeform action
// for MemberID whose prompt defaults to the description. Heartbeats name only
// the agent.
type TaskInput struct {
	Description   string        `json:"description"`
	Kind          Kind          `json:"type"`
	Schedule      string        `json:"schedule"`
	AgentID       string        `json:"agent"`
	AssignmentID  string        `json:"assignment"`
	MemberID      string        `json:"member"`
	Prompt        string        `json:"prompt"`
	OverlapPolicy OverlapPolicy `json:"overlap_policy"` // "" = skip
	CatchupPolicy CatchupPolicy `json:"catchup_policy"` // "" = once
	// Status may be "" (active; pending_approval for agent recurring/interval) or paused.
	Status Status `json:"status"`
}

// TaskPatch is a partial update; nil fields are left alone. Status accepts
// paused (with PauseNote) and active (resume, or approve a pending task).
type TaskPatch struct {
	Description   *string        `json:"description"`
	Kind          *Kind          `json:"type"`
	Schedule      *string        `json:"schedule"`
	AgentID       *string        `json:"agent"`
	AssignmentID  *string        `json:"assignment"`
	MemberID      *string        `json:"member"`
	Prompt        *string        `json:"prompt"`
	Status        *Status        `json:"status"`
	PauseNote     *string        `json:"pause_note"`
	OverlapPolicy *OverlapPolicy `json:"overlap_policy"`
	CatchupPolicy *CatchupPolicy `json:"catchup_policy"`
}

// TaskFilter narrows List; zero fields match everything.
type TaskFilter struct {
	Status    Status
	Kind      Kind
	AgentID   string
	MemberID  string
	CreatedBy CreatedBy
	// Live keeps only tasks that are not completed or expired.
	Live bool
}

// Fire is one ledger row: what happened to one slot of a task.
type Fire struct {
	ID           int64     `json:"id"`
	TaskID       int64     `json:"task_id"`
	ScheduledFor time.Time `json:"scheduled_for"`
	Via          string    `json:"via"`
	Outcome      Outcome   `json:"outcome"`
	Reason       string    `json:"reason,omitempty"`
	// Note says how a clock change moved this slot ("" when none did).
	Note       string     `json:"note,omitempty"`
	RunID      int64      `json:"run_id,omitempty"`
	TodoID     int64      `json:"todo_id,omitempty"`
	Attempts   int        `json:"attempts"`
	StartedAt  *time.Time `json:"started_at,omitempty"`
	FinishedAt *time.Time `json:"finished_at,omitempty"`
	At         time.Time  `json:"at"`
}

// TaskEvent is the Data of a "task" event published on the admin topic.
type TaskEvent struct {
	TaskID int64  `json:"task_id"`
	Change string `json:"change"` // created, updated, deleted, fired, finished, skipped, missed, expired
}
