package coach

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"hearth/internal/agent"
	"hearth/internal/dashboard"
)

// DailyDashboard is the daily-dashboard assignment: it writes each member's
// dashboard document for today (see the package doc for its phases).
type DailyDashboard struct{ c *core }

var (
	_ agent.Assignment = (*DailyDashboard)(nil)
	_ agent.Shaper     = (*DailyDashboard)(nil)
)

// Shape implements agent.Shaper: the coach's current definition shapes the
// model path of the run (Deps.Shape); nil without one.
func (a *DailyDashboard) Shape(ctx context.Context, x *agent.Exec, mem *agent.Memory, p agent.Prompt) (*agent.Shape, error) {
	if a.c.shape == nil {
		return nil, nil
	}
	sh, err := a.c.shape(ctx, x, mem, p)
	if err != nil || sh == nil {
		return sh, err
	}
	// Evidence needs a belief open to it: a member without one (most) is
	// not sent the tool's definition, ~100 prompt tokens on every request.
	if i := slices.IndexFunc(sh.Tools, func(s agent.ToolSpec) bool { return s.Name == ProposeEvidenceTool }); i >= 0 {
		life, err := a.c.lifePlan(ctx, x.Member())
		if err != nil {
			return nil, err
		}
		if len(life.OpenBeliefs) == 0 {
			sh.Tools = slices.Delete(slices.Clone(sh.Tools), i, i+1)
		}
	}
	return sh, nil
}

// NewDailyDashboard returns the assignment over deps (New registers it
// already; this is for callers that compose their own agent).
func NewDailyDashboard(deps Deps) *DailyDashboard { return newDailyDashboard(newCore(deps)) }

func newDailyDashboard(c *core) *DailyDashboard { return &DailyDashboard{c: c} }

// ID implements agent.Assignment.
func (*DailyDashboard) ID() string { return DailyDashboardID }

// Description implements agent.Assignment.
func (*DailyDashboard) Description() string {
	return "Prepare the member's dashboard for today: Up Next, playlist, briefing, calls to action, prompts and feedback."
}

// DefaultSchedule implements agent.Assignment.
func (*DailyDashboard) DefaultSchedule() string { return DailyDashboardSchedule }

// OutputSchema implements agent.Assignment: the dashboard document schema.
func (*DailyDashboard) OutputSchema() agent.OutputSchema {
	return agent.OutputSchema{Name: "dashboard", Schema: dashboard.SchemaMap()}
}

// DailyModelTools are the tools the daily dashboard's model is offered
// (agent.ModelTools): the gather phase read every fact the read tools
// would, and the document is the output, so only what the document cannot
// say — the coach's memory and notes — is left. Each definition is
// prompt a CPU server reads on every request (README "Model servers").
var DailyModelTools = []string{"remember", "forget", "log_coaching_note"}

// ProposeEvidenceTool is the limited life-plan tool the daily run adds
// when the coach has the life plan (Deps.LifePlanTools): logged data may
// bear on a belief, and the member accepts or dismisses the note.
const ProposeEvidenceTool = "lifeplan_propose_evidence"

// DailyToolIDs are the tools the daily run's model is offered with deps:
// DailyModelTools, and ProposeEvidenceTool with the life plan. The coach's
// seeded definition lists them (its tool_ids shape the run). Follow-ups
// go through the coach's memory (remember, with an expiry); a scheduled
// action is a chat's (schedule_action, 256 prompt tokens, would put the
// demo household's daily request over its 4,000).
func DailyToolIDs(deps Deps) []string {
	if deps.LifePlanTools == nil {
		return slices.Clone(DailyModelTools)
	}
	return append(slices.Clone(DailyModelTools), ProposeEvidenceTool)
}

// ModelTools implements agent.ModelTools.
func (a *DailyDashboard) ModelTools() []string { return a.c.dailyTools }

// Tuned returns the tuning a run uses now (the TuningSource's, with
// defaults filled in).
func (a *DailyDashboard) Tuned(ctx context.Context) Tuning { return a.c.resolveTuning(ctx) }

// Gather implements agent.Assignment; it returns a *Gathered.
func (a *DailyDashboard) Gather(ctx context.Context, env *agent.Env) (any, error) {
	return a.c.gather(ctx, env)
}

var errGathered = errors.New("coach: gathered data is not from the daily-dashboard gather")

// Prompt implements agent.Assignment: the tuning's system prompt and its
// user template filled from the gathered sections.
func (a *DailyDashboard) Prompt(ctx context.Context, gathered any, mem *agent.Memory) (agent.Prompt, error) {
	g, ok := gathered.(*Gathered)
	if !ok {
		return agent.Prompt{}, errGathered
	}
	t := a.c.resolveTuning(ctx)
	notes := t.notes
	vars := g.promptVars(mem)
	user, err := render(t.UserTemplate, vars)
	if err != nil {
		a.c.log.Warn("coach: user template failed; using the built-in one", "err", err)
		notes = append(notes, "the user template of "+t.sourceName()+" cannot be filled ("+err.Error()+"): the built-in one was used")
		if user, err = render(DefaultTuning().UserTemplate, vars); err != nil {
			return agent.Prompt{}, err
		}
	}
	// The system prompt's placeholders are filled from the same facts (an
	// admin may name them there too): none reaches the model as written.
	// One that cannot be filled (saved before saves checked them) gives
	// the built-in prompt, and the run says so.
	system, err := render(t.SystemPrompt, vars)
	if err != nil {
		a.c.log.Warn("coach: system prompt failed; using the built-in one", "err", err)
		notes = append(notes, "the system prompt of "+t.sourceName()+" cannot be filled ("+err.Error()+"): the built-in one was used")
		system = DefaultTuning().SystemPrompt
	}
	source := t.Source
	if source == "" {
		source = "the coach's built-in prompts"
	}
	// The tuned model settings travel with the prompt: one snapshot per run.
	return agent.Prompt{System: system, User: user, Model: t.Model, Source: source, Notes: notes}, nil
}

// ValidateDomain implements agent.Assignment: content ids exist with their
// catalog durations, the safety rules hold (checkSafety: no content that
// loads an injured area, no weight-loss push at low body weight or intake,
// no questioned reading presented), prompts are well-formed and not
// closed, and every number in the coach's words comes from the facts.
func (a *DailyDashboard) ValidateDomain(ctx context.Context, gathered any, output json.RawMessage) []agent.ValidationError {
	g, ok := gathered.(*Gathered)
	if !ok {
		return []agent.ValidationError{{Path: "/", Message: errGathered.Error()}}
	}
	var doc dashboard.Document
	if err := json.Unmarshal(output, &doc); err != nil {
		return []agent.ValidationError{{Path: "/", Message: "not a dashboard document: " + err.Error()}}
	}
	out, items, err := a.c.validateContent(ctx, doc)
	if err != nil {
		return []agent.ValidationError{{Path: "/", Message: "the catalog could not be checked: " + err.Error()}}
	}
	out = append(out, g.checkSafety(doc, items)...)
	return append(out, g.checkCoach(doc)...)
}

// checkCoach checks the coach part against the facts and the follow-ups.
func (g *Gathered) checkCoach(doc dashboard.Document) []agent.ValidationError {
	var out []agent.ValidationError
	for _, t := range coachTexts(doc) {
		out = append(out, checkNumbers(t.path, t.text, g.facts)...)
	}
	for i, p := range doc.Coach.Prompts {
		path := fmt.Sprintf("/coach/prompts/%d", i)
		if c, why, closed := g.FollowUps.closed(p.ID, p.Question); closed {
			msg := fmt.Sprintf("prompt %q was already answered (%q); do not ask it again", c.ID, c.Answer)
			if why == "dropped" {
				msg = fmt.Sprintf("prompt %q was ignored twice and dropped; do not ask it again", c.ID)
			}
			out = append(out, agent.ValidationError{Path: path, Message: msg})
		}
	}
	return out
}

// Plan implements agent.Assignment: the heuristic coach.
func (a *DailyDashboard) Plan(_ context.Context, gathered any, mem *agent.Memory) (any, error) {
	g, ok := gathered.(*Gathered)
	if !ok {
		return nil, errGathered
	}
	return plan(g, mem), nil
}
