package agent

import (
	"context"
	"fmt"
	"hearth/internal/apperr"
	"regexp"
	"strings"
)

// ModelSettings are an agent's defaults for its model calls.
type ModelSettings struct {
	// Model names the model ("" = the runtime's configured default).
	Model string
	// ToolModel names the model for the structured steps (the tool-calling
	// turns; "" = Model for all): see ModelRequest.ToolModel.
	ToolModel   string
	Temperature *float64
	// MaxTokens caps each completion (0 = no cap).
	MaxTokens int
	// MaxIterations bounds tool-call turns per reasoning attempt (0 = 8).
	MaxIterations int
	// MaxRetries is how many times invalid output is sent back for
	// correction (0 = 2; negative = none).
	MaxRetries int
	// Budget caps each run's tokens (zero fields: the household default).
	Budget RunBudget
}

func (s ModelSettings) maxIterations() int {
	if s.MaxIterations <= 0 {
		return 8
	}
	return s.MaxIterations
}

func (s ModelSettings) maxRetries() int {
	switch {
	case s.MaxRetries < 0:
		return 0
	case s.MaxRetries == 0:
		return 2
	}
	return s.MaxRetries
}

// Agent is a registered agent definition.
type Agent struct {
	ID           string
	Description  string
	SystemPrompt string
	Tools        []ToolFactory
	Assignments  []Assignment
	Model        ModelSettings
	// Reply answers a chat turn without a model (no model configured,
	// budget spent or model failure); nil gives a fixed apology. Tools it
	// calls through turn.Call show as they happen and are recorded.
	Reply func(ctx context.Context, scope Scope, turn ChatTurn) (string, error)
	// Heard, when set, lets the agent note in its working memory what the
	// member said in a chat (scope.Memory is the agent's memory of the
	// member); it runs in every turn the member typed themselves
	// (Request.FromMember), never for a scheduled action, a to-do
	// or the admin's words, and the memory is saved with the answer.
	Heard func(ctx context.Context, scope Scope, message string) error
	// RequestNote is added to the system prompt of a turn no person typed
	// (a scheduled action, a to-do): what the agent does with such a
	// request, e.g. which tool delivers a message to the member. The
	// engine says before it that the message is not the member speaking.
	RequestNote string
	// Chat configures the agent's chat threads.
	Chat Conversation
	// Converse, when set, answers a chat turn in place of the chat loop's
	// own reasoning, on the turn's run: an agent made in admin runs its
	// whole definition there (rules, sub-agents, hooks, output schema), as
	// it does through the API and a schedule. The thread, the history, the
	// streamed answer and the commit stay the loop's; tool calls reported
	// through turn.Record show as chips and are stored in the thread.
	Converse func(ctx context.Context, x *Exec, turn ChatTurn) (string, error)
	// ToolLabels say what each tool does in the member's words, for the
	// chips a chat shows while the agent calls it ("checked your weight
	// trend"); a tool without one shows its name.
	ToolLabels map[string]string
	// NoReuse turns off reusing the last output when the input is unchanged.
	NoReuse bool
	// SurfaceTools names the tools a chat turn on a surface other than the
	// admin may call (SurfaceKiosk: what a chat on a shared screen needs);
	// a surface without a list gets none. Admin turns get every tool. The
	// server enforces it: the model is offered only these, and a call of
	// any other is refused as an unknown tool.
	SurfaceTools map[Surface][]string
	// Offer, when set, narrows the tools a chat model is offered on a run
	// to the names it returns (Talos: those the asker's role may use).
	// It decides what the model sees, not what it may do: a call of a
	// tool not offered still reaches that tool, whose own check must
	// refuse it (and record why).
	Offer func(ctx context.Context, scope Scope) ([]string, error)
}

// AgentInfo describes a registered agent for listings.
type AgentInfo struct {
	ID          string           `json:"id"`
	Description string           `json:"description"`
	Assignments []AssignmentInfo `json:"assignments"`
	Tools       []string         `json:"tools"`
	Model       string           `json:"model,omitempty"`
	// AdminMade: the agent exists only as a definition made in admin.
	AdminMade bool `json:"admin_made,omitempty"`
}

// HasAssignment is nil when the agent has the assignment, NotFound
// otherwise.
func (a AgentInfo) HasAssignment(id string) error {
	for _, as := range a.Assignments {
		if as.ID == id {
			return nil
		}
	}
	return apperr.NotFoundf("agent %q has no assignment %q", a.ID, id)
}

// AssignmentInfo describes an assignment for listings and the scheduler.
type AssignmentInfo struct {
	ID          string `json:"id"`
	Description string `json:"description"`
	Schedule    string `json:"schedule"`
}

var agentID = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,63}$`)

// registered is an agent with its compiled toolbox and schemas.
type registered struct {
	def         Agent
	tools       *Toolbox
	surface     map[Surface]*Toolbox // Agent.SurfaceTools, compiled
	assignments map[string]*compiledAssignment
	order       []string
}

// toolsFor is the toolbox a chat turn on surface may use: every tool for
// the admin, the agent's list for another surface, else none.
func (r *registered) toolsFor(s Surface) *Toolbox {
	if s == "" || s == SurfaceAdmin {
		return r.tools
	}
	if b, ok := r.surface[s]; ok {
		return b
	}
	return &Toolbox{tools: map[string]boxedTool{}}
}

// Merge returns s with the non-zero fields of o applied over it.
func (s ModelSettings) Merge(o ModelSettings) ModelSettings {
	if o.Model != "" {
		s.Model = o.Model
	}
	if o.ToolModel != "" {
		s.ToolModel = o.ToolModel
	}
	if o.Temperature != nil {
		s.Temperature = o.Temperature
	}
	if o.MaxTokens > 0 {
		s.MaxTokens = o.MaxTokens
	}
	if o.MaxIterations > 0 {
		s.MaxIterations = o.MaxIterations
	}
	if o.MaxRetries != 0 { // negative = no retries (0 means "default" in ModelSettings)
		s.MaxRetries = o.MaxRetries
	}
	s.Budget = s.Budget.Merge(o.Budget)
	return s
}

type compiledAssignment struct {
	a      Assignment
	output OutputSchema
	schema *Schema
}

func compileAgent(a Agent) (*registered, error) {
	if !agentID.MatchString(a.ID) {
		return nil, fmt.Errorf("agent: agent id %q must match %s", a.ID, agentID)
	}
	box, err := NewToolbox(a.Tools...)
	if err != nil {
		return nil, fmt.Errorf("agent: %s: %w", a.ID, err)
	}
	r := &registered{def: a, tools: box, surface: map[Surface]*Toolbox{}, assignments: map[string]*compiledAssignment{}}
	for sf, names := range a.SurfaceTools {
		if r.surface[sf], err = box.Only(names); err != nil {
			return nil, fmt.Errorf("agent: %s: tools of surface %s: %w", a.ID, sf, err)
		}
	}
	for _, as := range a.Assignments {
		id := as.ID()
		if !agentID.MatchString(id) {
			return nil, fmt.Errorf("agent: %s: assignment id %q must match %s", a.ID, id, agentID)
		}
		if _, dup := r.assignments[id]; dup {
			return nil, fmt.Errorf("agent: %s: duplicate assignment %q", a.ID, id)
		}
		out := as.OutputSchema()
		if out.Name == "" {
			out.Name = id
		}
		sch, err := CompileSchema(a.ID+"-"+id, out.Schema)
		if err != nil {
			return nil, err
		}
		r.assignments[id] = &compiledAssignment{a: as, output: out, schema: sch}
		r.order = append(r.order, id)
	}
	return r, nil
}

// label is what tool name did, for a chat's tool chip.
func (r *registered) label(name string) string {
	if l, ok := r.def.ToolLabels[name]; ok {
		return l
	}
	return "used " + strings.ReplaceAll(name, "_", " ")
}

func (r *registered) info() AgentInfo {
	inf := AgentInfo{ID: r.def.ID, Description: r.def.Description, Tools: r.tools.Names(),
		Model: r.def.Model.Model, Assignments: []AssignmentInfo{}}
	for _, id := range r.order {
		a := r.assignments[id].a
		inf.Assignments = append(inf.Assignments, AssignmentInfo{ID: id, Description: a.Description(), Schedule: a.DefaultSchedule()})
	}
	return inf
}
