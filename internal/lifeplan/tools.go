package lifeplan

import (
	"context"

	"hearth/internal/agent"
	"hearth/internal/store"
)

// Factory names agent definitions list: the life-plan coach's whole
// factory, and the health coach's limited one (seed 001: "lifeplan
// (limited)").
const (
	FactoryName        = "lifeplan"
	LimitedFactoryName = "lifeplan_limited"
)

// stagedNote is what a write tool answers: the run applies its writes
// when its answer is accepted, and none when it falls back.
const stagedNote = "staged: saved when your answer is accepted; a run that falls back saves nothing"

// Staged is a write tool's result: what will be saved.
type Staged[T any] struct {
	Staged bool   `json:"staged"`
	Note   string `json:"note"`
	Will   T      `json:"will"`
}

// stage checks write against the plan now (an unknown goal, a refused
// transition, a full list are errors the model reads at once), then
// stages it for the run's commit. Every write acts on scope.MemberID:
// no tool takes a member.
func stage[T any](ctx context.Context, s *Service, scope agent.Scope, will T, write func(ctx context.Context, s *Service) error) (Staged[T], error) {
	if err := s.Check(ctx, func(s *Service) error { return write(ctx, s) }); err != nil {
		return Staged[T]{}, err
	}
	err := scope.Stage(func(ctx context.Context, tx *store.Tx) error { return write(ctx, s.InTx(tx)) })
	return Staged[T]{Staged: err == nil, Note: stagedNote, Will: will}, err
}

// who records an agent's writes as its own in a goal's history.
func who(scope agent.Scope) string { return "agent:" + scope.AgentID }

type noArgs struct{}

// PurposeArgs are lifeplan_set_purpose's arguments.
type PurposeArgs struct {
	Statement string `json:"statement" desc:"the member's purpose in their own words, one or two sentences" schema:"minLength=1,maxLength=1000"`
}

// ValuesArgs are lifeplan_set_values' arguments.
type ValuesArgs struct {
	Values []ValueArg `json:"values" desc:"the member's values, most important first (replaces the list)" schema:"maxItems=20"`
}

// ValueArg is one value in lifeplan_set_values.
type ValueArg struct {
	Name        string  `json:"name" desc:"e.g. Family" schema:"minLength=1,maxLength=80"`
	Description *string `json:"description" desc:"what it means to the member, or null" schema:"maxLength=300"`
}

// RankArgs are lifeplan_rank_values' arguments.
type RankArgs struct {
	Names []string `json:"names" desc:"value names, most important first; values not named keep their order after these" schema:"minItems=1,maxItems=20"`
}

// BeliefArgs are lifeplan_add_belief's arguments.
type BeliefArgs struct {
	If         string   `json:"if" desc:"the condition, e.g. I train in the morning" schema:"minLength=1,maxLength=300"`
	Then       string   `json:"then" desc:"what the member expects then, e.g. I sleep better" schema:"minLength=1,maxLength=300"`
	Confidence *float64 `json:"confidence" desc:"0 to 1; null: 0.5" schema:"minimum=0,maximum=1"`
}

// GoalArgs are lifeplan_add_goal's arguments.
type GoalArgs struct {
	Name     string  `json:"name" desc:"the goal, e.g. be healthy enough to hike with my kids" schema:"minLength=1,maxLength=80"`
	Why      *string `json:"why" desc:"why it matters to the member" schema:"maxLength=1000"`
	State    *string `json:"state" desc:"dream (null) or considered" enum:"dream|considered"`
	ParentID *int64  `json:"parent_id" desc:"the life-plan goal this one serves (an id from lifeplan_get_goals), or null"`
}

// TransitionArgs are lifeplan_transition_goal's arguments.
type TransitionArgs struct {
	GoalID int64  `json:"goal_id" desc:"the goal's id from lifeplan_get_goals" schema:"minimum=1"`
	To     string `json:"to" desc:"the new state; a goal's next field lists the moves allowed now" enum:"dream|considered|ready|committed|paused|achieved|failed|abandoned"`
	Reason string `json:"reason" desc:"why, in the member's words" schema:"minLength=1,maxLength=500"`
}

// QualityArgs are lifeplan_add_quality's arguments.
type QualityArgs struct {
	Name string  `json:"name" desc:"a quality to cultivate, e.g. patience" schema:"minLength=1,maxLength=80"`
	Why  *string `json:"why" desc:"why the member wants it" schema:"maxLength=1000"`
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// Tools is the life-plan coach's factory: read and change the member's
// purpose, values, beliefs, goals and qualities. Writes are staged with
// the run.
func Tools(s *Service) *agent.Factory {
	return agent.NewFactory(FactoryName, "Life plan",
		"The member's life plan: purpose, ranked values, beliefs as if/then hypotheses, goals through guarded states (dream → considered → ready → committed → achieved), and qualities to cultivate. Private to the member; writes are staged with the run.",
		agent.NewTool("lifeplan_get_purpose", "The member's purpose statement (empty when not written yet).",
			func(ctx context.Context, scope agent.Scope, _ noArgs) (Purpose, error) {
				return s.GetPurpose(ctx, scope.MemberID)
			}),
		agent.NewTool("lifeplan_set_purpose", "Write the member's purpose statement (replaces it).",
			func(ctx context.Context, scope agent.Scope, a PurposeArgs) (Staged[string], error) {
				return stage(ctx, s, scope, a.Statement, func(ctx context.Context, s *Service) error {
					_, err := s.SetPurpose(ctx, scope.MemberID, a.Statement)
					return err
				})
			}),
		agent.NewTool("lifeplan_get_values", "The member's values, most important first.",
			func(ctx context.Context, scope agent.Scope, _ noArgs) ([]Value, error) {
				return s.Values(ctx, scope.MemberID)
			}),
		agent.NewTool("lifeplan_set_values", "Set the member's values, most important first (replaces the list; a name already there keeps its place in history).",
			func(ctx context.Context, scope agent.Scope, a ValuesArgs) (Staged[[]ValueInput], error) {
				in := make([]ValueInput, len(a.Values))
				for i, v := range a.Values {
					in[i] = ValueInput{Name: v.Name, Description: deref(v.Description)}
				}
				return stage(ctx, s, scope, in, func(ctx context.Context, s *Service) error {
					_, err := s.SetValues(ctx, scope.MemberID, in)
					return err
				})
			}),
		agent.NewTool("lifeplan_rank_values", "Reorder the member's values: the names given first, in that order.",
			func(ctx context.Context, scope agent.Scope, a RankArgs) (Staged[[]string], error) {
				return stage(ctx, s, scope, a.Names, func(ctx context.Context, s *Service) error {
					_, err := s.RankValues(ctx, scope.MemberID, a.Names)
					return err
				})
			}),
		agent.NewTool("lifeplan_get_beliefs", "The member's beliefs (if/then), each with its state, confidence and evidence notes (only accepted notes count).",
			func(ctx context.Context, scope agent.Scope, _ noArgs) ([]Belief, error) {
				return s.Beliefs(ctx, scope.MemberID)
			}),
		agent.NewTool("lifeplan_add_belief", "Add a belief as an if/then hypothesis the member holds; it starts hypothesized.",
			func(ctx context.Context, scope agent.Scope, a BeliefArgs) (Staged[BeliefArgs], error) {
				return stage(ctx, s, scope, a, func(ctx context.Context, s *Service) error {
					_, err := s.AddBelief(ctx, scope.MemberID, BeliefInput{If: a.If, Then: a.Then, Confidence: a.Confidence})
					return err
				})
			}),
		agent.NewTool("lifeplan_get_goals", "The member's life-plan goals with their state, the moves allowed now (next), the goal they serve and the fitness goals linked to them.",
			func(ctx context.Context, scope agent.Scope, _ noArgs) ([]Goal, error) {
				return s.Goals(ctx, scope.MemberID)
			}),
		agent.NewTool("lifeplan_add_goal", "Add a life-plan goal; it starts as a dream (or considered).",
			func(ctx context.Context, scope agent.Scope, a GoalArgs) (Staged[GoalArgs], error) {
				in := GoalInput{Name: a.Name, Why: deref(a.Why), State: GoalState(deref(a.State)), ParentID: a.ParentID}
				return stage(ctx, s, scope, a, func(ctx context.Context, s *Service) error {
					_, err := s.AddGoal(ctx, scope.MemberID, in, who(scope))
					return err
				})
			}),
		agent.NewTool("lifeplan_transition_goal", "Move a goal to another state with the member's reason (kept in its history). Only the moves in the goal's next field are allowed: a dream cannot become achieved.",
			func(ctx context.Context, scope agent.Scope, a TransitionArgs) (Staged[TransitionArgs], error) {
				return stage(ctx, s, scope, a, func(ctx context.Context, s *Service) error {
					_, err := s.TransitionGoal(ctx, scope.MemberID, a.GoalID, GoalState(a.To), a.Reason, who(scope))
					return err
				})
			}),
		agent.NewTool("lifeplan_get_qualities", "The qualities the member wants to cultivate.",
			func(ctx context.Context, scope agent.Scope, _ noArgs) ([]Quality, error) {
				return s.Qualities(ctx, scope.MemberID)
			}),
		agent.NewTool("lifeplan_add_quality", "Add a quality the member wants to cultivate.",
			func(ctx context.Context, scope agent.Scope, a QualityArgs) (Staged[QualityArgs], error) {
				return stage(ctx, s, scope, a, func(ctx context.Context, s *Service) error {
					_, err := s.AddQuality(ctx, scope.MemberID, QualityInput{Name: a.Name, Why: deref(a.Why)})
					return err
				})
			}),
	)
}

// Overview is lifeplan_overview's result: what the health coach may know
// of the member's life plan.
type Overview struct {
	Purpose string   `json:"purpose"`
	Values  []Value  `json:"values"`
	Goals   []Goal   `json:"goals"`
	Beliefs []Belief `json:"beliefs"`
}

// LinkArgs are lifeplan_link_fitness_goal's arguments.
type LinkArgs struct {
	GoalID        int64 `json:"goal_id" desc:"the life-plan goal (lifeplan_overview's goals)" schema:"minimum=1"`
	FitnessGoalID int64 `json:"fitness_goal_id" desc:"the member's fitness goal (get_user_goals)" schema:"minimum=1"`
}

// EvidenceArgs are lifeplan_propose_evidence's arguments.
type EvidenceArgs struct {
	BeliefID int64  `json:"belief_id" desc:"the belief the evidence bears on" schema:"minimum=1"`
	Text     string `json:"text" desc:"what the logged data shows, e.g. on the 9 mornings you trained you slept 40 minutes longer" schema:"minLength=1,maxLength=1000"`
}

// LimitedTools is the health coach's view of the life plan: read the
// purpose, values and goals (and beliefs, to know what evidence bears
// on); link a fitness goal to a life-plan goal; propose evidence for a
// belief, which counts only once the member accepts it with a tap.
func LimitedTools(s *Service) *agent.Factory {
	return agent.NewFactory(LimitedFactoryName, "Life plan (limited)",
		"For the health coach: read the member's purpose, values and life-plan goals; link a fitness goal to a life-plan goal; propose evidence for a belief (the member accepts or dismisses it).",
		agent.NewTool("lifeplan_overview", "The member's purpose, values (most important first), life-plan goals with the fitness goals linked to them, and beliefs (for evidence).",
			func(ctx context.Context, scope agent.Scope, _ noArgs) (Overview, error) {
				p, err := s.Plan(ctx, scope.MemberID)
				return Overview{Purpose: p.Purpose.Statement, Values: p.Values, Goals: p.Goals, Beliefs: p.Beliefs}, err
			}),
		agent.NewTool("lifeplan_link_fitness_goal", "Link one of the member's fitness goals to the life-plan goal it serves (\"run a 10k\" under \"hike with my kids\").",
			func(ctx context.Context, scope agent.Scope, a LinkArgs) (Staged[LinkArgs], error) {
				return stage(ctx, s, scope, a, func(ctx context.Context, s *Service) error {
					_, err := s.LinkFitnessGoal(ctx, scope.MemberID, a.GoalID, a.FitnessGoalID)
					return err
				})
			}),
		agent.NewTool("lifeplan_propose_evidence", "Propose evidence from the member's logged data for one of their beliefs; it shows as a suggestion they accept or dismiss, and counts only once accepted.",
			func(ctx context.Context, scope agent.Scope, a EvidenceArgs) (Staged[EvidenceArgs], error) {
				return stage(ctx, s, scope, a, func(ctx context.Context, s *Service) error {
					_, err := s.SuggestEvidence(ctx, scope.MemberID, a.BeliefID, FromData, a.Text)
					return err
				})
			}),
	)
}
