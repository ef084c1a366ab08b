package lifeplan_test

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"hearth/internal/agent"
	"hearth/internal/apperr"
	"hearth/internal/health"
	"hearth/internal/lifeplan"
	"hearth/internal/store"
)

// toolRun calls tools as one agent run for member: each call's writes are
// staged; commit applies them as the run's commit does.
type toolRun struct {
	t     *testing.T
	box   *agent.Toolbox
	st    *agent.Stager
	scope agent.Scope
	db    *store.DB
}

func newToolRun(t *testing.T, db *store.DB, s *lifeplan.Service, member string) *toolRun {
	t.Helper()
	box, err := agent.NewToolbox(lifeplan.Tools(s), lifeplan.LimitedTools(s))
	if err != nil {
		t.Fatal(err)
	}
	st := agent.NewStager()
	return &toolRun{t: t, box: box, st: st, db: db, scope: agent.Scope{AgentID: "lifeplan-coach", MemberID: member}.WithStager(st)}
}

func (r *toolRun) call(name, args string) (any, error) {
	r.t.Helper()
	return r.box.Call(context.Background(), r.scope, name, json.RawMessage(args))
}

func (r *toolRun) must(name, args string) any {
	r.t.Helper()
	v, err := r.call(name, args)
	if err != nil {
		r.t.Fatalf("%s %s: %v", name, args, err)
	}
	return v
}

func (r *toolRun) commit() {
	r.t.Helper()
	err := r.db.Tx(context.Background(), func(tx *store.Tx) error {
		_, err := r.st.Apply(context.Background(), tx, 0, store.FormatTime(r.db.Now()))
		return err
	})
	if err != nil {
		r.t.Fatal(err)
	}
	r.st = agent.NewStager()
	r.scope = r.scope.WithStager(r.st)
}

// TestToolsWriteOnlyTheRunsMemberWhenTheRunCommits: the life-plan tools
// set a purpose, values and a goal and move it, all staged: nothing is
// saved before the run's commit, and everything acts on the run's member.
// A refused move is an error the model reads at once (dream → achieved).
func TestToolsWriteOnlyTheRunsMemberWhenTheRunCommits(t *testing.T) {
	s, db, _ := env(t)
	ctx := context.Background()
	run := newToolRun(t, db, s, "ada")
	run.must("lifeplan_set_purpose", `{"statement": "Be there for my kids, strong and curious."}`)
	run.must("lifeplan_set_values", `{"values": [{"name": "Family", "description": "time together"}, {"name": "Health", "description": null}]}`)
	run.must("lifeplan_add_goal", `{"name": "Hike with my kids", "why": null, "state": null, "parent_id": null}`)
	if p, _ := s.Plan(ctx, "ada"); p.Purpose.Statement != "" || len(p.Values) != 0 || len(p.Goals) != 0 {
		t.Fatalf("saved before the run's commit: %+v", p)
	}
	run.commit()
	p, err := s.Plan(ctx, "ada")
	if err != nil || p.Purpose.Statement != "Be there for my kids, strong and curious." || len(p.Values) != 2 || p.Values[0].Name != "Family" ||
		len(p.Goals) != 1 || p.Goals[0].State != lifeplan.Dream {
		t.Fatalf("plan = %+v (%v)", p, err)
	}
	if other, _ := s.Plan(ctx, "bo"); other.Purpose.Statement != "" || len(other.Goals) != 0 {
		t.Fatalf("bo's plan changed: %+v", other)
	}
	id := p.Goals[0].ID
	_, err = run.call("lifeplan_transition_goal", `{"goal_id": `+itoa(id)+`, "to": "achieved", "reason": "done"}`)
	if ae := apperr.As(err); ae == nil || !strings.Contains(ae.Message, "from dream it can move to considered") {
		t.Fatalf("dream → achieved: %v", err)
	}
	run.must("lifeplan_transition_goal", `{"goal_id": `+itoa(id)+`, "to": "considered", "reason": "we talked it through"}`)
	run.commit()
	h, err := s.GoalHistory(ctx, "ada", id)
	if err != nil || len(h) != 2 || h[1].To != lifeplan.Considered || h[1].Reason != "we talked it through" || h[1].By != "agent:lifeplan-coach" {
		t.Fatalf("history = %+v (%v)", h, err)
	}

	// Bo's run cannot reach Ada's goal by its id.
	bo := newToolRun(t, db, s, "bo")
	if _, err := bo.call("lifeplan_transition_goal", `{"goal_id": `+itoa(id)+`, "to": "ready", "reason": "x"}`); !apperr.Is(err, apperr.NotFound) {
		t.Fatalf("bo moved ada's goal: %v", err)
	}
	if v := bo.must("lifeplan_get_goals", `{}`); len(v.([]lifeplan.Goal)) != 0 {
		t.Fatalf("bo sees goals: %+v", v)
	}
}

// TestLimitedToolsLinkAndProposeEvidence: the health coach's limited
// factory reads the overview, links the member's own fitness goal (not
// another's), and proposes evidence that counts only once the member
// accepts it.
func TestLimitedToolsLinkAndProposeEvidence(t *testing.T) {
	s, db, _ := env(t)
	ctx := context.Background()
	g, err := s.AddGoal(ctx, "ada", lifeplan.GoalInput{Name: "Hike with my kids"}, "member")
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.AddBelief(ctx, "ada", lifeplan.BeliefInput{If: "I train in the morning", Then: "I sleep better"})
	if err != nil {
		t.Fatal(err)
	}
	mine, err := db.AddGoal(ctx, health.Goal{MemberID: "ada", Kind: "custom", Description: "Run a 10k", Status: "active"})
	if err != nil {
		t.Fatal(err)
	}
	theirs, err := db.AddGoal(ctx, health.Goal{MemberID: "bo", Kind: "custom", Description: "Swim", Status: "active"})
	if err != nil {
		t.Fatal(err)
	}
	run := newToolRun(t, db, s, "ada")
	ov := run.must("lifeplan_overview", `{}`).(lifeplan.Overview)
	if len(ov.Goals) != 1 || len(ov.Beliefs) != 1 {
		t.Fatalf("overview = %+v", ov)
	}
	if _, err := run.call("lifeplan_link_fitness_goal", `{"goal_id": `+itoa(g.ID)+`, "fitness_goal_id": `+itoa(theirs.ID)+`}`); !apperr.Is(err, apperr.NotFound) {
		t.Fatalf("linked bo's fitness goal: %v", err)
	}
	run.must("lifeplan_link_fitness_goal", `{"goal_id": `+itoa(g.ID)+`, "fitness_goal_id": `+itoa(mine.ID)+`}`)
	run.must("lifeplan_propose_evidence", `{"belief_id": `+itoa(b.ID)+`, "text": "On the 9 mornings you trained you slept 40 minutes longer."}`)
	run.commit()
	gs, _ := s.Goals(ctx, "ada")
	bs, _ := s.Beliefs(ctx, "ada")
	if len(gs[0].FitnessGoalIDs) != 1 || gs[0].FitnessGoalIDs[0] != mine.ID || len(bs[0].Evidence) != 1 || bs[0].Evidence[0].Status != lifeplan.Suggested {
		t.Fatalf("goals %+v beliefs %+v", gs, bs)
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// TestGuidedFlowWithoutAModel: values from the list, then a purpose, then
// a goal, one turn each, each written through the tools and kept when
// the turn commits; a greeting gets the list.
func TestGuidedFlowWithoutAModel(t *testing.T) {
	s, db, _ := env(t)
	ctx := context.Background()
	run := newToolRun(t, db, s, "ada")
	caller := run.box.Caller(run.scope)
	turn := func(msg, want string) {
		t.Helper()
		run.scope = run.scope.WithStager(run.st)
		caller = run.box.Caller(run.scope)
		if got := lifeplan.Reply(ctx, caller, msg); !strings.Contains(got, want) {
			t.Fatalf("%q answered %q, want %q in it", msg, got, want)
		}
		run.commit()
	}
	turn("hello", "Pick up to five values")
	turn("family, health and adventure", "Your values: Family, Health, Adventure")
	turn("not sure", "Start with “My purpose is")
	turn("My purpose is to be there for the people I love", "Kept your purpose")
	turn("My goal is to hike with my kids", "Added “Hike with my kids” as a dream")
	p, err := s.Plan(ctx, "ada")
	if err != nil || len(p.Values) != 3 || p.Values[0].Name != "Family" || p.Purpose.Statement != "To be there for the people I love" ||
		len(p.Goals) != 1 || p.Goals[0].State != lifeplan.Dream {
		t.Fatalf("plan = %+v (%v)", p, err)
	}
}
