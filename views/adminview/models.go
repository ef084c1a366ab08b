package adminview

import (
	"hearth/views"
	"strconv"
	"strings"
)

// AdminSections are the admin navigation entries, in order.
var AdminSections = []struct{ ID, Label, Href string }{
	{"assignments", "Assignments", "/admin"},
	{"runs", "Runs", "/admin/runs"},
	{"schedules", "Schedules", "/admin/schedules"},
	{"workflows", "Workflows", "/admin/workflows"},
	{"memory", "Memory", "/admin/memory"},
	{"chat", "Chat", "/admin/chat"},
	{"household", "Household", "/admin/household"},
	{"catalog", "Catalog", "/admin/catalog"},
	{"curator", "Curator", "/admin/curator"},
	{"policies", "Policies", "/admin/policies"},
	{"imports", "Imports", "/admin/imports"},
	{"todos", "To-dos", "/admin/todos"},
	{"messages", "Messages", "/admin/messages"},
	{"definitions", "Agents", "/admin/definitions"},
	{"evals", "Evals", "/admin/evals"},
	{"backups", "Backups", "/admin/backups"},
	{"model", "Model", "/admin/model"},
	{"integrations", "Integrations", "/admin/integrations"},
	{"screens", "Screens", "/admin/screens"},
	{"api", "API", "/admin/api"},
}

// AdminPage is what every admin page shares.
type AdminPage struct {
	views.Page
	Section string
	// LoggedIn: a password session exists to end (not loopback-open access).
	LoggedIn bool
	// Version is the running Hearth's version, shown in the footer.
	Version string
}

// AdminMemberRow is one member in the household list.
type AdminMemberRow struct {
	ID, Name, Color, Avatar, Unit, Targets, Goal string
	// Role labels a child or a guest ("" for an adult: no badge).
	Role string
}

// RoleOptions are the member roles for the household forms' Role select.
var RoleOptions = []views.Option{{Value: "adult", Label: "Adult"}, {Value: "child", Label: "Child"}, {Value: "guest", Label: "Guest"}}

// AdminHousehold lists the members and offers a new-member form.
type AdminHousehold struct {
	AdminPage
	Members []AdminMemberRow
	New     views.FormState
	// Settings are the time zone and night schedule cards (nil: none).
	Settings *HouseholdSettings
	// LifePlan links each member's life plan page.
	LifePlan bool
	// Copilot shows the configuration copilot beside the new-member form.
	Copilot bool
}

// HouseholdSettings are the household's time zone (form field time_zone)
// and the screens' night schedule (night_mode, night_from, night_to).
type HouseholdSettings struct {
	Zone  views.FormState
	Night views.FormState
	// Running names the zone Hearth runs in now.
	Running string
	// Override: HEARTH_TZ or -tz set the zone, which wins; the field is
	// disabled.
	Override bool
	// Pending names the zone the next start applies ("" = no change).
	Pending string
	// Zones are suggestions for the field; Modes the night's choices.
	Zones []string
	Modes []views.Option
}

// AdminGoalRow is one goal on the member page.
type AdminGoalRow struct {
	ID                                int64
	Kind, Description, Target, Status string
}

// AdminMember edits one member and their goals.
type AdminMember struct {
	AdminPage
	ID   string
	Form views.FormState
	// Copilot shows the configuration copilot beside the profile form.
	Copilot bool
	// HasPIN: the member has a PIN for shared screens; PIN is its form
	// (errors and the saved note only: a PIN is never shown).
	HasPIN bool
	PIN    views.FormState
	Goals  []AdminGoalRow
	Goal   views.FormState
	// Program is the member's program with its controls (nil: none).
	Program *views.ProgramCard
	// ProgramMessage says what the last program control did (or why not).
	ProgramMessage string
	ProgramFailed  bool
	// Messages are the coach's recent messages to the member.
	Messages []MessageRow
	// LifePlan links the member's life plan page.
	LifePlan bool
}

// MessageRow is a message in the admin's list.
type MessageRow struct {
	Member, Agent, Source, Text, When, Status string
}

// AdminAssignment is one assignment an admin can run.
type AdminAssignment struct {
	Agent, ID, Description, Schedule string
}

// AdminAgent is one registered agent with its assignments.
type AdminAgent struct {
	ID, Description string
	Assignments     []AdminAssignment
}

// RunPhase is one phase of a run's progress. State is done, current or pending.
type RunPhase struct {
	Name, Took, State string
}

// RunView is a run as the admin pages show it; times are in the household zone.
type RunView struct {
	ID                                   int64
	Agent, Assignment, Member, Trigger   string
	Status, Phase                        string
	Created, Started, Finished, Duration string
	Phases                               []RunPhase
	Attempts                             int
	Model                                string
	TokensIn, TokensOut                  int64
	Cost                                 string
	Error, FallbackReason                string
	// ModelNotes say what the model calls adapted to (a refused schema,
	// tools off, a trimmed prompt), with the server's words.
	ModelNotes           []string
	ReusedFrom, ThreadID int64
	Active               bool // queued or running
}

// Label names what the run did: the assignment, or "chat" for a freeform run.
func (r RunView) Label() string {
	if r.Assignment == "" {
		return "chat"
	}
	return r.Assignment
}

// ToolCallView is one tool call of a run.
type ToolCallView struct{ Name, Args, Result, Error string }

// EffectView is a write a tool staged during the run and what became of it
// (applied, refused, discarded).
type EffectView struct{ Tool, Outcome, Reason string }

// AttemptView lists the validation errors of one reasoning attempt.
type AttemptView struct {
	Attempt int
	Source  string
	Errors  []string
}

// RunDetail is everything the run page shows.
type RunDetail struct {
	RunView
	System, User string // the prompt sent to the model (or that would have been: NotSent)
	// PromptSource says where the prompt's instructions come from
	// ("definition health-coach v3"); NotSent why no model saw it
	// ("heuristic run"); PromptNotes what it could not use as written.
	PromptSource, NotSent string
	PromptNotes           []string
	Output                string // pretty-printed JSON
	ToolCalls             []ToolCallView
	Effects               []EffectView
	Validation            []AttemptView
	// Steps trace a declarative definition's pipeline (agents, sub-agents,
	// what their hooks were given); none for runs no definition shaped.
	Steps []PipelineStepView
	// Prompts are the requests sent, counted offline by part; PromptTotal
	// adds them up (its Label names the tokenizer).
	Prompts     []PromptTokensView
	PromptTotal PromptTokensView
}

// PromptTokensView is one request's prompt tokens by part (or the run's
// total), counted offline.
type PromptTokensView struct {
	Label                                                           string
	System, Tools, ToolCount, Schema, Facts, Memory, History, Total int
}

// PipelineStepView is one agent of a definition's pipeline in a run.
type PipelineStepView struct {
	Agent, Key, Error string
	Depth, Attempts   int
	Skipped           bool
	Notes             []string
}

// AdminAssignments is the admin home: every agent's assignments with a
// run-now form, and the latest runs with live progress.
type AdminAssignments struct {
	AdminPage
	Agents  []AdminAgent
	Members []views.Option
	Runs    []RunView
	Budget  string
}

// RunFilter is the run history's filter form.
type RunFilter struct {
	Agent, Assignment, Member, Status string
	Before                            int64 // paging: runs older than this id
	Limit                             int
}

// AdminRuns is the run history with filters.
type AdminRuns struct {
	AdminPage
	Filter      RunFilter
	Agents      []views.Option
	Assignments []views.Option
	Members     []views.Option
	Statuses    []string
	Runs        []RunView
	Older       string // URL of the next (older) page, "" at the end
}

// AdminRunPage shows one run.
type AdminRunPage struct {
	AdminPage
	Run RunDetail
}

func i64(n int64) string { return strconv.FormatInt(n, 10) }

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// statusText is a status for people: "fell_back" reads "fell back".
func statusText(s string) string { return strings.ReplaceAll(s, "_", " ") }

func runNowURL(a AdminAssignment) string {
	return "/admin/assignments/" + a.Agent + "/" + a.ID + "/run"
}

// Notice is a one-line message at the top of an admin page.
type Notice struct {
	Text  string
	Error bool
}

// TaskRow is one scheduled task; times are in the household zone.
type TaskRow struct {
	ID                                          int64
	Description, Kind, Schedule, Target, Member string
	Status, StatusReason, PauseNote             string
	Next, Last, Expires                         string
	Overlap, Catchup                            string
	ByCoach, Keep, Running                      bool
	RunCount                                    int
	LastRunID                                   int64
	// LastOutcome is the last slot's outcome in words; LastNote what the
	// run adds (its failure, or why it fell back to the built-in coach).
	LastOutcome, LastNote string
}

// SchedulePreview lists the next fire times of a schedule, or why there are none.
type SchedulePreview struct {
	Times []string
	Error string
}

// AdminSchedules lists the tasks and offers the new-task form.
type AdminSchedules struct {
	AdminPage
	Notice  Notice
	Tasks   []TaskRow
	Form    views.FormState
	Preview SchedulePreview
	Agents  []AdminAgent
	Members []views.Option
	// Refused are the coach's latest refused scheduling requests.
	Refused []RefusedRequest
	// Copilot shows the configuration copilot beside the new-task form.
	Copilot bool
}

// RefusedRequest is a task the coach asked for and was refused (the
// guardrails against scheduling loops).
type RefusedRequest struct {
	At, Member, Kind, Schedule, Description, Reason string
	RunID                                           int64
}

// FireRow is one ledger row. SlotValue identifies the slot for "run this slot".
type FireRow struct {
	Slot, SlotValue, Via, Outcome, Reason, At string
	// Note says how a clock change moved the slot.
	Note     string
	RunID    int64
	Attempts int
	Rerun    bool
}

// AdminTask edits one task and shows its ledger.
type AdminTask struct {
	AdminPage
	Notice  Notice
	Task    TaskRow
	Form    views.FormState
	Preview SchedulePreview
	Ledger  []FireRow
	Agents  []AdminAgent
	Members []views.Option
}

// TaskKinds are the task types, in form order.
var TaskKinds = []string{"recurring", "once", "interval", "heartbeat"}

// MemoryRow is one live memory entry. ExpiresAt (RFC 3339, "" = persistent)
// drives the countdown in admin.js; TTL is the time left, for the edit form.
type MemoryRow struct {
	Key, Value, Age, Expires, ExpiresAt, TTL string
}

// MemoryChangeRow is one history row; Old and New are "" when absent.
type MemoryChangeRow struct {
	ID                       int64
	At, Actor, Key           string
	Old, New, OldExp, NewExp string
	HadOld, HasNew           bool
	RunID, UndoOf            int64
}

// AdminMemory shows and edits one agent's working memory about one member.
type AdminMemory struct {
	AdminPage
	Notice  Notice
	Agents  []views.Option
	Members []views.Option
	Agent   string
	Member  string
	Entries []MemoryRow
	History []MemoryChangeRow
	Form    views.FormState
}

// TodoRow is one item of an agent's to-do list.
type TodoRow struct {
	ID                                         int64
	Agent, Member, Text, Status, Note, Created string
	Done                                       string
	ByCoach                                    bool
	Attempts                                   int
	RunID                                      int64
}

// AdminTodos is the agents' to-do list with an add form.
type AdminTodos struct {
	AdminPage
	Notice  Notice
	Show    string // open, done or all
	Todos   []TodoRow
	Form    views.FormState
	Agents  []views.Option
	Members []views.Option
}

// CatalogRow is one catalog item. Intensity, Impact and Areas are its
// metadata as the coach uses it; Guessed names the fields guessed from the
// kind; Edited marks metadata an admin set.
type CatalogRow struct {
	ID, Title, Kind, Program, Duration, Source, Tags string
	Day                                              int
	Intensity, Impact, Areas, Guessed                string
	Edited                                           bool
	EditURL                                          string
}

// CatalogMetaEdit is the form that edits one item's metadata. "" for
// Intensity or Impact, and AreasGuessed, leave the field to the kind.
type CatalogMetaEdit struct {
	ID, Title, Kind           string
	Intensity, Impact         string
	Intensities, Impacts      []string
	Areas                     []CheckOption
	AreasGuessed, Edited      bool
	KindIntensity, KindImpact string
	KindAreas                 string
}

// CheckOption is one checkbox of a group.
type CheckOption struct {
	Value   string
	Checked bool
}

// ProgramRow is one program of the catalog.
type ProgramRow struct {
	ID, Title, Description, Source string
	TotalDays, TrainingDays        int
}

// AdminCatalog browses the content catalog and imports catalog files.
type AdminCatalog struct {
	AdminPage
	Notice   Notice
	Problems []string // why an import was refused
	Query    string
	Kind     string
	Program  string
	Kinds    []string
	Programs []ProgramRow
	Items    []CatalogRow
	Total    int
	Shown    int
	MaxSize  string
	Edit     *CatalogMetaEdit // the item whose metadata is being edited
	Plex     PlexSyncView     // the last Plex sync
}

// ImportTypeRow counts one record type of an imported file.
type ImportTypeRow struct {
	Type                                          string
	Added, Updated, Duplicate, Repeated, Rejected int
}

// ImportSummaryView is the outcome of one import, as the CLI prints it.
type ImportSummaryView struct {
	File, Kind, Profile, Size, Took                              string
	Added, Updated, Duplicate, Repeated, Kept, Unknown, Rejected int
	Types                                                        []ImportTypeRow
	Notes                                                        []string // what was derived, assumed or not imported
	Problems                                                     []string // rejected records (the rest imported)
}

// ImportStatus is the live progress area of the imports page.
type ImportStatus struct {
	Active   bool
	File     string
	Percent  int // -1 when the size is unknown
	Read     string
	Records  int64
	Summary  *ImportSummaryView
	Error    string
	Problems []string
}

// ImportRow is one past import.
type ImportRow struct {
	ID                                  int64
	Member, File, Kind, Status, Started string
	Added, Duplicate, Unknown, Rejected int
	Error                               string
}

// AdminImports uploads Apple Health exports and CSV files for a member.
type AdminImports struct {
	AdminPage
	Form    views.FormState
	Members []views.Option
	Kinds   []views.Option
	Units   []views.Option
	Status  ImportStatus
	Recent  []ImportRow
	MaxSize string
}

// AdminMessages is Admin → Messages: what the coach told each member.
type AdminMessages struct {
	AdminPage
	Rows []MessageRow
}

// AdminFactory is a named tool factory as the definition editor offers it.
type AdminFactory struct {
	Name, Title, Description string
	Tools                    []string
	// Configured is false when the system its tools reach is not set up;
	// Status says why.
	Configured bool
	Status     string
}

func factoryNames(fs []AdminFactory) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.Name
	}
	return out
}
