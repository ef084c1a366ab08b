package adminview

import (
	"fmt"
	"hearth/views"
)

// AdminWorkflows is Admin → Workflows: everything waiting for a person,
// the workflows with a start form, and the latest runs.
type AdminWorkflows struct {
	AdminPage
	Waiting   WaitingList
	Workflows []WorkflowView
	Runs      []WorkflowRunRow
	Members   []views.Option
	Notice    Notice
}

// WaitingList is everything waiting for a person: tasks the coach made
// that wait for approval, and workflow steps waiting for an answer.
type WaitingList struct {
	CSRF      string
	Approvals []TaskRow
	Questions []WaitingQuestion
}

// Empty reports whether nothing waits.
func (w WaitingList) Empty() bool { return len(w.Approvals) == 0 && len(w.Questions) == 0 }

// WaitingQuestion is one suspended step: what it asks and how to answer.
type WaitingQuestion struct {
	Run      int64
	Workflow string
	Member   string
	Path     string
	Since    string
	Question string
	Context  string
	// Options are tap answers (a workflow.Question); none: answer with JSON.
	Options []AnswerOption
	// Payload is the suspend payload as JSON when it is not a question.
	Payload string
}

// AnswerOption is one tap answer: the label shown and the resume value.
type AnswerOption struct {
	Label, Field, Value string
}

// WorkflowView is a workflow and its graph.
type WorkflowView struct {
	ID, Description, Agent string
	Graph                  []GraphNode
}

// GraphNode is one node of a workflow's graph, with the status of its
// step in a run ("" outside a run, "pending" before it ran).
type GraphNode struct {
	Kind        string // step, workflow, parallel, branch, loop
	ID          string
	Description string
	Suspends    bool
	Label       string // loops: "until …" / "while …"; groups: the kind
	Status      string
	Attempts    int
	Children    []GraphNode
}

// WorkflowRunRow is one run in a list.
type WorkflowRunRow struct {
	ID                                int64
	Workflow, Member, Status, Updated string
	Error                             string
}

// AdminWorkflowRunPage is one run's page.
type AdminWorkflowRunPage struct {
	AdminPage
	Run    WorkflowRunView
	Notice Notice
}

// WorkflowRunView is a run as its page shows it.
type WorkflowRunView struct {
	CSRF                         string
	ID                           int64
	Workflow, Version, Member    string
	Status, Error, Trigger       string
	Created, Updated, Finished   string
	Input, State, Output         string
	Graph                        []GraphNode
	Steps                        []StepView
	AgentRuns                    []int64
	Waiting                      []WaitingQuestion
	CanRestart, CanPause, Active bool
}

// StepView is one step's stored result.
type StepView struct {
	Path, Step, Status                                   string
	Attempts                                             int
	Input, Output, StatePatch, Suspended, Resumed, Error string
	AgentRuns                                            []int64
	Started, Finished                                    string
}

func workflowRunURL(id int64) string { return fmt.Sprintf("/admin/workflow-runs/%d", id) }

func workflowRunActionURL(id int64, action string) string {
	return fmt.Sprintf("/admin/workflow-runs/%d/%s", id, action)
}
